"""Output types, each built from graphmem's plain data by a `from_model`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graphmem import model
from graphmem.graph.reads import History as ModelHistory
from graphmem.resolvers import events
from graphmem.resolvers.reads import SpaceStats as ModelStats
from graphmem.schema.enums import (
    Action,
    ConflictKind,
    ConflictStatus,
    Kind,
    PolicyMode,
    Status,
    TimeRef,
)
from graphmem.schema.scalars import JSON


@strawberry.type(description="A stored fact, with its valid-time and record-time bounds.")
class Fact:
    id: strawberry.ID
    space: str
    subject: str
    value: str
    scope: str
    kind: Kind
    time_ref: TimeRef
    status: Status
    confidence: float | None
    source: str
    source_ref: str
    raw: str
    metadata: JSON
    category: str | None
    head: str | None
    relation: str | None
    tail: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    retired_at: datetime | None
    supersedes: list[strawberry.ID]
    retracts: list[strawberry.ID]

    @classmethod
    def from_model(cls, f: model.Fact) -> Fact:
        return cls(
            id=strawberry.ID(f.id), space=f.space, subject=f.subject, value=f.value,
            scope=f.scope, kind=Kind(f.kind.value), time_ref=TimeRef(f.time_ref.value),
            status=Status(f.status.value), confidence=f.confidence, source=f.source,
            source_ref=f.source_ref, raw=f.raw, metadata=JSON(dict(f.metadata)),
            category=f.category, head=f.head, relation=f.relation, tail=f.tail,
            valid_from=f.valid_from, valid_to=f.valid_to, recorded_at=f.recorded_at,
            retired_at=f.retired_at, supersedes=[strawberry.ID(i) for i in f.supersedes],
            retracts=[strawberry.ID(i) for i in f.retracts],
        )


@strawberry.type(description="One line of a write: the action code decided, and its message.")
class RememberResult:
    action: Action
    subject: str
    value: str
    fact_id: strawberry.ID | None
    conflict_id: strawberry.ID | None
    message: str

    @classmethod
    def from_model(cls, r: model.Result) -> RememberResult:
        return cls(action=Action(r.action.value), subject=r.subject, value=r.value,
                   fact_id=_id(r.fact_id), conflict_id=_id(r.conflict_id), message=r.message)


@strawberry.type
class HistoryEntry:
    fact: Fact
    value: str
    status: str = strawberry.field(description="A Status, or REFINED for a value replaced"
                                               " in place.")


@strawberry.type(description="A subject's timeline, oldest to newest.")
class History:
    subject: str
    entries: list[HistoryEntry]
    text: str = strawberry.field(description="The timeline as the seed renders it.")

    @classmethod
    def from_model(cls, h: ModelHistory) -> History:
        return cls(subject=h.subject, text=str(h), entries=[
            HistoryEntry(fact=Fact.from_model(e.fact), value=e.value, status=e.status)
            for e in h.entries])


@strawberry.type(description="Two or more claims that need a person, or a pending change.")
class Conflict:
    id: strawberry.ID
    space: str
    kind: ConflictKind
    status: ConflictStatus
    fact_ids: list[strawberry.ID]
    severity: str
    note: str
    by: str
    winner: strawberry.ID | None
    created_at: datetime | None
    closed_at: datetime | None

    @classmethod
    def from_model(cls, c: model.Conflict) -> Conflict:
        return cls(id=strawberry.ID(c.id), space=c.space, kind=ConflictKind(c.kind.value),
                   status=ConflictStatus(c.status.value),
                   fact_ids=[strawberry.ID(i) for i in c.fact_ids], severity=c.severity,
                   note=c.note, by=c.by, winner=_id(c.winner), created_at=c.created_at,
                   closed_at=c.closed_at)


@strawberry.type
class SourceRank:
    source: str
    rank: int


@strawberry.type(description="A space's source policy.")
class Policy:
    mode: PolicyMode
    authority: list[SourceRank]
    curated: list[str]

    @classmethod
    def from_model(cls, p: model.Policy) -> Policy:
        return cls(mode=PolicyMode(p.mode.value), curated=sorted(p.curated),
                   authority=[SourceRank(source=s, rank=r) for s, r in sorted(p.authority.items())])


@strawberry.type
class PolicyResult:
    message: str
    policy: Policy


@strawberry.type(description="The outcome of a review action.")
class ChangeResult:
    message: str


@strawberry.type(description="Counts for one space.")
class SpaceStats:
    space: str
    active: int
    flagged: int
    open_conflicts: int
    pending_changes: int
    recently_retired: int

    @classmethod
    def from_model(cls, s: ModelStats) -> SpaceStats:
        return cls(space=s.space, active=s.active, flagged=s.flagged,
                   open_conflicts=s.open_conflicts, pending_changes=s.pending_changes,
                   recently_retired=s.recently_retired)


@strawberry.type(description="A change to a space's facts, delivered to subscribers.")
class FactChangedEvent:
    space: str
    change: str
    message: str
    fact_id: strawberry.ID | None
    subject: str | None
    value: str | None
    action: Action | None
    at: datetime

    @classmethod
    def from_event(cls, e: events.FactChange) -> FactChangedEvent:
        return cls(space=e.space, change=e.change, message=e.message, fact_id=_id(e.fact_id),
                   subject=e.subject, value=e.value,
                   action=Action(e.action.value) if e.action else None, at=e.at)


@strawberry.type(description="A conflict opened in a space, delivered to subscribers.")
class ConflictOpenedEvent:
    space: str
    conflict_id: strawberry.ID
    message: str
    fact_id: strawberry.ID | None
    subject: str | None
    value: str | None
    at: datetime

    @classmethod
    def from_event(cls, e: events.ConflictOpened) -> ConflictOpenedEvent:
        return cls(space=e.space, conflict_id=strawberry.ID(e.conflict_id), message=e.message,
                   fact_id=_id(e.fact_id), subject=e.subject, value=e.value, at=e.at)


def _id(value: Any) -> strawberry.ID | None:
    return None if value is None else strawberry.ID(str(value))
