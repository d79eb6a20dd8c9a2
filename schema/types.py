"""Output types of facts, conflicts, timelines and writes, each built from graphmem's plain
data by a `from_model`. Objects remember their space and the `asOf` they were read at, so
nested fields (a conflict's facts, what superseded a fact) read at the same point of time,
batched by the request's DataLoaders."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graphmem import model
from graphmem.model import history as reads
from graphmem.model import undo
from graphmem.model.paging import Page
from graphmem.model.stats import SpaceStats
from graphmem.resolvers import loaders
from graphmem.schema.enums import (
    Action,
    Cardinality,
    ConflictKind,
    ConflictStatus,
    Kind,
    PolicyMode,
    Status,
    TimeRef,
)
from graphmem.schema.fields import GraphInfo, field
from graphmem.schema.relay import Connection, Node, connection_fields, global_id
from graphmem.schema.scalars import JSON

strawberry.type(SpaceStats, name="SpaceStats", description="Counts for one space, by"
                " aggregation: facts by the status each had at the time read, open conflicts"
                " (and of them confirm-gate proposals), entities.")


@strawberry.type(description="A value a fact held before it was refined in place.")
class Refinement:
    value: str
    at: datetime | None
    source: str


@strawberry.type(description="A stored fact, with its valid-time and record-time bounds."
                             " Read with `asOf`, it is as memory held it then: its status"
                             " then, and a refined value as it read then.")
class Fact(Node):
    fact_id: strawberry.ID = strawberry.field(description="The fact's own id, as mutations"
                                                          " and the Python API take it.")
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
    cardinality: Cardinality
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    retired_at: datetime | None
    supersedes: list[strawberry.ID] = strawberry.field(description="Ids of the facts this one"
                                                                   " superseded.")
    retracts: list[strawberry.ID] = strawberry.field(description="Ids of the facts this"
                                                                 " tombstone retracted.")
    refinements: list[Refinement] = strawberry.field(description="Values it held before"
                                                                 " being refined, oldest"
                                                                 " first.")
    event_id: strawberry.ID | None = strawberry.field(description="The event that recorded"
                                                                  " it (`undoEvent` reverts"
                                                                  " it).")
    undone_by: strawberry.ID | None = strawberry.field(description="The undo that voided it,"
                                                                   " if one did.")
    _as_of: strawberry.Private[datetime | None]

    @field("The fact that superseded this one, or the tombstone that"
                                  " retracted it (null while it is current).")
    async def superseded_by(self, info: GraphInfo) -> Fact | None:
        found = await loaders.superseded_by(info.context, self.space, self._as_of).load(
            str(self.fact_id))
        return None if found is None else Fact.from_model(found, self._as_of)

    @classmethod
    def from_model(cls, f: model.Fact, as_of: datetime | None = None) -> Fact:
        return cls(
            id=global_id("Fact", f.space, f.id), fact_id=strawberry.ID(f.id), space=f.space,
            subject=f.subject, value=f.value, scope=f.scope, kind=f.kind, time_ref=f.time_ref,
            status=f.status, confidence=f.confidence, source=f.source,
            source_ref=f.source_ref, raw=f.raw, metadata=JSON(dict(f.metadata)),
            category=f.category, head=f.head, relation=f.relation, tail=f.tail,
            cardinality=f.cardinality, valid_from=f.valid_from, valid_to=f.valid_to,
            recorded_at=f.recorded_at, retired_at=f.retired_at,
            supersedes=[strawberry.ID(i) for i in f.supersedes],
            retracts=[strawberry.ID(i) for i in f.retracts],
            refinements=[_refinement(r) for r in f.revisions], event_id=_id(f.event),
            undone_by=_id(f.undone_by), _as_of=as_of)


def _refinement(revision: dict[str, Any]) -> Refinement:
    at = revision.get("at")
    return Refinement(value=str(revision.get("value")), source=str(revision.get("source") or ""),
                      at=datetime.fromisoformat(at) if isinstance(at, str) else None)


@strawberry.type(description="An ACTIVE fact a new one overlaps by entities:"
                             " nothing was decided; supersede, open a conflict or ignore it.")
class Collision:
    fact_id: strawberry.ID
    subject: str
    value: str
    shared: list[str] = strawberry.field(description="The entity keys both facts are about.")
    jaccard: float


@strawberry.type(description="One line of a write: the action code decided, and its message.")
class RememberResult:
    action: Action
    subject: str
    value: str
    fact_id: strawberry.ID | None
    conflict_id: strawberry.ID | None
    message: str
    collisions: list[Collision]
    _space: strawberry.Private[str]
    consistency_token: str | None = strawberry.field(
        default=None, description="Send it back as the `Graphmem-Consistency` header and"
                                  " the reads of that request see this write, on any host.")
    event_id: strawberry.ID | None = strawberry.field(
        default=None, description="The write's event: `undoEvent` reverts what it did.")
    redacted: list[str] = strawberry.field(
        default_factory=list, description="The kinds of secrets (or personal data) redaction"
                                          " removed from the write before anything stored it.")

    @field("The fact stored (or refined, or kept on a DEDUP).")
    async def fact(self, info: GraphInfo) -> Fact | None:
        if self.fact_id is None:
            return None
        found = await loaders.facts(info.context, self._space, None).load(str(self.fact_id))
        return None if found is None else Fact.from_model(found)

    @classmethod
    def from_model(cls, r: model.Result, space: str) -> RememberResult:
        return cls(action=r.action, subject=r.subject, value=r.value, fact_id=_id(r.fact_id),
                   conflict_id=_id(r.conflict_id), message=r.message, _space=space,
                   consistency_token=r.consistency_token, event_id=_id(r.event_id),
                   redacted=list(r.redacted),
                   collisions=[Collision(fact_id=strawberry.ID(str(c["fact_id"])),
                                         subject=str(c["subject"]), value=str(c["value"]),
                                         shared=[str(s) for s in c["shared"]],
                                         jaccard=float(c["jaccard"])) for c in r.collisions])


@strawberry.type(description="What an undo did; undo `eventId` to redo.")
class UndoResult:
    event_id: strawberry.ID = strawberry.field(description="The undo's own event.")
    undone: strawberry.ID = strawberry.field(description="The event it undid.")
    message: str
    lines: list[str] = strawberry.field(description="Each change, one line.")
    restored: list[strawberry.ID] = strawberry.field(description="The copies that bring"
                                                                 " values back.")
    retired: list[strawberry.ID] = strawberry.field(description="The facts retired,"
                                                                " withdrawn or voided.")
    closed: list[strawberry.ID] = strawberry.field(description="Conflicts closed with"
                                                               " nothing left in them.")
    forced: bool = strawberry.field(description="Later values were retired too (force).")
    consistency_token: str | None = None

    @classmethod
    def from_model(cls, r: undo.UndoResult) -> UndoResult:
        return cls(event_id=strawberry.ID(r.event_id), undone=strawberry.ID(r.undone),
                   message=r.message, lines=list(r.lines), restored=_ids(r.restored),
                   retired=_ids(r.retired), closed=_ids(r.closed), forced=r.forced,
                   consistency_token=r.consistency_token)


@strawberry.type(description="One entry of a timeline: a fact, or a value it held before"
                             " being refined (status REFINED).")
class HistoryEntry:
    fact: Fact
    value: str
    status: str = strawberry.field(description="A Status, or REFINED for a value replaced"
                                               " in place.")


@strawberry.type(description="A timeline, oldest to newest, a page at a time (`last` reads"
                             " it from the newest end).")
class History(Connection[HistoryEntry]):
    subject: str
    text: str = strawberry.field(description="The page as `history` renders it.")

    @field("The entries of this page.",
           deprecation_reason="Use `edges` or `nodes` (a page of the timeline).")
    def entries(self) -> list[HistoryEntry]:
        return self._nodes

    @classmethod
    def from_page(cls, subject: str, page: Page[reads.HistoryEntry],
                  as_of: datetime | None) -> History:
        def convert(e: reads.HistoryEntry) -> HistoryEntry:
            return HistoryEntry(fact=Fact.from_model(e.fact, as_of), value=e.value,
                                status=e.status)

        text = str(reads.History(subject, page.items))
        return cls(subject=subject, text=text, **connection_fields(page, convert))


@strawberry.type(description="Two or more claims that need a person, or a pending change.")
class Conflict(Node):
    conflict_id: strawberry.ID = strawberry.field(description="The conflict's own id, as"
                                                              " mutations take it.")
    space: str
    kind: ConflictKind
    status: ConflictStatus
    subject: str
    scope: str
    fact_ids: list[strawberry.ID]
    severity: str
    note: str
    by: str
    winner: strawberry.ID | None
    created_at: datetime | None
    closed_at: datetime | None
    _as_of: strawberry.Private[datetime | None]

    @field("The facts the conflict involves, side by side (one read"
                                  " for a whole page of conflicts).")
    async def facts(self, info: GraphInfo) -> list[Fact]:
        found = await loaders.facts(info.context, self.space, self._as_of).load_many(
            [str(i) for i in self.fact_ids])
        return [Fact.from_model(f, self._as_of) for f in found if f is not None]

    @classmethod
    def from_model(cls, c: model.Conflict, as_of: datetime | None = None) -> Conflict:
        return cls(id=global_id("Conflict", c.space, c.id), conflict_id=strawberry.ID(c.id),
                   space=c.space, kind=c.kind, status=c.status, subject=c.subject,
                   scope=c.scope, fact_ids=[strawberry.ID(i) for i in c.fact_ids],
                   severity=c.severity, note=c.note, by=c.by, winner=_id(c.winner),
                   created_at=c.created_at, closed_at=c.closed_at, _as_of=as_of)


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
        return cls(mode=p.mode, curated=sorted(p.curated),
                   authority=[SourceRank(source=s, rank=r) for s, r in sorted(p.authority.items())])


@strawberry.type
class PolicyResult:
    message: str
    policy: Policy


@strawberry.type(description="The outcome of a review action.")
class ChangeResult:
    message: str


def _ids(values: tuple[str, ...]) -> list[strawberry.ID]:
    return [strawberry.ID(v) for v in values]


def _id(value: Any) -> strawberry.ID | None:
    return None if value is None else strawberry.ID(str(value))
