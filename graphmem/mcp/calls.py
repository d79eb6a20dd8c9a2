"""One tool call: who is calling, the guard, the service call in a worker thread, the
metrics, and the result in graphmem's result lines.

A refused call answers `Access denied: …` (an error result) and is audited by the service
guard; any failure is an error result with one clear line (graphmem.mcp.errors), never a
stack trace. A successful call answers the Python API's `str()` of its result as text, and
the result itself as structured content.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
import pydantic_core
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, TextContent

from graphmem import admission, consistency
from graphmem.errors import AccessDenied, GraphMemError, Unauthenticated
from graphmem.mcp import errors
from graphmem.mcp.host import Host, Who
from graphmem.mcp.registry import TOOLS
from graphmem.model import Result
from graphmem.service import guard
from graphmem.service.guard import Admitted, Rule
from graphmem.service.memory import GraphMem
from graphmem.service.model_budget import payer

T = TypeVar("T")
# A call's `_meta` key naming a write's consistency token: its reads wait for that state.
CONSISTENCY_META = "graphmem/consistency"
Work = Callable[[GraphMem], T]


def host_of(ctx: Context[Any, Any]) -> Host:
    host = ctx.request_context.lifespan_context
    if not isinstance(host, Host):
        raise RuntimeError("the MCP server runs without its host (lifespan not entered)")
    return host


def space_of(user_id: str, agent_id: str, run_id: str) -> str:
    """The `user/agent/run` a tool names; the tenant always comes from the caller's key."""
    return f"{user_id}/{agent_id}/{run_id}"


def failed(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def answer(result: Any, text: str | None = None) -> CallToolResult:
    """The result lines, and the result as JSON for clients that read structured content."""
    structured = pydantic_core.to_jsonable_python(result, fallback=str)
    if not isinstance(structured, dict):
        structured = {"result": structured}
    return CallToolResult(content=[TextContent(type="text", text=text or rendered(result))],
                          structured_content=structured)


def rendered(result: Any) -> str:
    """A list of remember results is one line each; anything else is its `str()`."""
    if isinstance(result, list) and all(isinstance(r, Result) for r in result):
        return "\n".join(str(r) for r in result) or "Nothing to store."
    return str(result)


async def admit(host: Host, operation: str, raw_space: str | None, who: Who) -> Admitted:
    """The service guard for a tool."""
    return await admit_rule(host, TOOLS[operation], raw_space, who)


async def admit_rule(host: Host, rule: Rule, raw_space: str | None, who: Who) -> Admitted:
    """The service guard; a refusal is counted and recorded, then raised."""
    try:
        if who.principal is None and who.refusal:
            raise Unauthenticated(who.refusal)
        return guard.admit(who.principal, rule, raw_space)
    except (AccessDenied, Unauthenticated) as e:
        await anyio.to_thread.run_sync(guard.deny, host.runtime, host.metrics, who.principal,
                                       rule.name, raw_space, e, who.request_id, "mcp")
        raise


async def call(ctx: Context[Any, Any], operation: str, raw_space: str | None,
               work: Work[T], text: Callable[[T], str] | None = None,
               model_calls: int = 0) -> CallToolResult:
    """Admit the caller for `operation` on `raw_space`, take the `model_calls` it makes from
    the key's model-call budget (the one GraphQL draws from), then run `work` on its
    GraphMem."""
    host = host_of(ctx)
    who = await host.identify(ctx.request_context.request)
    try:
        admitted = await admit(host, operation, raw_space, who)
        key = who.principal.key_id if who.principal is not None else None
        host.budget.charge(payer(key, "local"), model_calls)
    except (AccessDenied, Unauthenticated) as e:  # counted and recorded by the guard
        return failed(str(e))
    except GraphMemError as e:  # a malformed space, an exhausted budget
        host.metrics.observe_operation(operation, errors.outcome(e), 0.0)
        return failed(errors.message(e, operation, who.request_id))
    started = time.perf_counter()
    outcome = "ok"
    meta = ctx.request_context.meta or {}
    after = meta.get(CONSISTENCY_META) if isinstance(meta, dict) else None
    try:
        result = await anyio.to_thread.run_sync(_run, admitted, host, work, after)
    except Exception as e:  # every failure becomes one line for the client
        outcome = errors.outcome(e)
        return failed(errors.message(e, operation, who.request_id))
    finally:
        host.metrics.observe_operation(operation, outcome, time.perf_counter() - started)
    if isinstance(result, list) and result and isinstance(result[0], Result):
        host.metrics.actions(r.action.value for r in result)
    return answer(result, text(result) if text is not None else None)


def _run(admitted: Admitted, host: Host, work: Work[T], after: Any) -> T:
    with consistency.tracking(str(after) if after is not None else None):
        return admission.run(lambda: work(admitted.memory(host.runtime)))


