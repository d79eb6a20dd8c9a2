"""How well a path of the entity graph answers a question: pure scoring, no I/O.

A path is a sequence of hops; each hop walks a relation from its head (forward) or from its
tail to an entity whose types are known (the folded type, and the types the relation's
facts wrote for that end). A question is its phrases in outward order (`question.read`),
and, when it asks `which city`, a last phrase for that noun.

Each phrase is weighed against every relation an entity offers (`Judge.evidence`):

- words: how close the phrase is to the relation's readings (declared, described by a
  model, learned from text, derived by the lexicon, or the label), by WordNet and by the
  embedding model, the best reading counting;
- direction: whether the reading, read in the grammar of the phrase, walks the relation
  this way ("the films X directed" walks `directed by` from the tail);
- type: whether a noun names the kind of entity the hop reaches (a `manager` is a person).

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from graphmem.lexicon.senses import Senses
from graphmem.model.relations import (
    TRUST,
    VERB_KINDS,
    Reading,
    ReadingKind,
    ReadingSource,
    RelationInfo,
)
from graphmem.recall.question import FUNCTION_WORDS, NOUN, VERB, Phrase, Question

Vector = npt.NDArray[np.float32]
GUESSED = "type"  # the source of a phrase matched by the type of entity alone
EMBEDDING = "embedding"
EMBEDDING_FLOOR, EMBEDDING_SPAN = 0.45, 0.4
EMBEDDING_TRUST = 0.7  # the model says two words share a topic; the lexicon, a meaning


@dataclass(frozen=True)
class PathRanking:
    """The weights of the score (named, so a benchmark or a caller can try others)."""

    threshold: float = 0.1  # a hop must be asked for by a phrase this much to pay for itself
    unasked: float = 0.25  # a last hop no phrase asks for ("in which city is X": where it is)
    unasked_inner: float = 0.5  # a hop before the last no phrase asks for
    rivalry: float = 0.6  # how much the best rival relation's evidence is held against a hop
    type_weight: float = 0.6  # a noun's kind against the type of the entity reached
    understood: float = 0.3  # word evidence from which a phrase counts as understood
    faint: float = 0.2  # word evidence below this is noise (a word of a definition)
    typed: float = 0.6  # kind evidence from which a noun is explained by an entity's type
    unexplained: float = 1.2  # a phrase nothing on the path explains
    misfit: float = 0.15  # evidence kept when a reading walks the relation the other way
    undirected: float = 0.85  # kept when nothing says which way, and the default way is taken
    against_default: float = 0.6  # kept when nothing says which way, against the default
    answer_kind: float = 0.5  # the answer entity's type against the kind asked for
    mismatch: float = 0.3  # below this fit, the path's end is not what `who`/`when` asks for
    hub: float = 0.03  # per natural log of the edges a hop chose among
    named: float = 1.5  # a path to another entity the question names ("how is X related to Y")
    beam: int = 32  # partial paths kept after each hop
    per_group: int = 8  # edges read per entity, relation and direction


DEFAULT = PathRanking()
VAGUE_KINDS = frozenset({"place"})  # `where` asks for a place or an organisation
PLACE_LIKE = ("location", "organisation")
UNTYPED = frozenset({"other", "unknown", ""})


@dataclass(frozen=True)
class Option:
    """A relation an entity offers, walked one way, to entities of these types."""

    relation: str
    forward: bool
    end_types: tuple[str, ...]


@dataclass(frozen=True)
class Evidence:
    """What says a phrase asks for an option: `words` (0 to 1, direction applied), `kind`
    (None when the phrase is no noun or the end has no type), the reading and question
    word behind the words, and their source."""

    words: float
    kind: float | None
    reading: Reading | None = None
    source: str = ""

    def value(self, rank: PathRanking) -> float:
        if self.kind is None:
            return self.words
        return self.words + rank.type_weight * (self.kind - 0.5)


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


ANSWER_WORDS = frozenset({"place", "person", "time"})  # what where, who and when ask for
KIND_WORDS = {"place": "location", "person": "person", "time": "time"}
ANY_RELATION = ("relate", "connect")  # the verbs of "how is X related to Y"
SELF_TYPED = 0.6  # a verb this close to the kind it asks for means no more than that kind


class Memo:
    """What comparing words taught one process, kept across questions: it depends on the
    words alone (and the lexicon and embedding model, fixed for a process). Emptied when it
    grows past `size` entries."""

    def __init__(self, size: int = 200_000) -> None:
        self.size = size
        self.words: dict[tuple[str, str, bool], tuple[float, str]] = {}
        self.kinds: dict[tuple[str, str], float] = {}
        self.families: dict[tuple[str, str], bool] = {}

    def trim(self) -> None:
        for table in (self.words, self.kinds, self.families):
            if len(table) > self.size:
                table.clear()


@dataclass
class Judge:
    """Weighs phrases against relations: the lexicon, the embedding model's unit vectors of
    the texts compared, and what is known of each relation type; remembers what it
    computed (per question, and across questions in `memo`)."""

    senses: Senses | None
    vectors: Mapping[str, Vector]
    relations: Mapping[str, RelationInfo]
    rank: PathRanking = DEFAULT
    memo: Memo = field(default_factory=Memo)
    _evidence: dict[tuple[Phrase, Option], Evidence] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.memo.trim()
        self._kinds = self.memo.kinds
        self._words = self.memo.words
        self._families = self.memo.families

    # ---- words --------------------------------------------------------------------------
    def embedded(self, a: str, b: str) -> float:
        """The embedding model's similarity, mapped so that only near-synonyms count:
        all-MiniLM-L6-v2 puts any two words of one field (`manager`, `worker`) at 0.5."""
        va, vb = self.vectors.get(a), self.vectors.get(b)
        if va is None or vb is None:
            return 0.0
        return EMBEDDING_TRUST * max(0.0, min(1.0, (float(va @ vb) - EMBEDDING_FLOOR)
                                             / EMBEDDING_SPAN))

    def close(self, phrase: str, reading: str, embed: bool = True) -> tuple[float, str]:
        """How close two texts are, and which judged it (`lexicon` or `embedding`): the
        lexicon on their last words and on every pair (the others weigh less), the
        embedding model on the whole texts (not for words the lexicon derived itself)."""
        key = (phrase, reading, embed)
        found = self._words.get(key)
        if found is not None:
            return found
        best, how = (self.embedded(phrase, reading) if embed else 0.0), EMBEDDING
        if self.senses is not None:
            ours = phrase.split()
            theirs = [w for w in reading.split() if w not in FUNCTION_WORDS] or reading.split()
            for k, a in enumerate(ours):
                for b in theirs:
                    weight = 1.0 if k == len(ours) - 1 else 0.8
                    value = weight * self.senses.related(a, b)
                    if value > best:
                        best, how = value, "lexicon"
        self._words[key] = (best, how)
        return best, how

    def family(self, phrase: str, reading: str) -> bool:
        """Forms of one word, or words one derives from the other (`directed`/`director`):
        their grammar may be compared."""
        if self.senses is None:
            return False
        key = (phrase, reading)
        found = self._families.get(key)
        if found is None:
            a, b = phrase.split()[-1], reading.split()[0] if reading.split() else ""
            found = bool(b) and (self.senses.same_lemma(a, b)
                                 or self.senses.related(a, b) >= 0.6)
            self._families[key] = found
        return found

    def generic(self, phrase: str) -> bool:
        """Words for a relation of any kind: `related`, `connected`, `linked`."""
        if self.senses is None:
            return phrase.split()[-1].startswith("relat")
        return any(self.senses.related(phrase.split()[-1], w) >= 0.6 for w in ANY_RELATION)

    # ---- kinds --------------------------------------------------------------------------
    def kind(self, noun: str, types: Sequence[str]) -> float | None:
        """How surely `noun` names an entity of one of `types` (None: no type to judge)."""
        usable = [t for t in types if t not in UNTYPED]
        if not usable or self.senses is None:
            return None
        head = noun.split()[-1]
        return max(self._kind(head, t) for t in usable)

    def _kind(self, noun: str, type_: str) -> float:
        key = (noun, type_)
        found = self._kinds.get(key)
        if found is None:
            assert self.senses is not None
            words = type_.replace("_", " ").split()
            found = max(self.senses.kind(noun, w) for w in words[-1:])
            self._kinds[key] = found
        return found

    # ---- evidence -----------------------------------------------------------------------
    def evidence(self, phrase: Phrase, option: Option) -> Evidence:
        key = (phrase, option)
        found = self._evidence.get(key)
        if found is None:
            found = self._evidence[key] = self._weigh(phrase, option)
        return found

    def _weigh(self, phrase: Phrase, option: Option) -> Evidence:
        info = self.relations.get(option.relation)
        best = Evidence(0.0, None)
        best_words = 0.0
        for reading in info.readings if info else ():
            closeness, how = self.close(phrase.text, reading.words,
                                        embed=reading.source != ReadingSource.LEXICON)
            if closeness <= 0.0:
                continue
            fits = self.fits(phrase, reading, option.forward)
            factor = (1.0 if fits else self.rank.misfit) if fits is not None else (
                self.rank.undirected if default_way(phrase) == option.forward
                else self.rank.against_default)
            value = closeness * TRUST[reading.source] * reading.weight * factor
            if value > best_words:
                source = reading.source.value if how == "lexicon" or reading.source in (
                    ReadingSource.DECLARED, ReadingSource.MODEL, ReadingSource.TEXT) \
                    else EMBEDDING
                if closeness >= 0.999:
                    source = reading.source.value
                best_words, best = value, Evidence(value, None, reading, source)
        expected = self.expected(phrase, option)
        if phrase.kind == VERB and phrase.expects and expected and self.senses is not None:
            # a verb that only says where (or who, or when) something is ("where is X
            # located"): the kind it asks for is its whole meaning
            kind = KIND_WORDS.get(phrase.expects, phrase.expects)
            itself = self.senses.related(phrase.text.split()[-1], kind)
            if itself >= SELF_TYPED and itself * expected > best_words:
                best_words = itself * expected
                best = Evidence(best_words, None, None, "lexicon")
        if best_words < self.rank.faint:
            return Evidence(0.0, expected)
        return Evidence(best_words, expected, best.reading, best.source)

    def expected(self, phrase: Phrase, option: Option) -> float | None:
        """How well the entity the option reaches is what the phrase calls it: a noun's
        own kind, a verb's other end as the question names it (`who` → a person)."""
        if phrase.kind == NOUN:
            return self.kind(phrase.text, option.end_types)
        if phrase.kind == VERB and phrase.expects:
            wanted = phrase.expects
            if wanted in VAGUE_KINDS:
                found = [self.kind(w, option.end_types) for w in PLACE_LIKE]
                known = [f for f in found if f is not None]
                return max(known) if known else None
            if wanted == "time" and self.senses is not None:
                return _time_like(self, option.end_types) if any(
                    t not in UNTYPED for t in option.end_types) else None
            return self.kind(KIND_WORDS.get(wanted, wanted), option.end_types)
        return None

    def fits(self, phrase: Phrase, reading: Reading, forward: bool) -> bool | None:
        """Whether the reading, in the phrase's grammar, walks the relation this way (None:
        the phrase's grammar or the reading's says nothing of it)."""
        if not phrase.kind or reading.kind == ReadingKind.ABOUT:
            return None
        if phrase.kind == NOUN:
            if reading.kind in (ReadingKind.TAIL, ReadingKind.HEAD):
                return forward == (reading.kind == ReadingKind.TAIL)
            if not self.family(phrase.text, reading.words) or self.senses is None:
                return None
            # a noun from the reading's verb names its doer, or what it acts on
            agentive = self.senses.agentive(phrase.text.split()[-1])
            reached_head = agentive == _head_is_agent(reading)
            return forward != reached_head
        if reading.kind in VERB_KINDS:
            if not self.family(phrase.text, reading.words):
                return None
            entity_is_head = phrase.agent == _head_is_agent(reading)
            return forward == entity_is_head
        if not self.family(phrase.text, reading.words):
            return None
        # a verb of the reading's noun: the entity is what the noun names when it does
        # what the verb says (`X acted` and `actors`), else the other end
        names_tail = reading.kind == ReadingKind.TAIL
        entity_is_named = phrase.agent == reading.agent
        entity_is_head = not names_tail if entity_is_named else names_tail
        return forward == entity_is_head


