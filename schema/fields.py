"""What every root field does first: hand its arguments to the one guarded path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any, TypeAlias

import strawberry
from strawberry.types import Info

from graphmem.resolvers import RequestContext, execute, subscribe
from graphmem.schema.pagination import Page
from graphmem.settings import Settings

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
