"""A space's current facts and open conflicts as MCP resources, and subscriptions to them.

`graphmem://facts/{user_id}/{agent_id}/{run_id}` reads the space's active facts (flagged
ones marked ⚠); `graphmem://conflicts/{user_id}/{agent_id}/{run_id}` its open conflicts;
`graphmem://fact/…/{fact_id}`, `graphmem://conflict/…/{conflict_id}` and
`graphmem://entity/…/{type}/{name}` one of each, for a host to attach to a conversation.
Reading or subscribing passes the same guard as a tool (read capability, the space in the
key's scope), and a refusal is audited. Change notifications come from graphmem.mcp.watch.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    EmptyResult,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)

from graphmem.errors import AccessDenied, GraphMemError, Unauthenticated
from graphmem.mcp import errors
from graphmem.mcp.args import PART
from graphmem.mcp.calls import admit_rule
from graphmem.mcp.host import Host, Who
from graphmem.mcp.pages import conflict_line, conflicts_text, fact_line
from graphmem.service.guard import Admitted
from graphmem.service.records import Listing

FACTS = "graphmem://facts/{user_id}/{agent_id}/{run_id}"
CONFLICTS = "graphmem://conflicts/{user_id}/{agent_id}/{run_id}"
_URI = re.compile(r"^graphmem://(facts|conflicts)/([^/]{1,128})/([^/]{1,128})/([^/]{1,128})$")
_PART = re.compile(PART)


@dataclass(frozen=True)
class ResourceRule:
    name: str
    capability: str = "read"
    reach: str = "space"


RULES = {"facts": ResourceRule("read_facts"), "conflicts": ResourceRule("read_conflicts"),
         "fact": ResourceRule("read_fact"), "conflict": ResourceRule("read_conflict"),
         "entity": ResourceRule("read_entity")}
FACT = "graphmem://fact/{user_id}/{agent_id}/{run_id}/{fact_id}"
CONFLICT = "graphmem://conflict/{user_id}/{agent_id}/{run_id}/{conflict_id}"
ENTITY = "graphmem://entity/{user_id}/{agent_id}/{run_id}/{type}/{name}"
SHOWN = 200  # facts a space's facts resource shows; list_memories pages past them


def parse(uri: str) -> tuple[str, str]:
    """(`facts` or `conflicts`, `user/agent/run`) of a resource URI, or ValueError."""
    found = _URI.match(uri)
    if found is None or not all(_PART.match(p) for p in found.groups()[1:]):
        raise ValueError(f"{uri[:300]!r} is not a graphmem resource: use"
                         " graphmem://facts/USER/AGENT/RUN or graphmem://conflicts/USER/AGENT/RUN")
    kind, *parts = found.groups()
    return kind, "/".join(parts)


async def admit(host: Host, who: Who, kind: str, raw_space: str) -> Admitted:
    return await admit_rule(host, RULES[kind], raw_space, who)


async def read(ctx: Context[Any, Any], kind: str, raw_space: str, *names: str) -> str:
    host: Host = ctx.request_context.lifespan_context
    who = await host.identify(ctx.request_context.request)
    rule = RULES[kind]
    started = time.perf_counter()
    outcome = "ok"
    try:
        admitted = await admit(host, who, kind, raw_space)
        return await anyio.to_thread.run_sync(_render, admitted, host, kind, names)
    except (AccessDenied, Unauthenticated) as e:
        outcome = ""
        raise ResourceError(str(e)) from None
    except Exception as e:
        outcome = errors.outcome(e)
        raise ResourceError(errors.message(e, rule.name, who.request_id)) from None
    finally:
        if outcome:
            host.metrics.observe_operation(rule.name, outcome, time.perf_counter() - started)


def _render(admitted: Admitted, host: Host, kind: str, names: tuple[str, ...]) -> str:
    mem = admitted.memory(host.runtime)
    if kind == "facts":
        listing = mem.records.list_memories(first=SHOWN)
        return str(Listing(listing.active, listing.flagged, (), listing.next_cursor))
    if kind == "fact":
        return fact_line(mem.records.fact(names[0]))
    if kind == "conflict":
        return conflict_line(mem.review.conflict(names[0]))
    if kind == "entity":
        return str(mem.entities.get(names[0], names[1]))
    return conflicts_text(mem.review.conflicts("open"), "open")


def register(server: MCPServer[Any]) -> None:
    @server.resource(FACTS, name="facts", title="Current facts", mime_type="text/plain",
                     description="The space's active facts (flagged ones marked ⚠); subscribe"
                                 " to be told when they change.")
    async def facts(user_id: str, agent_id: str, run_id: str, ctx: Context[Any, Any]) -> str:
        return await read(ctx, "facts", f"{user_id}/{agent_id}/{run_id}")

    @server.resource(CONFLICTS, name="conflicts", title="Open conflicts",
                     mime_type="text/plain",
                     description="The space's open conflicts; subscribe to be told when"
                                 " they change.")
    async def conflicts(user_id: str, agent_id: str, run_id: str,
                        ctx: Context[Any, Any]) -> str:
        return await read(ctx, "conflicts", f"{user_id}/{agent_id}/{run_id}")

    @server.resource(FACT, name="fact", title="A fact", mime_type="text/plain",
                     description="One fact of a space by its id: value, status, source.")
    async def fact(user_id: str, agent_id: str, run_id: str, fact_id: str,
                   ctx: Context[Any, Any]) -> str:
        return await read(ctx, "fact", f"{user_id}/{agent_id}/{run_id}", fact_id)

    @server.resource(CONFLICT, name="conflict", title="A conflict", mime_type="text/plain",
                     description="One conflict of a space by its id, with its facts.")
    async def conflict(user_id: str, agent_id: str, run_id: str, conflict_id: str,
                       ctx: Context[Any, Any]) -> str:
        return await read(ctx, "conflict", f"{user_id}/{agent_id}/{run_id}", conflict_id)

    @server.resource(ENTITY, name="entity", title="An entity", mime_type="text/plain",
                     description="An entity of a space by type and name: its current"
                                 " attributes and edges.")
    async def entity(user_id: str, agent_id: str, run_id: str, type: str, name: str,
                     ctx: Context[Any, Any]) -> str:
        return await read(ctx, "entity", f"{user_id}/{agent_id}/{run_id}", type, name)

    lowlevel = server._lowlevel_server  # the SDK's MCPServer serves no resources/subscribe
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams,
                                 unsubscribe)


async def _admitted_space(ctx: ServerRequestContext[Any, Any], uri: str) -> tuple[Host, str]:
    """The space key a subscription to `uri` watches, once the caller may read it; a
    refusal is an MCP error (`Access denied: …`)."""
    host: Host = ctx.lifespan_context
    who = await host.identify(ctx.request)
    try:
        kind, raw_space = parse(uri)
        admitted = await admit(host, who, kind, raw_space)
    except (ValueError, GraphMemError, Unauthenticated) as e:
        raise MCPError(INVALID_PARAMS, str(e)) from None
    assert admitted.space is not None
    return host, admitted.space.key


def connection_of(ctx: ServerRequestContext[Any, Any]) -> tuple[int, Any]:
    """The connection a request arrived on (its id, and the object whose exit stack runs
    when it closes), found through the request's session."""
    connection = getattr(ctx.session, "_connection", None)
    return id(connection if connection is not None else ctx.session), connection