def _head_is_agent(reading: Reading) -> bool:
    """Whether the relation's head does what a verb reading says."""
    if reading.kind == ReadingKind.INVERSE:
        return reading.passive
    return not reading.passive


def default_way(phrase: Phrase) -> bool:
    """The way a phrase walks when nothing else says: a noun names what its entity has
    (`X's manager`: forward), a verb goes from its subject (`X works at`) and back from its
    object (`reports to X`)."""
    if phrase.kind == VERB:
        return phrase.subject
    return True


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
           leave: Sequence[float]) -> tuple[float, list[int | None]]:
    """The best monotone alignment of hops to phrases: its value and each hop's phrase.
    Leaving phrase j unaligned costs `leave[j]` (nothing when an entity's type explains
    it); the answer's noun (the last phrase of a `which`-question) may only take the last
    hop."""
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
                    taken = above[j - 1] + hop.asked[j - 1].gain
                    if taken > value:
                        value, step = taken, ("take", j - 1)
            row[j], move[(i, j)] = value, step
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
    return best[n][m], taken_at


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
    total, taken = _align(rank, phrases, hops, leave)
    used = {k for k in taken if k is not None}
    last = max(used, default=-1)
    hope = 0.0
    unexplained: list[str] = []
    for k, phrase in enumerate(phrases):
        if k in used or not leave[k]:
            continue
        if k > last:  # a longer path could still align it; one before `last` never will
            hope += rank.unexplained + 1.0
        unexplained.append(phrase.text)
    kind = question.answer_kind
    mismatch = ""
    if kind in KIND_WORDS and hops:
        ends = hops[-1].end_types
        wanted = PLACE_LIKE if kind in VAGUE_KINDS else (KIND_WORDS[kind],)
        fit = max((judge.kind(w, ends) or 0.0) for w in wanted) if judge.senses else 0.0
        if kind == "time" and judge.senses is not None:
            fit = max(fit, _time_like(judge, ends))
        typed = any(t not in UNTYPED for t in ends)
        total += rank.answer_kind * (fit - 0.5) if typed else 0.0
        hope += rank.answer_kind
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


def _time_like(judge: Judge, types: Sequence[str]) -> float:
    """A type naming a span of time (`year`, `date`): WordNet files it under noun.time."""
    senses = judge.senses
    assert senses is not None
    best = 0.0
    for type_ in types:
        if type_ in UNTYPED:
            continue
        for _, synset, _ in senses.wn.lookup(type_.split()[-1], "n"):
            if synset.lexname == "noun.time":
                best = 1.0
    return best


Vectors = Callable[[Sequence[str]], Mapping[str, Vector]]
