"""recall_related with a path pattern: the exact relations to follow, in order, each walked
from its head (`OUT`) or its tail (`IN`), from the given (or named) entities; as of an
instant or as true in the world at one, like every read. The paths come back in a stable
order (by their entities' keys) a page at a time, with a cursor for the next page. No
question is read and nothing is ranked: the frontend asks exactly what it means."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput
from graphmem.graph import traverse
from graphmem.graph.entities import row_to_entity
from graphmem.graph.identifiers import relation_type
from graphmem.model.entities import Entity
from graphmem.model.paths import Edge, Path, PathStep

PER_ENTITY = 1000  # edges one step reads around one entity
BUDGET = 20_000  # partial paths one pattern may hold at any step


def cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"path:{offset}".encode()).decode().rstrip("=")


def offset_of(after: str | None) -> int:
    if not after:
        return 0
    try:
        text = base64.urlsafe_b64decode(after + "=" * (-len(after) % 4)).decode()
        kind, _, number = text.partition(":")
        if kind != "path" or not number.isdigit():
            raise ValueError(text)
        return int(number)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        raise InvalidInput(f"not a path cursor: {after[:40]!r}") from None


def checked(steps: Sequence[PathStep]) -> list[tuple[str, bool]]:
    """Each step's relation type (UPPER_SNAKE, from the safe alphabet) and direction."""
    if not steps:
        raise InvalidInput("a path pattern needs at least one step")
    return [(relation_type(s.relation), s.forward) for s in steps]


def follow(tx: ManagedTransaction, space: str, starts: Sequence[Entity],
           steps: Sequence[PathStep], as_of: datetime | None, valid_at: datetime | None,
           limit: int, after: str | None) -> tuple[list[Path], dict[str, Entity], bool,
                                                   str | None]:
    """The paths along `steps` from `starts`, the page after `after`: (paths, every entity
    they touch, whether a cap left edges unread, the next page's cursor or None)."""
    pattern = checked(steps)
    skip = offset_of(after)
    entities = {s.key: s for s in starts}
    paths = [Path((s.key,)) for s in starts]
    truncated = False
    for type_, forward in pattern:
        frontier = sorted({p.keys[-1] for p in paths})
        rows = traverse.follow(tx, space, frontier, type_, forward, PER_ENTITY, as_of,
                               valid_at)
        around: dict[str, list[tuple[Edge, Entity]]] = {}
        for row in rows:
            here = row_to_entity(row["entity"])
            reached = []
            for item in row["edges"]:
                there = row_to_entity(item["other"])
                entities[there.key] = there
                head, tail = (here, there) if forward else (there, here)
                edge = item["edge"]
                reached.append((Edge(edge["fact_id"], type_, edge.get("relation") or "",
                                     head.key, tail.key, edge["status"],
                                     edge.get("confidence")), there))
            truncated = truncated or len(reached) >= PER_ENTITY
            around[here.key] = reached
        grown = [p.extend(edge, there.key) for p in paths
                 for edge, there in around.get(p.keys[-1], ()) if there.key not in p.keys]
        if len(grown) > BUDGET:
            grown, truncated = grown[:BUDGET], True
        paths = grown
    paths.sort(key=lambda p: p.keys)
    page = paths[skip:skip + limit]
    more = cursor(skip + limit) if skip + limit < len(paths) else None
    return page, entities, truncated, more
