"""What every root field does first: hand its arguments to the one guarded path; and the
arguments many fields share (the space, the two clocks, a page)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Annotated, Any, TypeAlias, TypeVar, cast

import strawberry
from strawberry.types import Info

from graphmem.model import When
from graphmem.resolvers import RequestContext, execute, subscribe
from graphmem.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])
GraphInfo: TypeAlias = Info[RequestContext, None]
SpaceArg: TypeAlias = Annotated[str, strawberry.argument(
    description="The memory space: `user/agent/run` (missing parts default) in your tenant,"
                " or `tenant/user/agent/run` naming your own tenant.")]
AsOf: TypeAlias = Annotated[datetime | None, strawberry.argument(
    description="Record time: memory as it stood at this instant (default: now).")]
ValidAt: TypeAlias = Annotated[datetime | None, strawberry.argument(
    description="World time: only what was true in the world at this instant (default: no"
                " world-time filter).")]
First: TypeAlias = Annotated[int | None, strawberry.argument(
    description="Page size reading forwards (default 50; at most GRAPHMEM_API_MAX_PAGE).")]
After: TypeAlias = Annotated[str | None, strawberry.argument(
    description="Read on from this cursor (an edge's `cursor`, or `pageInfo.endCursor`).")]
Last: TypeAlias = Annotated[int | None, strawberry.argument(
    description="Page size reading backwards: the last items (before `before`), still in"
                " the list's order.")]
Before: TypeAlias = Annotated[str | None, strawberry.argument(
    description="Read back from this cursor (`pageInfo.startCursor`).")]


@strawberry.input(description="A world-time interval: what was true at some point of"
                              " [from, to). Either end may be left open.")
class ValidDuringInput:
    start: datetime | None = strawberry.field(default=None, name="from")
    end: datetime | None = strawberry.field(default=None, name="to")


ValidDuring: TypeAlias = Annotated[ValidDuringInput | None, strawberry.argument(
    description="World time: what was true at some point of this interval.")]


def when(as_of: datetime | None, valid_at: datetime | None = None,
         valid_during: ValidDuringInput | None = None) -> When:
    """The two clocks of a read (graphmem.model.When checks them)."""
    return When(as_of, valid_at, valid_during.start if valid_during else None,
                valid_during.end if valid_during else None)


async def run(info: GraphInfo, space: str | None, /, **arguments: Any) -> Any:
    """Resolve root field `info.field_name` through the guard (resolvers.guard.execute)."""
    return await execute(info.context, info.field_name, space, **arguments)


def stream(info: GraphInfo, space: str | None, /, **arguments: Any) -> AsyncIterator[Any]:
    return subscribe(info.context, info.field_name, space, **arguments)


def space_key(info: GraphInfo, space: str) -> str:
    """The full key of the space a field named, as the guard admitted it: for ids built
    from the answer."""
    admitted = info.context.admitted.get((info.field_name, space))
    if admitted is None:
        raise RuntimeError("space_key is called after the guard admitted the field's space")
    return admitted.key


def settings(info: GraphInfo) -> Settings:
    return info.context.runtime.settings


def field(description: str, deprecation_reason: str | None = None) -> Callable[[F], F]:
    """`@strawberry.field(description=…)`, typed: Strawberry's decorator form returns Any,
    which would leave every resolver untyped for mypy."""
    def register(fn: F) -> F:
        return cast(F, strawberry.field(fn, description=description,
                                        deprecation_reason=deprecation_reason))

    return register


def mutation(description: str) -> Callable[[F], F]:
    """`@strawberry.mutation(description=…)`, typed."""
    def register(fn: F) -> F:
        return cast(F, strawberry.mutation(fn, description=description))

    return register


def subscription(description: str) -> Callable[[F], F]:
    """`@strawberry.subscription(description=…)`, typed."""
    def register(fn: F) -> F:
        return cast(F, strawberry.subscription(fn, description=description))

    return register
