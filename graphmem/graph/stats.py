"""Counts of spaces, by aggregation in Cypher (never by loading facts), and the tenant's
spaces a page at a time."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time
from graphmem.graph.listings import count
from graphmem.graph.rows import read_one
from graphmem.model import When
from graphmem.model.paging import Page, Window
from graphmem.model.stats import SpaceInfo, SpaceStats

LISTED_RETIRED = 20  # list_memories shows this many recently retired facts


def stats(graph: GraphDriver, spaces: Sequence[str], when: When) -> dict[str, SpaceStats]:
    """Counts for each space, in one statement (a page of spaces batches into one)."""
    rows = read_one(graph, "spaces/stats", spaces=list(dict.fromkeys(spaces)), **when.params())
    return {r["space"]: SpaceStats(**r, recently_retired=min(
        LISTED_RETIRED, r["superseded"] + r["historical"])) for r in rows}


def space_page(graph: GraphDriver, prefix: str, window: Window) -> Page[SpaceInfo]:
    rows = read_one(graph, "spaces/page", prefix=prefix, **window.params())
    found = [SpaceInfo(r["space"], as_time(r["created_at"])) for r in rows]
    total = count(graph, "spaces/count", {"prefix": prefix}) if window.count else None
    return window.page(found, lambda s: (s.key,), total)


def space_info(graph: GraphDriver, space: str) -> SpaceInfo | None:
    rows = read_one(graph, "spaces/get", space=space)
    return SpaceInfo(rows[0]["space"], as_time(rows[0]["created_at"])) if rows else None
