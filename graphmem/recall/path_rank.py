"""How well a path of the entity graph answers a question: pure scoring, no I/O.

A path is a sequence of hops; each hop walks a relation from its head (forward) or from its
tail to an entity whose types are known (the folded type, and the types the relation's
facts wrote for that end). A question is its phrases in outward order (`question.read`),
and, when it asks `which city`, a last phrase for that noun.

Each phrase is weighed against every relation an entity offers (graphmem.recall.evidence:
its words, the direction its grammar walks, the kind of entity it names).

A hop's gain for a phrase is that evidence less the best rival relation's at the same
entity (a word that fits everything explains nothing) and a threshold. The path's score
aligns hops to phrases in order (a monotone alignment) and adds up the gains; a hop no
phrase asks for costs the threshold, and a phrase nothing on the path explains costs more
than any hop can gain, so a longer path that explains it wins. A phrase explained only by
its type (the one relation here that reaches a person, for `manager`) ranks the path but
is reported as guessed: no answer is stated from a guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.recall.evidence import (
    ANSWER_WORDS,
    GUESSED,
    KIND_WORDS,
    PLACE_LIKE,
    UNTYPED,
    VAGUE_KINDS,
    Judge,
    Option,
    time_like,
)
from graphmem.recall.question import NOUN, Phrase, Question
from graphmem.recall.ranking_weights import DEFAULT, PathRanking

BEST_GAIN = 1.0  # what one aligned hop gains at best, near enough (words 1, no rival)
__all__ = ["DEFAULT", "Asked", "Hop", "PathRanking", "Scored", "gains", "phrases_of", "score"]


@dataclass(frozen=True)
class Asked:
    """A phrase's gain on one hop and how it was understood."""

    gain: float
    source: str  # declared, model, text, lexicon, label, embedding; `type` when guessed
    reading: str = ""


@dataclass(frozen=True)
class Hop:
    """One step of a path as the ranking sees it: `asked[j]` is phrase j's gain on it."""

    relation: str
    forward: bool
    end_types: tuple[str, ...]
    asked: tuple[Asked, ...]
    fanout: int = 1
    named: bool = False  # reaches another entity the question names


@dataclass(frozen=True)
class Scored:
    """A path's score; for each hop, the phrase it was aligned to (None: none asked) and
    how it was understood; the phrases nothing explained, and those only guessed."""

    score: float
    matched: tuple[str | None, ...]
    sources: tuple[str, ...] = ()
    readings: tuple[str, ...] = ()  # per hop, the reading its phrase matched ("" if none)
    unexplained: tuple[str, ...] = ()
    guessed: tuple[str, ...] = ()
    hope: float = 0.0  # the most the path could still gain by growing
    unasked: tuple[str, ...] = ()  # relations before the last hop that no words asked for
    mismatch: str = ""  # the kind the question asks for, when the path ends at another


def phrases_of(question: Question) -> tuple[Phrase, ...]:
    """The question's phrases, and the noun of `which city` last: it may name the last
    relation (`what genre`) or only the type of the answer."""
    kind = question.answer_kind
    if kind and kind not in ANSWER_WORDS:
        return (*question.phrases, Phrase(kind, True, NOUN, answer=True))
    return question.phrases


def gains(judge: Judge, phrases: Sequence[Phrase], options: Sequence[Option]
          ) -> dict[Option, tuple[Asked, ...]]:
    """Each option's gain for each phrase, against the other relations at the same entity."""
    rank = judge.rank
    table = {o: [judge.evidence(p, o) for p in phrases] for o in options}
    found: dict[Option, tuple[Asked, ...]] = {}
    for option in options:
        asked = []
        for j, phrase in enumerate(phrases):
            own = table[option][j]
            rivals = [table[o][j].value(rank) for o in options if o.relation != option.relation]
            rival = max([0.0, *rivals])
            gain = own.value(rank) - rank.rivalry * rival - rank.threshold
            takes_hops = phrase.kind != NOUN or phrase.relational or phrase.answer
            if not takes_hops:
                source = ""  # a class noun names what a hop reaches, asks for no hop
            elif own.words >= rank.understood:
                source = own.source
            elif (own.kind is not None and own.kind >= rank.typed and own.value(rank) > rival
                  and not phrase.answer):
                source = GUESSED
            else:
                source = ""
            asked.append(Asked(gain, source, own.reading.words if own.reading else ""))
        found[option] = tuple(asked)
    return found


