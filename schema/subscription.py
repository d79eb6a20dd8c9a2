"""Subscription root: a space's changes over WebSocket (graphql-transport-ws), from the
durable change log, so every writer is heard (any worker, the CLI, the Python API)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated, TypeAlias

import strawberry

from graphmem.schema.change_types import (
    ConflictClosedEvent,
    ConflictOpenedEvent,
    FactChangedEvent,
    PendingChangedEvent,
)
from graphmem.schema.fields import GraphInfo, SpaceArg, stream, subscription

AfterCursor: TypeAlias = Annotated[str | None, strawberry.argument(
    description="Resume after this event's `cursor`: every later change of the space is"
                " delivered, in commit order (default: from now on).")]


@strawberry.type
class Subscription:
    @subscription("Every stored change to the space's facts.")
    async def fact_changed(self, info: GraphInfo, space: SpaceArg, after: AfterCursor = None
                           ) -> AsyncGenerator[FactChangedEvent, None]:
        async for change in stream(info, space, after=after):
            yield FactChangedEvent.from_change(change)

    @subscription("Every conflict opened in the space.")
    async def conflict_opened(self, info: GraphInfo, space: SpaceArg, after: AfterCursor = None
                              ) -> AsyncGenerator[ConflictOpenedEvent, None]:
        async for change in stream(info, space, after=after):
            yield ConflictOpenedEvent.from_change(change)

    @subscription("Every conflict closed in the space (resolved, dismissed, erased).")
    async def conflict_closed(self, info: GraphInfo, space: SpaceArg, after: AfterCursor = None
                              ) -> AsyncGenerator[ConflictClosedEvent, None]:
        async for change in stream(info, space, after=after):
            yield ConflictClosedEvent.from_change(change)

    @subscription("Every change to the space's pending proposals (confirm gate).")
    async def pending_changed(self, info: GraphInfo, space: SpaceArg, after: AfterCursor = None
                              ) -> AsyncGenerator[PendingChangedEvent, None]:
        async for change in stream(info, space, after=after):
            yield PendingChangedEvent.from_change(change)
