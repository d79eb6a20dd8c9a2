"""Subscription root: a space's changes over WebSocket (graphql-transport-ws)."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry

from graphmem.schema.fields import GraphInfo, SpaceArg, stream, subscription
from graphmem.schema.types import ConflictOpenedEvent, FactChangedEvent


@strawberry.type
class Subscription:
    @subscription("Every stored change to the space's facts.")
    async def fact_changed(self, info: GraphInfo,
                           space: SpaceArg) -> AsyncGenerator[FactChangedEvent, None]:
        async for event in stream(info, space):
            yield FactChangedEvent.from_event(event)

    @subscription("Every conflict opened in the space.")
    async def conflict_opened(self, info: GraphInfo,
                              space: SpaceArg) -> AsyncGenerator[ConflictOpenedEvent, None]:
        async for event in stream(info, space):
            yield ConflictOpenedEvent.from_event(event)
