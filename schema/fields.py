"""What every root field does first: hand its arguments to the one guarded path."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, TypeAlias, TypeVar, cast

import strawberry
from strawberry.types import Info

from graphmem.resolvers import RequestContext, execute, subscribe
from graphmem.schema.pagination import Page
from graphmem.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])
GraphInfo: TypeAlias = Info[RequestContext, None]
SpaceArg: TypeAlias = Annotated[str, strawberry.argument(
    description="The memory space: `user/agent/run` (missing parts default) in your tenant,"
                " or `tenant/user/agent/run` naming your own tenant.")]


async def run(info: GraphInfo, space: str | None, /, **arguments: Any) -> Any:
    """Resolve root field `info.field_name` through the guard (resolvers.guard.execute)."""
    return await execute(info.context, info.field_name, space, **arguments)


def stream(info: GraphInfo, space: str | None) -> AsyncIterator[Any]:
    return subscribe(info.context, info.field_name, space)


def settings(info: GraphInfo) -> Settings:
    return info.context.runtime.settings


def page(info: GraphInfo, first: int | None, after: str | None) -> Page:
    return Page.parse(first, after, settings(info).api_max_page)


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
