"""DataLoaders: the objects nested fields ask for, fetched in one read per request tick.

A page of 50 conflicts asking for their facts makes one `facts/by_ids` read, not 50. Each
batch is admitted again by the guard's own rules for the space it reads (`admit`, as the
`node` field would be), then runs in a worker thread like any resolver. Loaders hold no
cache: a WebSocket connection keeps its context for its lifetime, and a later event must
see later data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from strawberry.dataloader import DataLoader

from graphmem.model import Fact, When
from graphmem.model.stats import SpaceStats
from graphmem.resolvers.context import RequestContext
from graphmem.resolvers.guard import Call, admit, in_worker

K = TypeVar("K")
V = TypeVar("V")


def _loader(ctx: RequestContext, key: tuple[Any, ...],
            batch: Callable[[list[K]], Awaitable[Sequence[V]]]) -> DataLoader[K, V]:
    found: DataLoader[K, V] | None = ctx.loaders.get(key)
    if found is None:
        found = DataLoader(batch, cache=False)
        ctx.loaders[key] = found
    return found


def _call(ctx: RequestContext, operation: str, space: str | None) -> Call:
    return admit(ctx, operation, space)[1]


def facts(ctx: RequestContext, space: str, as_of: datetime | None) -> DataLoader[str, Fact | None]:
    """Facts of `space` by id (as they stood at `as_of`); None for an id not there."""
    async def load(ids: list[str]) -> list[Fact | None]:
        found = await in_worker(_call(ctx, "node", space).mem().records.facts_by_id, ids, as_of)
        return [found.get(i) for i in ids]

    return _loader(ctx, ("facts", space, as_of), load)


def superseded_by(ctx: RequestContext, space: str,
                  as_of: datetime | None) -> DataLoader[str, Fact | None]:
    """For each fact id, the fact that superseded or retracted it (by `as_of`)."""
    async def load(ids: list[str]) -> list[Fact | None]:
        found = await in_worker(_call(ctx, "node", space).mem().records.superseded_by, ids, as_of)
        return [found.get(i) for i in ids]

    return _loader(ctx, ("superseded_by", space, as_of), load)


def aliases(ctx: RequestContext, space: str) -> DataLoader[str, tuple[str, ...]]:
    """For each entity key, the spellings facts used for it other than its name."""
    async def load(keys: list[str]) -> list[tuple[str, ...]]:
        found = await in_worker(_call(ctx, "node", space).mem().entities.aliases, keys)
        return [found.get(k, ()) for k in keys]

    return _loader(ctx, ("aliases", space), load)


def space_stats(ctx: RequestContext, when: When) -> DataLoader[str, SpaceStats]:
    """Counts of spaces, a page of spaces in one statement; each space admitted as `node`
    would admit it."""
    async def load(keys: list[str]) -> list[SpaceStats]:
        calls = [_call(ctx, "node", key) for key in keys]
        found = await in_worker(calls[0].mem().records.spaces_stats, keys, when)
        return [found[k] for k in keys]

    return _loader(ctx, ("space_stats", when), load)
