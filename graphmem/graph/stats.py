"""Counts of spaces, by aggregation in Cypher (never by loading facts), and the tenant's
spaces a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time
from graphmem.graph.listings import count
from graphmem.graph.paging import Page, Window
from graphmem.graph.rows import read_one
from graphmem.model import When

LISTED_RETIRED = 20  # list_memories shows this many recently retired facts


@dataclass(frozen=True)
class SpaceStats:
    """Counts for one space at one point of time: facts by status (the status each had
    then), open conflicts and of them confirm-gate proposals, entities. `recently_retired`
    is how many retired facts `list_memories` shows (at most 20)."""

    space: str
    active: int = 0
    flagged: int = 0
    superseded: int = 0
    historical: int = 0
    open_conflicts: int = 0
    pending_changes: int = 0
    entities: int = 0
    recently_retired: int = 0


def stats(graph: GraphDriver, spaces: Sequence[str], when: When) -> dict[str, SpaceStats]:
    """Counts for each space, in one statement (a page of spaces batches into one)."""
    rows = read_one(graph, "spaces/stats", spaces=list(dict.fromkeys(spaces)), **when.params())
    return {r["space"]: SpaceStats(**r, recently_retired=min(
        LISTED_RETIRED, r["superseded"] + r["historical"])) for r in rows}


@dataclass(frozen=True)
class SpaceInfo:
    """A space some writer created, with when it was first written."""

    key: str
    created_at: datetime | None


def space_page(graph: GraphDriver, prefix: str, window: Window) -> Page[SpaceInfo]:
    rows = read_one(graph, "spaces/page", prefix=prefix, **window.params())
    found = [SpaceInfo(r["space"], as_time(r["created_at"])) for r in rows]
    total = count(graph, "spaces/count", {"prefix": prefix}) if window.count else None
    return window.page(found, lambda s: (s.key,), total)


def space_info(graph: GraphDriver, space: str) -> SpaceInfo | None:
    rows = read_one(graph, "spaces/get", space=space)
    return SpaceInfo(rows[0]["space"], as_time(rows[0]["created_at"])) if rows else None
