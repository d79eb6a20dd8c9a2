"""What says a phrase of a question asks for a relation an entity offers: pure, no I/O.

Three things, weighed by `Judge.evidence`:

- words: how close the phrase is to the relation's readings (declared, described by a
  model, learned from text, derived by the lexicon, or the label), by WordNet and, for
  near-synonyms, by the embedding model, the best reading counting;
- direction: whether the reading, read in the grammar of the phrase, walks the relation
  this way ("the films X directed" walks `directed by` from the tail);
- type: whether a noun names the kind of entity the hop reaches (a `manager` is a person),
  or a verb's other end is what the question calls it (`who` → a person).

Similarities are cosines of unit vectors the caller computed with the embedding model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from graphmem.recall.question import FUNCTION_WORDS, NOUN, VERB, Phrase
from graphmem.recall.ranking_weights import DEFAULT, PathRanking

Vector = npt.NDArray[np.float32]
GUESSED = "type"  # the source of a phrase matched by the type of entity alone
EMBEDDING = "embedding"
EMBEDDING_FLOOR, EMBEDDING_SPAN = 0.45, 0.4
EMBEDDING_TRUST = 0.7  # the model says two words share a topic; the lexicon, a meaning
VAGUE_KINDS = frozenset({"place"})  # `where` asks for a place or an organisation
PLACE_LIKE = ("location", "organisation")
UNTYPED = frozenset({"other", "unknown", ""})
ANSWER_WORDS = frozenset({"place", "person", "time"})  # what where, who and when ask for
KIND_WORDS = {"place": "location", "person": "person", "time": "time"}
ANY_RELATION = ("relate", "connect")  # the verbs of "how is X related to Y"
SELF_TYPED = 0.6  # a verb this close to the kind it asks for means no more than that kind


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
                return time_like(self, option.end_types) if any(
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


def time_like(judge: Judge, types: Sequence[str]) -> float:
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