async def subscribe(ctx: ServerRequestContext[Any, Any],
                    params: SubscribeRequestParams) -> EmptyResult:
    host, space = await _admitted_space(ctx, str(params.uri))
    watcher = host.watcher
    assert watcher is not None
    key, connection = connection_of(ctx)
    fresh = not watcher.knows(key)
    try:
        await watcher.subscribe(key, ctx.session, str(params.uri), space)
    except ValueError as e:
        raise MCPError(INVALID_PARAMS, str(e)) from None
    exit_stack = getattr(connection, "exit_stack", None)
    if fresh and exit_stack is not None:
        exit_stack.callback(watcher.drop_connection, key)
    return EmptyResult()


async def unsubscribe(ctx: ServerRequestContext[Any, Any],
                      params: UnsubscribeRequestParams) -> EmptyResult:
    host: Host = ctx.lifespan_context
    if host.watcher is not None:
        host.watcher.unsubscribe(connection_of(ctx)[0], str(params.uri))
    return EmptyResult()


async def guard_listen(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                       ) -> HandlerResult:
    """`subscriptions/listen` (2026-07-28): each resource URI it names passes the guard,
    and the watcher polls its space while the stream is open."""
    if ctx.method != "subscriptions/listen" or ctx.request_id is None:
        return await call_next(ctx)
    params = ctx.params or {}
    wanted = params.get("notifications") if isinstance(params, dict) else None
    uris = wanted.get("resourceSubscriptions") if isinstance(wanted, dict) else None
    if not isinstance(uris, list) or not uris:
        return await call_next(ctx)
    releases = []
    try:
        for uri in uris[:100]:
            host, space = await _admitted_space(ctx, str(uri))
            assert host.watcher is not None
            releases.append(await host.watcher.watch(str(uri), space))
        return await call_next(ctx)
    finally:
        for release in releases:
            release()
