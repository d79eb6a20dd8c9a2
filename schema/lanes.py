"""The heavy lane: the costliest requests of a worker process run a few at a time, away from
the event loop.

A worker is one interpreter, so every request's Python work (argument conversion,
resolvers, reconciliation, completing the result) shares one GIL, and whatever runs on the
event loop holds every other request still. A request is heavy when its measured cost
reaches GRAPHMEM_API_HEAVY_COST (pages of hundreds of objects, an export, introspection
trees), its variables hold GRAPHMEM_API_HEAVY_ITEMS list items or more (a write of hundreds
of facts), or its document is longer than HEAVY_CHARS (inline inputs of that size); such a
document, when new, is also parsed and checked in a lane.

A heavy query or mutation waits for one of GRAPHMEM_API_HEAVY_LANES lanes, then executes on
a worker thread with an event loop of its own: the server's loop keeps accepting, checking
and answering everyone's small requests, which never wait for a lane. However many heavy
requests arrive at once, only that many compete with the small ones for the GIL.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from graphql import ExecutionResult, execute
from strawberry.execution import optimized_is_awaitable
from strawberry.schema._graphql_core import execution_context_class_kwargs
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType
from strawberry.utils.await_maybe import await_maybe

HEAVY_CHARS = 10_000


def list_items(value: Any, enough: int) -> int:
    """List items anywhere in `value` (variables as decoded JSON), counted up to `enough`."""
    found, stack = 0, [value]
    while stack and found < enough:
        item = stack.pop()
        if isinstance(item, list):
            found += len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


class Lanes:
    """The heavy requests' lanes of one worker process."""

    def __init__(self, lanes: int, heavy_cost: int, heavy_items: int) -> None:
        self.lanes, self.heavy_cost, self.heavy_items = lanes, heavy_cost, heavy_items
        self._gate: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def heavy(self, cost: int, query: str | None, variables: dict[str, Any] | None) -> bool:
        return (cost >= self.heavy_cost or len(query or "") > HEAVY_CHARS
                or list_items(variables or {}, self.heavy_items) >= self.heavy_items)

    @asynccontextmanager
    async def lane(self, gauge: Any = None, heavy: bool = True) -> AsyncIterator[None]:
        """One of the lanes, once it is free (nothing when not `heavy`); `gauge` (labelled
        by state) counts the requests waiting for one and those in one."""
        if not heavy:
            yield
            return
        gate = self._semaphore()
        if gauge is not None:
            gauge.labels("waiting").inc()
        try:
            await gate.acquire()
        finally:
            if gauge is not None:
                gauge.labels("waiting").dec()
        if gauge is not None:
            gauge.labels("running").inc()
        try:
            yield
        finally:
            gate.release()
            if gauge is not None:
                gauge.labels("running").dec()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._loop is not loop:
            self._gate, self._loop = asyncio.Semaphore(self.lanes), loop
        return self._gate


def runs_elsewhere(ctx: ExecutionContext) -> bool:
    """Queries and mutations execute off the loop; a subscription stays on it (its events
    are relayed as they come)."""
    return ctx.operation_type in (OperationType.QUERY, OperationType.MUTATION)


async def elsewhere(ctx: ExecutionContext) -> ExecutionResult:
    """The operation's result, worked out on a worker thread by an event loop of its own
    (the resolvers hand the service layer to that loop's threads as they do on the server's)."""
    schema = ctx.schema
    document = ctx.graphql_document
    assert document is not None
    executor = execution_context_class_kwargs(getattr(schema, "execution_context_class", None))

    async def run() -> ExecutionResult:
        result = await await_maybe(execute(
            schema._schema, document, root_value=ctx.root_value, context_value=ctx.context,
            variable_values=ctx.variables, operation_name=ctx.operation_name,
            is_awaitable=optimized_is_awaitable,  # type: ignore[arg-type]
            **executor))
        assert isinstance(result, ExecutionResult)
        return result

    work = functools.partial(contextvars.copy_context().run, asyncio.run, run())
    return await asyncio.get_running_loop().run_in_executor(None, work)
