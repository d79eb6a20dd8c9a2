"""How well a path of the entity graph answers a question: pure scoring, no I/O.

A path is a sequence of hops; each hop is a relation (its label, `works at`, and the role its
fact's subject gives the tail, `employer`) walked forwards or backwards to an entity of some
type. A question is its phrases in outward order (`question.read`). The score aligns hops to
phrases in that order, each phrase used once (a monotone alignment), and adds up:

- each aligned hop: how much closer the phrase is to this relation than to any other relation
  or entity type the graph offers, less a threshold, so that a hop only pays for itself when
  a phrase asks for it; a hop no phrase asks for costs the threshold;
- each phrase left over: a cost when it reads like a relation and no entity type on the path
  explains it (`company` in "the company X works for" is the organisation reached);
- the answer: the last entity's type against the kind the question asks for (`which city`);
- direction: a relation walked backwards costs a little, unless the question uses the
  relation's own words before the entity (`who reports to X`), which asks for exactly that;
- hubs: a hop that picked one of many edges of the same relation costs the log of their number;
- a path that ends at another entity the question names ("how is X related to Y") gains.

Similarities are cosines of unit vectors the caller computed with the embedding model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from bench.multihop.baseline.question import Phrase, Question

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class PathRanking:
    """The weights of the score (named, so a benchmark or a caller can try others)."""

    threshold: float = 0.35  # a hop must be asked for by a phrase this much to pay for itself
    rivalry: float = 0.4  # how much the best rival explanation of a phrase is held against it
    leftover: float = 0.5  # the cost of a relation-like phrase no hop or entity explains
    answer_kind: float = 0.6  # the answer entity's type against the kind asked for
    vague_kind: float = 0.3  # the same for `where`, which asks for a place or an organisation
    backwards: float = 0.15  # walking a relation from its tail to its head
    hub: float = 0.04  # per natural log of the edges a hop chose among
    named: float = 1.5  # a path to another entity the question names ("how is X related to Y")
    beam: int = 32  # partial paths kept after each hop
    per_group: int = 8  # edges read per entity, relation and direction


DEFAULT = PathRanking()
VAGUE_KINDS = frozenset({"place"})


@dataclass(frozen=True)
class Hop:
    """One step of a path as the ranking sees it."""

    relation: str
    role: str
    forward: bool
    end_type: str
    fanout: int = 1
    named: bool = False  # reaches another entity the question names


@dataclass(frozen=True)
class Scored:
    """A path's score and, for each hop, the phrase it was aligned to (None: none asked)."""

    score: float
    matched: tuple[str | None, ...]
    hope: float = 0.0  # the most the path could still gain by growing


@dataclass
class Lexicon:
    """Unit vectors by text, and the relations and types the graph offers as rivals; what is
    derived from them is remembered until either set grows (`add`)."""

    vectors: Mapping[str, Vector]
    relations: set[tuple[str, str]] = field(default_factory=set)
    types: set[str] = field(default_factory=set)
    _sims: dict[tuple[str, str], float] = field(default_factory=dict)
    _derived: dict[tuple[object, ...], float] = field(default_factory=dict)

    def add(self, relations: Iterable[tuple[str, str]], types: Iterable[str]) -> None:
        grown = set(relations) - self.relations, set(types) - self.types
        if grown[0] or grown[1]:
            self.relations |= grown[0]
            self.types |= grown[1]
            self._derived.clear()

    def sim(self, a: str, b: str) -> float:
        key = (a, b)
        found = self._sims.get(key)
        if found is None:
            found = float(self.vectors[a] @ self.vectors[b])
            self._sims[key] = found
        return found

    def relation_sim(self, phrase: str, relation: str, role: str) -> float:
        return max(self.sim(phrase, relation), self.sim(phrase, role))

    def rival(self, phrase: str, hop: Hop) -> float:
        """The best explanation of `phrase` other than the hop: another relation, or a type
        other than the one the hop reaches (`product` is what `makes` leads to)."""
        key = ("rival", phrase, hop.relation, hop.end_type)
        found = self._derived.get(key)
        if found is None:
            best = max((self.relation_sim(phrase, r, ro) for r, ro in self.relations
                        if r != hop.relation), default=0.0)
            found = max([best, *(self.sim(phrase, t) for t in self.types if t != hop.end_type)])
            self._derived[key] = found
        return found

    def relation_like(self, phrase: str) -> float:
        key = ("like", phrase)
        found = self._derived.get(key)
        if found is None:
            found = max((self.relation_sim(phrase, r, ro) for r, ro in self.relations),
                        default=0.0)
            self._derived[key] = found
        return found

    def kind_sim(self, kind: str) -> float:
        """How near the nearest entity type known so far is to the kind of answer asked for."""
        return self.remembered(("kind", kind), lambda: max(
            (self.sim(kind, t) for t in self.types), default=0.0))

    def remembered(self, key: tuple[object, ...], compute: Callable[[], float]) -> float:
        found = self._derived.get(key)
        if found is None:
            found = self._derived[key] = compute()
        return found


