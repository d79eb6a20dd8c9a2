"""The one guard every GraphQL root field passes: authenticated? capable? in scope?

It fails closed: an unknown field, a missing principal, a missing capability, another
tenant's space or a space outside the key's allowed spaces is denied with
`Access denied: …`, and the denial is recorded. Allowed calls are timed and counted, and
the synchronous service layer runs in a worker thread so the event loop never blocks.
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

from graphmem.auth import Principal, Unauthenticated
from graphmem.errors import AccessDenied
from graphmem.model import Result, Space
from graphmem.resolvers.codes import code_for
from graphmem.resolvers.context import RequestContext
from graphmem.resolvers.denials import record_denial
from graphmem.resolvers.registry import OPERATIONS, Operation
from graphmem.service.memory import Caller, GraphMem

log = logging.getLogger("graphmem.api")
T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """An admitted call: who, on which space (None for tenant-wide operations)."""

    context: RequestContext
    principal: Principal
    space: Space | None

    def mem(self) -> GraphMem:
        """The service layer for this call, with the principal's capabilities and the sources
        it is bound to (tenant-wide operations get the tenant's default space)."""
        p = self.principal
        caller = Caller(p.name, p.capabilities, p.sources, p.source or "")
        space = self.space or Space(tenant=self.principal.tenant)
        return GraphMem(space=space, runtime=self.context.runtime, caller=caller)

    @property
    def tenant(self) -> str:
        return self.space.tenant if self.space else self.principal.tenant


def admit(ctx: RequestContext, name: str, raw_space: str | None) -> tuple[Operation, Call]:
    """Check the call against the field's rule; raise Unauthenticated or AccessDenied."""
    op = OPERATIONS.get(name)
    if op is None:
        raise AccessDenied(f"{name} has no access rule")
    principal = ctx.principal
    if principal is None:
        raise Unauthenticated("authentication required: send `Authorization: Bearer gm_sk_…`")
    if not principal.can(op.capability):
        raise AccessDenied(f"{principal.name!r} (role {principal.role}) lacks the"
                           f" {op.capability} capability that {name} needs")
    if op.reach == "tenant":
        if not principal.tenant_wide:
            raise AccessDenied(f"{name} acts on the whole tenant; {principal.name!r} is limited"
                               " to some spaces")
        named = None if raw_space is None else principal.tenant_space(raw_space)
        return op, Call(ctx, principal, named)
    if op.reach == "user":
        space = principal.user_space(raw_space or "")
        if not principal.holds_user(space):
            raise AccessDenied(f"{name} acts on every space of user {space.user!r};"
                               f" {principal.name!r} is not allowed all of them")
        return op, Call(ctx, principal, space)
    space = principal.space(raw_space)
    if not principal.admits(space):
        raise AccessDenied(f"space {raw_space or ''!r} is outside {principal.name!r}'s allowed"
                           " spaces")
    return op, Call(ctx, principal, space)


async def in_worker(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run the synchronous service layer on the loop's executor (the app sizes it at start):
    one thread hop per call, cheaper than anyio's worker threads."""
    loop = asyncio.get_running_loop()
    work = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await loop.run_in_executor(None, work)


async def _admit(ctx: RequestContext, name: str, raw_space: str | None) -> tuple[Operation, Call]:
    try:
        return admit(ctx, name, raw_space)
    except AccessDenied as e:
        ctx.metrics.observe_operation(name, "FORBIDDEN", 0.0)
        await run_in_threadpool(record_denial, ctx, name, raw_space, str(e))
        raise
    except Unauthenticated:
        ctx.metrics.observe_operation(name, "UNAUTHENTICATED", 0.0)
        raise


async def execute(ctx: RequestContext, name: str, raw_space: str | None, /,
                  **arguments: Any) -> Any:
    """Admit, then run the operation's resolver in a worker thread and publish its events."""
    op, call = await _admit(ctx, name, raw_space)
    started = time.perf_counter()
    outcome = "ok"
    try:
        result = await in_worker(op.fn, call, **arguments)
    except Exception as e:
        outcome = code_for(e)[0]
        raise
    finally:
        ctx.metrics.observe_operation(name, outcome, time.perf_counter() - started)
    _count_actions(ctx, result)
    if op.events is not None and call.space is not None:
        for channel, event in op.events(call.space, arguments, result):
            ctx.broker.publish(channel, event.space, event)  # a subtree erasure: many spaces
    return result


async def subscribe(ctx: RequestContext, name: str, raw_space: str | None) -> AsyncIterator[Any]:
    """Admit a subscription, then relay its events until the client goes away."""
    op, call = await _admit(ctx, name, raw_space)
    ctx.metrics.observe_operation(name, "ok", 0.0)
    ctx.metrics.subscriptions.inc()
    events: AsyncGenerator[Any, None] = op.fn(call)
    try:
        async for event in events:
            yield event
    finally:
        await events.aclose()  # unsubscribes now, not whenever the generator is collected
        ctx.metrics.subscriptions.dec()


def _count_actions(ctx: RequestContext, result: Any) -> None:
    if isinstance(result, list) and result and isinstance(result[0], Result):
        ctx.metrics.actions(r.action.value for r in result)
