"""The caller and the server: who the key is and what it may do, what the server offers,
and where a space's change log stands. Reading them runs nothing on memory, so nothing is
denied or audited on the way (a frontend asks at sign-in instead of trying operations)."""

from __future__ import annotations

from graphmem.model.principals import Principal
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation
from graphmem.service.change_head import head
from graphmem.service.changes import EventKey
from graphmem.service.server_info import ServerInfo, server_info


@operation("viewer", "read", reach="caller")
def viewer(call: Call) -> Principal:
    return call.principal


@operation("serverInfo", "read", reach="caller")
def server(call: Call) -> ServerInfo:
    return server_info(call.context.runtime.settings)


@operation("changeCursor", "read")
def change_cursor(call: Call) -> EventKey:
    assert call.space is not None
    return head(call.context.runtime, call.space.key)
