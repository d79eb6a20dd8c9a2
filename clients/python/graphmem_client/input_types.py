from datetime import datetime
from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Action, Cardinality, Kind, PathDirection, TimeRef


class EntityRefInput(BaseModel):
    """A start entity: by type and name, or by name alone (every entity of that exact name, whatever its type)."""

    type_: Optional[str] = Field(alias="type", default=None)
    name: str


class FactInput(BaseModel):
    """A pre-extracted fact (the extractor's JSON shape). With a (head, relation, tail) triple, `subject` defaults to `head relation` (normalised: alice_works_at) and `value` to the tail. `sourceRef` and `metadata` override the call's for this fact (metadata merges over it)."""

    subject: Optional[str] = None
    value: Optional[str] = None
    scope: Optional[str] = None
    kind: Optional[Kind] = None
    time_ref: Optional[TimeRef] = Field(alias="timeRef", default=None)
    action: Optional[Action] = None
    confidence: Optional[float] = None
    head: Optional[str] = None
    relation: Optional[str] = None
    tail: Optional[str] = None
    head_type: Optional[str] = Field(alias="headType", default=None)
    tail_type: Optional[str] = Field(alias="tailType", default=None)
    cardinality: Optional[Cardinality] = None
    category: Optional[str] = None
    reason: Optional[str] = None
    target_id: Optional[str] = Field(alias="targetId", default=None)
    valid_from: Optional[datetime] = Field(alias="validFrom", default=None)
    valid_to: Optional[datetime] = Field(alias="validTo", default=None)
    raw: Optional[str] = None
    source_ref: Optional[str] = Field(alias="sourceRef", default=None)
    metadata: Optional[Any] = None
    recorded_at: Optional[datetime] = Field(alias="recordedAt", default=None)
    "When memory learnt it, for a backfill (backfill capability, as validFrom)."


class PathStepInput(BaseModel):
    """One step of a path pattern: a relation (its label or UPPER_SNAKE type) and the way it is walked."""

    relation: str
    direction: PathDirection = PathDirection.OUT


class RelationInput(BaseModel):
    """A relation as declared: its label (any spelling its facts use), what it means, the verb phrases that read it head to tail (`forward`) and tail to head (`inverse`), the nouns that name its head and its tail, its ends' types, and `one` or `many` tails per head."""

    label: str
    description: Optional[str] = None
    forward: Optional[list[str]] = None
    inverse: Optional[list[str]] = None
    head_nouns: Optional[list[str]] = Field(alias="headNouns", default=None)
    tail_nouns: Optional[list[str]] = Field(alias="tailNouns", default=None)
    head_type: Optional[str] = Field(alias="headType", default=None)
    tail_type: Optional[str] = Field(alias="tailType", default=None)
    cardinality: Optional[str] = None


class SourceRankInput(BaseModel):
    source: str
    rank: int


class ValidDuringInput(BaseModel):
    """A world-time interval: what was true at some point of [from, to). Either end may be left open."""

    from_: Optional[datetime] = Field(alias="from", default=None)
    to: Optional[datetime] = None
