"""Breadth-first traversal of the projection, one query per hop, bounded three ways.

Every shortest path from the start entities is kept, up to `hops` edges, over edges that
are current (or held at `as_of`, or true in the world at `valid_at`). Caps on edges per
entity, edges in all and paths in all keep a hub from blowing a query up; each hop asks
Neo4j for no more rows than the remaining path budget can use, and a cap that bites sets
`truncated`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.entities import row_to_entity
from graphmem.graph.facts import row_to_fact
from graphmem.graph.reads import value_at
from graphmem.graph.rows import plain
from graphmem.model import Fact
from graphmem.model.entities import Entity
from graphmem.model.paths import Bounds, Edge, Path


def _edge(row: dict[str, Any]) -> Edge:
    e, here, there = row["edge"], row["key"], row["other"]["key"]
    head, tail = (here, there) if row["outgoing"] else (there, here)
    return Edge(fact_id=e["fact_id"], type=row["type"], relation=e.get("relation") or "",
                head=head, tail=tail, status=e["status"], confidence=e.get("confidence"))


@dataclass
class _Walk:
    """Mutable state of one traversal."""

    bounds: Bounds
    depth: dict[str, int]
    live: dict[str, list[Path]]
    entities: dict[str, Entity]
    done: list[Path] = field(default_factory=list)
    budget: int = 0
    truncated: bool = False

    def row_limit(self) -> int:
        """Rows one hop may use: new paths still allowed, plus one edge back per entity."""
        wanted = 2 * max(self.bounds.paths - len(self.done), 0) + len(self.live)
        return min(self.budget, max(wanted, self.bounds.fanout))


def _capped(walk: _Walk, rows: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    if len(rows) > limit:
        walk.truncated, rows = True, rows[:limit]
    walk.budget -= len(rows)
    per: dict[str, int] = defaultdict(int)
    kept = []
    for row in sorted(rows, key=lambda r: (r["key"], -(r["edge"].get("confidence") or 0),
                                           r["type"], r["other"]["key"])):
        per[row["key"]] += 1
        if per[row["key"]] > walk.bounds.fanout:
            walk.truncated = True
            continue
        kept.append(row)
    return kept


def _hop(walk: _Walk, rows: list[dict[str, Any]], hop: int) -> None:
    grown: dict[str, list[Path]] = defaultdict(list)
    extended: set[int] = set()
    n_grown = 0
    for row in rows:
        there = row["other"]["key"]
        if walk.depth.get(there, hop) < hop:
            continue
        walk.depth[there] = hop
        if there not in walk.entities:
            walk.entities[there] = row_to_entity(row["other"])
        edge = _edge(row)
        for path in walk.live.get(row["key"], ()):
            if there in path.keys:
                continue
            if len(walk.done) + n_grown >= walk.bounds.paths:
                walk.truncated = True
                break
            grown[there].append(path.extend(edge, there))
            extended.add(id(path))
            n_grown += 1
    walk.done += [p for paths in walk.live.values() for p in paths
                  if id(p) not in extended and p.edges]
    walk.live = dict(grown)


def traverse(tx: ManagedTransaction, space: str, start: Sequence[Entity] | Sequence[str],
             hops: int, as_of: datetime | None, valid_at: datetime | None, bounds: Bounds
             ) -> tuple[list[Entity], list[Path], dict[str, Entity], bool]:
    """Paths of up to `hops` edges from `start`, with every entity they touch.

    `start` is entities, or entity keys not yet looked up: then the first hop finds them
    too (a round trip less), and the start entities returned are those that exist."""
    assert 1 <= hops <= bounds.hops, hops  # the service checks it against the settings
    keys = [e if isinstance(e, str) else e.key for e in start]
    known = {e.key: e for e in start if isinstance(e, Entity)}
    walk = _Walk(bounds, {k: 0 for k in keys}, {k: [Path((k,))] for k in keys}, dict(known),
                 budget=bounds.expansions)
    for hop in range(1, hops + 1):
        if not walk.live or walk.budget <= 0:
            walk.truncated = walk.truncated or bool(walk.live and walk.budget <= 0)
            break
        limit = walk.row_limit()
        lookup = hop == 1 and len(known) < len(keys)
        found = plain(tx, "traversal/expand", space=space, frontier=sorted(walk.live),
                      fanout=bounds.fanout + 1, budget=limit + 1, as_of=as_of,
                      valid_at=valid_at, starts=lookup)[0]
        if lookup:
            fetched = {r["key"]: row_to_entity(r) for r in found["starts"]}
            known = {k: known.get(k) or fetched[k] for k in keys if k in known or k in fetched}
            walk.entities = {**known, **walk.entities}
        _hop(walk, _capped(walk, found["rows"], limit), hop)
    walk.done += [p for paths in walk.live.values() for p in paths if p.edges]
    if len(walk.done) > bounds.paths:
        walk.truncated, walk.done = True, walk.done[: bounds.paths]
    return [known[k] for k in keys if k in known], walk.done, walk.entities, walk.truncated


def edge_facts(tx: ManagedTransaction, space: str, paths: Sequence[Path],
               as_of: datetime | None) -> dict[str, Fact]:
    """The fact behind each edge (as it read at `as_of` when asked), with provenance."""
    ids = sorted({e.fact_id for p in paths for e in p.edges})
    if not ids:
        return {}
    rows = plain(tx, "traversal/facts_by_id", space=space, ids=ids)[0]["facts"]
    facts = [row_to_fact(row) for row in rows]
    return {f.id: (value_at(f, as_of) if as_of else f) for f in facts}


def follow(tx: ManagedTransaction, space: str, frontier: list[str], type_: str, forward: bool,
           cap: int, as_of: datetime | None, valid_at: datetime | None
           ) -> list[dict[str, Any]]:
    """One step of a path pattern: the edges of one type and direction from each frontier
    entity, up to `cap` an entity (`entity` and its `edges` per row)."""
    return plain(tx, "traversal/follow", space=space, frontier=frontier, type=type_,
                 forward=forward, cap=cap, as_of=as_of, valid_at=valid_at)


def expand_groups(tx: ManagedTransaction, space: str, frontier: list[dict[str, Any]],
                  per_group: int, probe: int, when: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The edges around each frontier entity grouped by type and direction, `per_group` of
    each group (`entity` and its `groups` per row); `when` holds as_of and valid_at."""
    return plain(tx, "traversal/expand_groups", space=space, frontier=frontier,
                 per_group=per_group, probe=probe, **when)


def relation_types(tx: ManagedTransaction, space: str) -> dict[str, Any] | None:
    """The relation labels the space's graph holds with its declared schema and the models'
    descriptions (JSON each)."""
    rows = plain(tx, "traversal/relation_types", space=space)
    return rows[0] if rows else None
