"""`graphmem mcp`: the MCP server over stdio, for the one local client that started it.

Without a key the caller is the trusted local admin of the `default` tenant (the process
runs as the user who started it, on their machine); with a key (`--key` or
GRAPHMEM_API_KEY) it is that key's principal, checked again on every call through the key
cache, so revoking the key stops an open session. stdout carries only the protocol; logs go
to stderr.
"""

from __future__ import annotations

import anyio
import anyio.to_thread

from graphmem.errors import Unauthenticated
from graphmem.mcp.host import Host, Who, new_request_id
from graphmem.mcp.server import build_server
from graphmem.model.principals import Authenticator, Principal, local_admin
from graphmem.runtime import Runtime
from graphmem.service.access import authenticator
from graphmem.service.metrics import Metrics
from graphmem.service.model_budget import ModelBudget
from graphmem.settings import Settings


class LocalCaller:
    def __init__(self, principal: Principal) -> None:
        self.principal = principal

    async def __call__(self, request: object) -> Who:
        return Who(self.principal, new_request_id())


class KeyCaller:
    """The principal of one API key, verified on every call (cached for at most
    GRAPHMEM_API_KEY_CACHE_SECONDS; a revocation on this host empties the cache)."""

    def __init__(self, keys: Authenticator, token: str) -> None:
        self.keys = keys
        self.token = token

    async def __call__(self, request: object) -> Who:
        rid = new_request_id()
        found = self.keys.verified(self.token)
        if found is not None:
            return Who(found, rid)
        try:
            return Who(await anyio.to_thread.run_sync(self.keys.authenticate, self.token), rid)
        except Unauthenticated as e:
            return Who(None, rid, str(e))


def serve_stdio(settings: Settings, token: str | None) -> None:
    """Run until the client closes stdin. A bad key or an unreachable Neo4j fails here,
    before the protocol starts, with one line on stderr."""
    runtime = Runtime.open(settings)
    try:
        runtime.graph.verify()
        runtime.migrate()
        if token:
            keys = authenticator(runtime)
            keys.authenticate(token)
            caller: LocalCaller | KeyCaller = KeyCaller(keys, token)
        else:
            caller = LocalCaller(local_admin())
        runtime.mirror.start()
        metrics = Metrics()
        metrics.watch_models(runtime.model_clients)
        budget = ModelBudget(settings.api_model_calls_per_min)
        server = build_server(lambda: Host(runtime, metrics, caller, "stdio", budget),
                              settings.mcp_poll_seconds)
        anyio.run(server.run_stdio_async)
    finally:
        runtime.close()
