"""What graphmem knows about each relation of a space: the words that read it, and where
each reading came from.

A relation type (`REPORTS_TO`) is read four ways: `forward` words make a sentence from its
head to its tail ("Amara *reports to* Bruno"), `inverse` words from its tail to its head
("Bruno *manages* Amara"), `tail` nouns name the tail ("Amara's *manager*") and `head` nouns
the head ("Bruno's *report*"). Readings come from, most trusted first: the space's declared
relation schema, a model's one-time description of the relation, the text the relation's
facts were written from (their subjects and sentences), the lexicon (WordNet's
derivations of the label's words), and the label itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class ReadingKind(StrEnum):
    FORWARD = "forward"  # head <words> tail
    INVERSE = "inverse"  # tail <words> head
    TAIL = "tail"  # a noun naming the tail
    HEAD = "head"  # a noun naming the head
    ABOUT = "about"  # a word of a description: what the relation is about, no way round


class ReadingSource(StrEnum):
    DECLARED = "declared"
    MODEL = "model"
    TEXT = "text"
    LEXICON = "lexicon"
    LABEL = "label"


TRUST = {ReadingSource.DECLARED: 1.0, ReadingSource.MODEL: 0.95, ReadingSource.TEXT: 0.9,
         ReadingSource.LEXICON: 0.85, ReadingSource.LABEL: 1.0}
VERB_KINDS = frozenset({ReadingKind.FORWARD, ReadingKind.INVERSE})


@dataclass(frozen=True)
class Reading:
    """Words that read a relation one way; `passive` verb words put the patient first
    ("directed by"); `agent`: a noun that names the doer of the relation's verb."""

    words: str
    kind: ReadingKind
    source: ReadingSource
    passive: bool = False
    agent: bool = False
    weight: float = 1.0  # less for a lexicon's derivation from a rarer sense


@dataclass(frozen=True)
class RelationDeclaration:
    """A relation as a user declares it: its label, what it means, the words that read it
    each way, the types of its ends and how many tails a head has."""

    label: str
    description: str = ""
    forward: tuple[str, ...] = ()
    inverse: tuple[str, ...] = ()
    head_nouns: tuple[str, ...] = ()
    tail_nouns: tuple[str, ...] = ()
    head_type: str | None = None
    tail_type: str | None = None
    cardinality: str | None = None  # "one" or "many" tails per head


@dataclass(frozen=True)
class RelationSchema:
    """A space's declared relations, with the version each change of it raises."""

    relations: tuple[RelationDeclaration, ...] = ()
    version: int = 0
    updated_at: str | None = None


@dataclass(frozen=True)
class RelationDescription:
    """What a model said a relation means (as a declaration would), which model, when."""

    model: str
    at: str | None
    declaration: RelationDeclaration


@dataclass(frozen=True)
class RelationInfo:
    """Everything known about one relation type of a space: the labels its facts were
    written with, the types written for its ends, its readings by source, and how many of
    its facts were read to learn them."""

    type: str
    labels: tuple[str, ...] = ()
    description: str = ""
    head_types: tuple[str, ...] = ()
    tail_types: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()
    facts_read: int = 0
    declared: bool = False
    described_by: str | None = None  # the model that described it, when one did
    cardinality: str | None = None
    sources: tuple[str, ...] = field(default=())

    def of_kind(self, *kinds: ReadingKind) -> tuple[Reading, ...]:
        return tuple(r for r in self.readings if r.kind in kinds)
