"""Subscriptions: one space's events from the change feed (every writer's, in commit
order), admitted by the same guard; `after` resumes from an event's cursor."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from graphmem.model.paging import decode
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation
from graphmem.service.changes import (
    CONFLICT_CLOSED,
    CONFLICT_OPENED,
    FACT_CHANGED,
    PENDING_CHANGED,
    Change,
)


def _events(call: Call, channel: str, after: str | None) -> AsyncGenerator[Change, None]:
    assert call.space is not None
    cursor = decode("change", after) if after is not None else None
    return call.context.feed.subscribe(call.space.key, frozenset({channel}),
                                       (int(cursor[0]), str(cursor[1]), int(cursor[2]))
                                       if cursor is not None else None)


@operation(FACT_CHANGED, "read", stream=True)
def fact_changed(call: Call, after: str | None = None) -> AsyncGenerator[Change, None]:
    return _events(call, FACT_CHANGED, after)


@operation(CONFLICT_OPENED, "read", stream=True)
def conflict_opened(call: Call, after: str | None = None) -> AsyncGenerator[Change, None]:
    return _events(call, CONFLICT_OPENED, after)


@operation(CONFLICT_CLOSED, "read", stream=True)
def conflict_closed(call: Call, after: str | None = None) -> AsyncGenerator[Change, None]:
    return _events(call, CONFLICT_CLOSED, after)


@operation(PENDING_CHANGED, "read", stream=True)
def pending_changed(call: Call, after: str | None = None) -> AsyncGenerator[Change, None]:
    return _events(call, PENDING_CHANGED, after)
