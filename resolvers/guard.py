"""The one guard every GraphQL root field passes: authenticated? capable? in scope?

The checks and the denial record are the service layer's (graphmem.service.guard, shared
with the MCP tools); this module adds what is GraphQL's: the registry of root fields (a
field without a rule is denied), the request context, events and streams. It fails closed:
an unknown field, a missing principal, a missing capability, another tenant's space or a
space outside the key's allowed spaces is denied with `Access denied: …`, and the denial is
recorded. Allowed calls are timed and counted, and the synchronous service layer runs in a
worker thread so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from graphmem import admission
from graphmem.errors import AccessDenied, Unauthenticated, public
from graphmem.model import Result, Space
from graphmem.model.principals import Principal
from graphmem.resolvers.context import RequestContext
from graphmem.resolvers.registry import OPERATIONS, Operation
from graphmem.service import guard
from graphmem.service.guard import Admitted
from graphmem.service.memory import GraphMem

log = logging.getLogger("graphmem.api")
T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """An admitted call: who, on which space (None for tenant-wide operations)."""

    context: RequestContext
    principal: Principal
    space: Space | None

    def mem(self) -> GraphMem:
        """The service layer for this call, with the principal's capabilities and the
        sources it is bound to (tenant-wide operations get the tenant's default space)."""
        return Admitted(self.principal, self.space).memory(self.context.runtime)

    @property
    def tenant(self) -> str:
        return self.space.tenant if self.space else self.principal.tenant


def admit(ctx: RequestContext, name: str, raw_space: str | None) -> tuple[Operation, Call]:
    """Check the call against the field's rule (graphmem.service.guard); raise
    Unauthenticated or AccessDenied."""
    op = OPERATIONS.get(name)
    if op is None:
        raise AccessDenied(f"{name} has no access rule")
    admitted = guard.admit(ctx.principal, op, raw_space)
    ctx.admitted[(name, raw_space)] = admitted.space  # what schema.fields.space_key reads
    return op, Call(ctx, admitted.principal, admitted.space)


async def in_worker(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run the synchronous service layer on the loop's executor (the app sizes it at start)
    under one of the process's turns: one thread hop per call, cheaper than anyio's worker
    threads."""
    loop = asyncio.get_running_loop()
    work = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await loop.run_in_executor(None, admission.run, work)


async def _admit(ctx: RequestContext, name: str, raw_space: str | None) -> tuple[Operation, Call]:
    try:
        return admit(ctx, name, raw_space)
    except AccessDenied as e:
        await run_in_threadpool(guard.deny, ctx.runtime, ctx.metrics, ctx.principal, name,
                                raw_space, e, ctx.request_id)
        raise
    except Unauthenticated as e:
        guard.deny(ctx.runtime, ctx.metrics, None, name, raw_space, e, ctx.request_id)
        raise


async def execute(ctx: RequestContext, name: str, raw_space: str | None, /,
                  **arguments: Any) -> Any:
    """Admit, then run the operation's resolver in a worker thread."""
    op, call = await _admit(ctx, name, raw_space)
    started = time.perf_counter()
    outcome = "ok"
    try:
        result = await in_worker(op.fn, call, **arguments)
    except Exception as e:
        outcome = public(e)[0]
        raise
    finally:
        ctx.metrics.observe_operation(name, outcome, time.perf_counter() - started)
    _count_actions(ctx, result)
    return result


async def subscribe(ctx: RequestContext, name: str, raw_space: str | None, /,
                    **arguments: Any) -> AsyncIterator[Any]:
    """Admit a subscription, then relay its events until the client goes away."""
    op, call = await _admit(ctx, name, raw_space)
    ctx.metrics.observe_operation(name, "ok", 0.0)
    ctx.metrics.subscriptions.inc()
    events: AsyncGenerator[Any, None] = op.fn(call, **arguments)
    try:
        async for event in events:
            yield event
    finally:
        await events.aclose()  # unsubscribes now, not whenever the generator is collected
        ctx.metrics.subscriptions.dec()


def _count_actions(ctx: RequestContext, result: Any) -> None:
    if isinstance(result, list) and result and isinstance(result[0], Result):
        ctx.metrics.actions(r.action.value for r in result)
