"""What subscriptions deliver: one space's changes from the durable change log, each with
the cursor a reconnecting client passes as `after` to miss nothing."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.model import Action, ConflictKind
from graphmem.model.paging import encode
from graphmem.resolvers import loaders
from graphmem.schema.fields import GraphInfo, field
from graphmem.schema.types import Fact
from graphmem.service.changes import Change


def _cursor(change: Change) -> str:
    return encode("change", change.key)


def _ids(values: tuple[str, ...]) -> list[strawberry.ID]:
    return [strawberry.ID(v) for v in values]


def _id(value: str | None) -> strawberry.ID | None:
    return None if value is None else strawberry.ID(value)


@strawberry.type(description="A change to a space's facts: remembered, retracted, confirmed,"
                             " rejected, resolved, dismissed or erased.")
class FactChangedEvent:
    cursor: str = strawberry.field(description="Pass as `after` to resume after this event.")
    space: str
    change: str
    message: str
    fact_id: strawberry.ID | None
    fact_ids: list[strawberry.ID] = strawberry.field(description="Every fact an erasure"
                                                                 " removed (ids only).")
    subject: str | None
    value: str | None
    action: Action | None
    at: datetime

    @field("The fact as it is now (null once erased).")
    async def fact(self, info: GraphInfo) -> Fact | None:
        if self.fact_id is None:
            return None
        found = await loaders.facts(info.context, self.space, None).load(str(self.fact_id))
        return None if found is None else Fact.from_model(found)

    @classmethod
    def from_change(cls, c: Change) -> FactChangedEvent:
        return cls(cursor=_cursor(c), space=c.space, change=c.change, message=c.message,
                   fact_id=_id(c.fact_id), fact_ids=_ids(c.fact_ids), subject=c.subject,
                   value=c.value, action=Action(c.action) if c.action else None, at=c.at)


@strawberry.type(description="A conflict opened in a space (or a flagged fact that joined an"
                             " open one of the same slot and kind).")
class ConflictOpenedEvent:
    cursor: str
    space: str
    conflict_id: strawberry.ID
    kind: ConflictKind | None
    message: str
    fact_id: strawberry.ID | None
    fact_ids: list[strawberry.ID]
    subject: str | None
    value: str | None
    at: datetime

    @classmethod
    def from_change(cls, c: Change) -> ConflictOpenedEvent:
        return cls(cursor=_cursor(c), space=c.space, conflict_id=strawberry.ID(c.conflict_id
                                                                               or ""),
                   kind=ConflictKind(c.kind) if c.kind else None, message=c.message,
                   fact_id=_id(c.fact_id), fact_ids=_ids(c.fact_ids), subject=c.subject,
                   value=c.value, at=c.at)


@strawberry.type(description="A conflict closed: resolved for a winner, dismissed, or erased"
                             " with its facts.")
class ConflictClosedEvent:
    cursor: str
    space: str
    conflict_id: strawberry.ID
    kind: ConflictKind | None
    status: str = strawberry.field(description="resolved, dismissed or erased.")
    change: str
    winner: strawberry.ID | None
    note: str | None
    by: str | None
    message: str
    at: datetime

    @classmethod
    def from_change(cls, c: Change) -> ConflictClosedEvent:
        return cls(cursor=_cursor(c), space=c.space,
                   conflict_id=strawberry.ID(c.conflict_id or ""),
                   kind=ConflictKind(c.kind) if c.kind else None, status=c.status or "",
                   change=c.change, winner=_id(c.winner), note=c.note, by=c.by,
                   message=c.message, at=c.at)


@strawberry.type(description="The pending changes (confirm-gate proposals) changed: one was"
                             " proposed, confirmed or rejected, or facts were erased.")
class PendingChangedEvent:
    cursor: str
    space: str
    change: str
    conflict_id: strawberry.ID | None
    fact_id: strawberry.ID | None
    fact_ids: list[strawberry.ID]
    subject: str | None
    value: str | None
    message: str
    at: datetime

    @classmethod
    def from_change(cls, c: Change) -> PendingChangedEvent:
        return cls(cursor=_cursor(c), space=c.space, change=c.change,
                   conflict_id=_id(c.conflict_id), fact_id=_id(c.fact_id),
                   fact_ids=_ids(c.fact_ids), subject=c.subject, value=c.value,
                   message=c.message, at=c.at)
