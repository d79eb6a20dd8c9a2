"""Input types, turned into the dicts graphmem's Python API validates."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from graphmem.schema.enums import Action, Cardinality, Kind, TimeRef
from graphmem.schema.scalars import JSON


@strawberry.input(description="A pre-extracted fact (the extractor's JSON shape). With a"
                              " (head, relation, tail) triple, `subject` defaults to `head"
                              " relation` (normalised: alice_works_at) and `value` to the"
                              " tail. `sourceRef` and `metadata` override the call's for this"
                              " fact (metadata merges over it).")
class FactInput:
    subject: str | None = None
    value: str | None = None
    scope: str | None = None
    kind: Kind | None = None
    time_ref: TimeRef | None = None
    action: Action | None = None
    confidence: float | None = None
    head: str | None = None
    relation: str | None = None
    tail: str | None = None
    head_type: str | None = None
    tail_type: str | None = None
    cardinality: Cardinality | None = None
    category: str | None = None
    reason: str | None = None
    target_id: strawberry.ID | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    raw: str | None = None
    source_ref: str | None = None
    metadata: JSON | None = None
    recorded_at: datetime | None = strawberry.field(
        default=None, description="When memory learnt it, for a backfill (backfill"
                                  " capability, as validFrom).")

    def to_dict(self) -> dict[str, Any]:
        """Only the fields given, enum values unwrapped, keys as the Python API names them."""
        out: dict[str, Any] = {}
        for name, value in vars(self).items():
            if value is None:
                continue
            out[name] = value.value if isinstance(value, Enum) else value
        return out


@strawberry.input
class SourceRankInput:
    source: str
    rank: int


@strawberry.enum(description="Which way a path step walks its relation: OUT from its head,"
                             " IN from its tail.")
class PathDirection(Enum):
    OUT = "OUT"
    IN = "IN"


@strawberry.input(description="One step of a path pattern: a relation (its label or"
                              " UPPER_SNAKE type) and the way it is walked.")
class PathStepInput:
    relation: str
    direction: PathDirection = PathDirection.OUT


@strawberry.input(description="A relation as declared: its label (any spelling its facts"
                              " use), what it means, the verb phrases that read it head to"
                              " tail (`forward`) and tail to head (`inverse`), the nouns that"
                              " name its head and its tail, its ends' types, and `one` or"
                              " `many` tails per head.")
class RelationInput:
    label: str
    description: str | None = None
    forward: list[str] | None = None
    inverse: list[str] | None = None
    head_nouns: list[str] | None = None
    tail_nouns: list[str] | None = None
    head_type: str | None = None
    tail_type: str | None = None
    cardinality: str | None = None

    def plain(self) -> dict[str, object]:
        return {k: v for k, v in vars(self).items() if v is not None}


@strawberry.input(description="A start entity: by type and name, or by name alone (every"
                              " entity of that exact name, whatever its type).")
class EntityRefInput:
    type: str | None = None
    name: str