def _align(rank: PathRanking, phrases: Sequence[Phrase], hops: Sequence[Hop],
           leave: Sequence[float]) -> tuple[float, list[int | None], float]:
    """The best monotone alignment of hops to phrases: its value, each hop's phrase, and the
    most the path could still gain by growing: the best prefix alignment (the first j
    phrases taken by these hops) with every later phrase one that a longer path still
    aligns at the best gain a hop gives (so "the manager" is not spent by a first hop that
    a later phrase could use better). Leaving phrase j unaligned costs `leave[j]` (nothing
    when an entity's type explains it); the answer's noun (the last phrase of a
    `which`-question) may only take the last hop."""
    n, m = len(hops), len(phrases)
    best = [[0.0] * (m + 1)] + [[-math.inf] * (m + 1) for _ in range(n)]
    for j in range(1, m + 1):
        best[0][j] = best[0][j - 1] - leave[j - 1]
    move: dict[tuple[int, int], tuple[str, int]] = {}
    for i in range(1, n + 1):
        hop, row, above = hops[i - 1], best[i], best[i - 1]
        unasked = rank.unasked if i == n else rank.unasked_inner
        for j in range(m + 1):
            value, step = above[j] - unasked, ("none", j)
            if j:
                skipped = row[j - 1] - leave[j - 1]
                if skipped > value:
                    value, step = skipped, ("skip", j - 1)
                if hop.asked[j - 1].source and (i == n or not phrases[j - 1].answer):
                    gain = hop.asked[j - 1].gain
                    if phrases[j - 1].answer:  # `which city`'s noun only spares the last hop
                        gain = min(gain, rank.unasked)  # its cost: it asks for no more hops
                    taken = above[j - 1] + gain
                    if taken > value:
                        value, step = taken, ("take", j - 1)
            row[j], move[(i, j)] = value, step
    future = 0.0  # phrases j.. aligned by hops still to come, each at the best gain
    optimistic = best[n][m]
    for j in range(m, -1, -1):
        optimistic = max(optimistic, best[n][j] + future)
        if j:
            future += BEST_GAIN if leave[j - 1] else 0.0
    taken_at: list[int | None] = [None] * n
    i, j = n, m
    while i:
        kind, k = move[(i, j)]
        if kind == "take":
            taken_at[i - 1] = k
            i, j = i - 1, k
        elif kind == "none":
            i -= 1
        else:
            j = k
    return best[n][m], taken_at, optimistic - best[n][m]


def _typed(judge: Judge, phrase: Phrase, hops: Sequence[Hop], start_types: Sequence[str]
           ) -> bool:
    """A class noun an entity on the path is (`company` in "the company X works for"), or
    the noun of `which city` that the last entity is; True when no type can tell. Words
    asking for any relation at all ("how is X related to Y") are explained by a path that
    reaches Y."""
    if hops and hops[-1].named and judge.generic(phrase.text):
        return True
    if phrase.kind != NOUN or phrase.relational:
        return False
    types = [hops[-1].end_types] if phrase.answer and hops else [
        tuple(start_types), *(h.end_types for h in hops)]
    typed = [judge.kind(phrase.text, t) for t in types]
    known = [t for t in typed if t is not None]
    return not known or max(known) >= judge.rank.typed


def score(judge: Judge, question: Question, phrases: Sequence[Phrase], hops: Sequence[Hop],
          start_types: Sequence[str] = ()) -> Scored:
    """The path's score against the question (higher is better)."""
    rank = judge.rank
    leave = [0.0 if _typed(judge, p, hops, start_types) else rank.unexplained
             for p in phrases]
    total, taken, hope = _align(rank, phrases, hops, leave)
    used = {k for k in taken if k is not None}
    unexplained = [p.text for k, p in enumerate(phrases) if k not in used and leave[k]]
    kind = question.answer_kind
    mismatch = ""
    if kind in KIND_WORDS and hops:
        ends = hops[-1].end_types
        wanted = PLACE_LIKE if kind in VAGUE_KINDS else (KIND_WORDS[kind],)
        fit = max((judge.kind(w, ends) or 0.0) for w in wanted) if judge.senses else 0.0
        if kind == "time" and judge.senses is not None:
            fit = max(fit, time_like(judge, ends))
        typed = any(t not in UNTYPED for t in ends)
        total += rank.answer_kind * (fit - 0.5) if typed else 0.0
        # a longer path may end at an entity nearer the kind asked for
        hope += rank.answer_kind * ((1.0 - fit) if typed else 0.5)
        if typed and fit < rank.mismatch and judge.senses is not None:
            mismatch = KIND_WORDS[kind] if kind not in VAGUE_KINDS else "place"
    # a hop no words ask for is implied only at the end ("in which city is X": where it is)
    inner = () if hops and hops[-1].named else tuple(
        h.relation for h, k in zip(hops[:-1], taken[:-1], strict=True) if k is None)
    total -= rank.hub * sum(math.log(h.fanout) for h in hops if h.fanout > 1)
    if hops and hops[-1].named:
        total += rank.named
    elif question.others:
        hope += rank.named
    matched = tuple(None if k is None else phrases[k].text for k in taken)
    sources = tuple("" if k is None else hop.asked[k].source for k, hop in zip(taken, hops,
                                                                              strict=True))
    readings = tuple("" if k is None else hop.asked[k].reading for k, hop in zip(taken, hops,
                                                                               strict=True))
    guessed = tuple(m for m, s in zip(matched, sources, strict=True) if m and s == GUESSED)
    return Scored(total, matched, sources, readings, tuple(unexplained), guessed, hope,
                  inner, mismatch)
