"""The MCP server: the tools, the space resources, the prompt, and the caller's view.

`build_server(open_host, poll_seconds)` assembles one `MCPServer`. Its lifespan opens the
`Host` (runtime, metrics, how to tell the caller) and runs the resource watcher beside it;
the stdio and HTTP transports differ only in the host they open. `tools/list` is answered
per caller: a tool whose capability the caller's key lacks is not listed (calling it anyway
is refused by the guard, and audited).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp_types import ListToolsResult

from graphmem import __version__
from graphmem.mcp import (
    entity_tools,
    listing_tools,
    memory_tools,
    prompts,
    record_tools,
    resources,
    review_tools,
)
from graphmem.mcp.host import Host
from graphmem.mcp.registry import TOOLS, tools_for
from graphmem.mcp.watch import Watcher

# importing them registers the tools
_MODULES = (memory_tools, listing_tools, entity_tools, review_tools, record_tools)

INSTRUCTIONS = (
    "graphmem is a memory that reconciles facts on write: a new value supersedes the old "
    "one, a removal retracts it, an unsafe change is flagged for a person. Every tool acts "
    "on one memory space named by user_id, agent_id and run_id (each 'default' when "
    "omitted); your key decides the tenant and what you may do. Recall before you answer, "
    "remember what the user asserts (see the use_memory prompt).")


async def tools_for_caller(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                           ) -> HandlerResult:
    """`tools/list` lists only the tools the caller's key may call."""
    result = await call_next(ctx)
    if ctx.method != "tools/list":
        return result
    host: Host = ctx.lifespan_context
    allowed = tools_for((await host.identify(ctx.request)).principal)
    if isinstance(result, ListToolsResult):
        return result.model_copy(update={"tools": [t for t in result.tools
                                                   if t.name in allowed]})
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        # the runner hands middleware the result in its wire form
        return {**result, "tools": [t for t in result["tools"]
                                    if isinstance(t, dict) and t.get("name") in allowed]}
    return result


def build_server(open_host: Callable[[], Host], poll_seconds: float = 1.0) -> MCPServer[Host]:
    bus = InMemorySubscriptionBus()

    @asynccontextmanager
    async def lifespan(_: MCPServer[Host]) -> AsyncIterator[Host]:
        host = open_host()
        host.watcher = Watcher(host.runtime, bus, poll_seconds)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(host.watcher.run)
            try:
                yield host
            finally:
                tasks.cancel_scope.cancel()

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server: MCPServer[Host] = MCPServer(
        "graphmem", title="graphmem", version=__version__, instructions=INSTRUCTIONS,
        lifespan=lifespan, subscriptions=bus, middleware=[tools_for_caller,
                                                          resources.guard_listen],
        log_level="WARNING")
    # MCPServer gives the root logger a handler of its own; graphmem's logging is set up by
    # its commands (graphmem.http.logs for serve), so the root is put back as it was.
    root.handlers[:] = handlers
    root.setLevel(level)
    order = [m.__name__ for m in _MODULES]
    for rule in sorted(TOOLS.values(), key=lambda r: order.index(r.fn.__module__)):
        server.add_tool(rule.fn, name=rule.name, title=rule.title or None,
                        annotations=rule.annotations, structured_output=False)
    resources.register(server)
    prompts.register(server)
    return server
