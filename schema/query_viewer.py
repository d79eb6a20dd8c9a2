"""Query fields about the caller and the server, and where a space's change log stands."""

from __future__ import annotations

import strawberry

from graphmem.model.paging import encode
from graphmem.schema.fields import GraphInfo, SpaceArg, field, run
from graphmem.schema.viewer_types import ServerInfo, Viewer


@strawberry.type
class ViewerQueries:
    @field("Who is calling: the key's name, tenant, role, capabilities and allowed spaces"
           " (any key; nothing is denied or audited, so a frontend asks this instead of"
           " trying operations).")
    async def viewer(self, info: GraphInfo) -> Viewer:
        return Viewer.from_model(await run(info, None))

    @field("The server: its version, whether a model is configured, where the managed"
           " Neo4j's Browser is.")
    async def server_info(self, info: GraphInfo) -> ServerInfo:
        return ServerInfo.from_model(await run(info, None))

    @field("Where the space's change log stands now: read it before the data you show, then"
           " subscribe with `after:` it, and every change committed since is delivered.")
    async def change_cursor(self, info: GraphInfo, space: SpaceArg) -> str:
        return encode("change", await run(info, space))
