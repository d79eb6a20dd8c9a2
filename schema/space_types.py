"""A memory space of the caller's tenant, with its counts (one statement per page)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.model import Space as ModelSpace
from graphmem.model.stats import SpaceInfo, SpaceStats
from graphmem.resolvers import loaders
from graphmem.schema.fields import AsOf, GraphInfo, ValidAt, ValidDuring, field, when
from graphmem.schema.relay import Node, global_id


@strawberry.type(description="A memory space (tenant/user/agent/run) that something wrote to.")
class Space(Node):
    key: str
    tenant: str
    user: str
    agent: str
    run: str
    created_at: datetime | None

    @field("Counts by aggregation (asked for a whole page of spaces,"
                                  " one statement).")
    async def stats(self, info: GraphInfo, as_of: AsOf = None, valid_at: ValidAt = None,
                    valid_during: ValidDuring = None) -> SpaceStats:
        moment = when(as_of, valid_at, valid_during)
        return await loaders.space_stats(info.context, moment).load(self.key)

    @classmethod
    def from_model(cls, s: SpaceInfo) -> Space:
        parts = ModelSpace.parse(s.key)
        return cls(id=global_id("Space", s.key, s.key), key=s.key, tenant=parts.tenant,
                   user=parts.user, agent=parts.agent, run=parts.run, created_at=s.created_at)