_STEM = re.compile(r"(?:ing|ed|es|s)$")


def _stem(word: str) -> str:
    return _STEM.sub("", word) if len(word) > 4 else word


def _names_relation(phrase: Phrase, relation: str) -> bool:
    """The phrase uses the relation's own words (`reports` for `reports to`)."""
    words = {_stem(w) for w in relation.split()}
    return any(_stem(w) in words for w in phrase.text.split())


def _gain(lex: Lexicon, rank: PathRanking, phrase: Phrase, hop: Hop) -> float:
    def compute() -> float:
        own = lex.relation_sim(phrase.text, hop.relation, hop.role)
        gain = own - rank.rivalry * lex.rival(phrase.text, hop) - rank.threshold
        asks_backwards = phrase.before and _names_relation(phrase, hop.relation)
        return gain - rank.backwards if hop.forward == asks_backwards else gain

    return lex.remembered(("gain", phrase, hop.relation, hop.role, hop.forward, hop.end_type,
                           rank), compute)


def _align(lex: Lexicon, rank: PathRanking, phrases: Sequence[Phrase], hops: Sequence[Hop]
           ) -> tuple[float, list[int | None]]:
    """The best monotone alignment of hops to phrases: its value and each hop's phrase."""
    n, m = len(hops), len(phrases)
    best = [[0.0] * (m + 1)] + [[-math.inf] * (m + 1) for _ in range(n)]
    move: dict[tuple[int, int], tuple[str, int]] = {}
    for i in range(1, n + 1):
        hop, row, above = hops[i - 1], best[i], best[i - 1]
        unasked = rank.threshold + (0.0 if hop.forward else rank.backwards)
        for j in range(m + 1):
            value, step = above[j] - unasked, ("none", j)
            if j:
                if row[j - 1] > value:
                    value, step = row[j - 1], ("skip", j - 1)
                taken = above[j - 1] + _gain(lex, rank, phrases[j - 1], hop)
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


def may_mean(lex: Lexicon, rank: PathRanking, phrase: Phrase, relation: str,
             roles: Iterable[str]) -> bool:
    """Whether the phrase could ask for this relation (its words, or a role it gives)."""
    if phrase.before and _names_relation(phrase, relation):
        return True
    return max([lex.sim(phrase.text, relation), *(lex.sim(phrase.text, r) for r in roles
                                                  if r in lex.vectors)]) >= rank.threshold


def score(lex: Lexicon, question: Question, hops: Sequence[Hop],
          rank: PathRanking = DEFAULT) -> Scored:
    """The path's score against the question (higher is better)."""
    phrases = question.phrases
    total, taken = _align(lex, rank, phrases, hops)
    used = {k for k in taken if k is not None}
    types = [h.end_type for h in hops]
    hope = 0.0
    for k, phrase in enumerate(phrases):
        if k in used:
            continue
        explained = max(lex.sim(phrase.text, t) for t in types)
        cost = rank.leftover * max(0.0, lex.relation_like(phrase.text) - explained)
        total -= cost
        # a longer path could still align it (aligning every hop again)
        hope += cost + max(0.0, lex.relation_like(phrase.text) - rank.threshold)
    if question.answer_kind and hops:
        weight = rank.vague_kind if question.answer_kind in VAGUE_KINDS else rank.answer_kind
        kind = lex.sim(question.answer_kind, hops[-1].end_type)
        total += weight * kind
        # a longer path may end at an entity of a type nearer the kind asked for
        hope += weight * max(0.0, lex.kind_sim(question.answer_kind) - kind)
    total -= rank.hub * sum(math.log(h.fanout) for h in hops if h.fanout > 1)
    if hops and hops[-1].named:
        total += rank.named
    elif question.others:
        hope += rank.named
    return Scored(total, tuple(None if k is None else phrases[k].text for k in taken), hope)
