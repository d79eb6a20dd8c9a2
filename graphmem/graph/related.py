"""Multi-hop traversal of the projection: recall_related's paths, bounded.

Breadth-first, one query per hop, over edges that are current (or held at `as_of`, or true
in the world at `valid_at`). Every shortest path from the start entities is kept, up to
`hops` edges. Work is capped three ways (edges per entity, edges in all, paths in all) so a
hub entity cannot blow a query up; the result says when a cap cut it short.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import entities
from graphmem.graph.driver import GraphDriver
from graphmem.graph.entities import Entity, row_to_entity
from graphmem.graph.facts import _time, row_to_fact
from graphmem.graph.reads import _value_at
from graphmem.model import Fact

MAX_HOPS = 4
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Bounds:
    """How much one traversal may do: paths kept, edges read per entity, edges in all."""

    paths: int = 50
    fanout: int = 100
    expansions: int = 2000

    def __post_init__(self) -> None:
        if min(self.paths, self.fanout, self.expansions) < 1:
            raise InvalidInput("recall_related limits must be at least 1")


@dataclass(frozen=True)
class Edge:
    """One projection edge, in its own direction (head → tail)."""

    fact_id: str
    type: str
    relation: str
    head: str
    tail: str
    status: str
    confidence: float | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


@dataclass(frozen=True)
class Path:
    """Entity keys from a start entity outwards, and the edge between each pair."""

    keys: tuple[str, ...]
    edges: tuple[Edge, ...] = ()

    def extend(self, edge: Edge, key: str) -> Path:
        return Path((*self.keys, key), (*self.edges, edge))


@dataclass(frozen=True)
class Related:
    """recall_related's answer: paths, their entities, the facts behind each edge."""

    start: tuple[Entity, ...]
    paths: tuple[Path, ...]
    entities: Mapping[str, Entity]
    facts: Mapping[str, Fact]
    truncated: bool = False
    hops: int = 2
    answer: str | None = None
    matched_by: str = "given"
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def edges(self) -> tuple[Edge, ...]:
        seen: dict[str, Edge] = {}
        for path in self.paths:
            for edge in path.edges:
                seen.setdefault(edge.fact_id, edge)
        return tuple(seen.values())

    def render(self, path: Path) -> str:
        """`Alice (person) -[WORKS_AT]-> Acme (organisation)`, arrows in edge direction."""
        parts = [str(self.entities[path.keys[0]])]
        for key, edge in zip(path.keys[1:], path.edges, strict=True):
            arrow = f"-[{edge.type}]->" if edge.tail == key else f"<-[{edge.type}]-"
            parts.append(f"{arrow} {self.entities[key]}")
        return " ".join(parts)

    def __str__(self) -> str:
        if self.answer:
            return self.answer
        if not self.start:
            return "No entity of the question is known in this space."
        lines = [self.render(p) for p in self.paths] or ["No related entities."]
        if self.facts:
            lines.append("Facts:")
            lines += [f"  #{f.id} {f.subject} = {f.value}{provenance(f)}"
                      for f in self.facts.values()]
        if self.truncated:
            lines.append("(truncated: a cap on paths or expansions was reached)")
        return "\n".join(lines)


def provenance(fact: Fact) -> str:
    """`(alice, since 2024-03-01, ref)` inline, as seed 002 shows it."""
    bits = [fact.source or "unknown source"]
    if fact.valid_from is not None:
        bits.append(f"since {fact.valid_from.date().isoformat()}")
    if fact.source_ref:
        bits.append(fact.source_ref)
    return f" ({', '.join(bits)})"


# ---- start entities --------------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def lucene_query(question: str) -> str:
    """Only word tokens, lower-cased, so nothing in the question is Lucene syntax."""
    return " ".join(_WORD.findall(_norm(question))[:64])


def find_start(graph: GraphDriver, space: str, question: str, limit: int = 10
               ) -> tuple[list[Entity], str]:
    """Entities named in the question: whole-name matches first, else the best full-text hits."""
    query = lucene_query(question)
    if not query:
        return [], "none"
    rows = graph.read("graph/find_entities", space=space, query=query, limit=50)
    text = _norm(question)
    named = [row_to_entity(r["entity"]) for r in rows
             if re.search(rf"(?<!\w){re.escape(r['entity']['norm'])}(?!\w)", text)]
    if named:
        return named[:limit], "name"
    return [row_to_entity(r["entity"]) for r in rows[:3]], "fulltext"


# ---- traversal -------------------------------------------------------------------------------
def _edge(row: dict[str, Any]) -> Edge:
    e, here, there = row["edge"], row["key"], row["other"]["key"]
    head, tail = (here, there) if row["outgoing"] else (there, here)
    return Edge(fact_id=e["fact_id"], type=row["type"], relation=e.get("relation") or "",
                head=head, tail=tail, status=e["status"], confidence=e.get("confidence"),
                valid_from=_time(e.get("valid_from")), valid_to=_time(e.get("valid_to")))


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


def _capped(walk: _Walk, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(rows) > walk.budget:
        walk.truncated, rows = True, rows[: walk.budget]
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
    for row in _capped(walk, rows):
        there = row["other"]["key"]
        if walk.depth.get(there, hop) < hop:
            continue
        walk.depth[there] = hop
        walk.entities.setdefault(there, row_to_entity(row["other"]))
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


def traverse(graph: GraphDriver, space: str, start: Sequence[Entity], hops: int,
             as_of: datetime | None, valid_at: datetime | None, bounds: Bounds
             ) -> tuple[list[Path], dict[str, Entity], bool]:
    """Paths of up to `hops` edges from `start`, with every entity they touch."""
    if not 1 <= hops <= MAX_HOPS:
        raise InvalidInput(f"hops must be between 1 and {MAX_HOPS}, got {hops}")
    walk = _Walk(bounds, {e.key: 0 for e in start}, {e.key: [Path((e.key,))] for e in start},
                 {e.key: e for e in start}, budget=bounds.expansions)
    for hop in range(1, hops + 1):
        if not walk.live or walk.budget <= 0:
            walk.truncated = walk.truncated or bool(walk.live and walk.budget <= 0)
            break
        rows = graph.read("graph/expand", space=space, frontier=sorted(walk.live),
                          fanout=bounds.fanout + 1, budget=walk.budget + 1,
                          as_of=as_of, valid_at=valid_at)
        _hop(walk, rows, hop)
    walk.done += [p for paths in walk.live.values() for p in paths if p.edges]
    if len(walk.done) > bounds.paths:
        walk.truncated, walk.done = True, walk.done[: bounds.paths]
    return walk.done, walk.entities, walk.truncated


def edge_facts(graph: GraphDriver, space: str, paths: Sequence[Path],
               as_of: datetime | None) -> dict[str, Fact]:
    """The fact behind each edge (as it read at `as_of` when asked), with provenance."""
    ids = sorted({e.fact_id for p in paths for e in p.edges})
    if not ids:
        return {}
    facts = [row_to_fact(r["fact"]) for r in graph.read("graph/facts_by_id", space=space,
                                                         ids=ids)]
    return {f.id: (_value_at(f, as_of) if as_of else f) for f in facts}


# ---- the operation ---------------------------------------------------------------------------
StartSpec = tuple[str, str] | str


def resolve_given(graph: GraphDriver, space: str, given: Sequence[StartSpec]) -> list[Entity]:
    """(type, name) pairs by composite key; a bare name matches every type of that name."""
    found: list[Entity] = []
    for item in given:
        if isinstance(item, str):
            matches = entities.by_name(graph, space, item)
            if not matches:
                raise NotFound(f"no entity named {item!r} in this space")
            found += matches
        else:
            found.append(entities.get(graph, space, item[0], item[1]))
    return list({e.key: e for e in found}.values())


def recall_related(graph: GraphDriver, space: str, question: str | None,
                   given: Sequence[StartSpec] | None, hops: int, as_of: datetime | None,
                   valid_at: datetime | None, bounds: Bounds) -> Related:
    """Start entities (given, or named in the question), then bounded paths and their facts."""
    if given:
        start, how = resolve_given(graph, space, given), "given"
    elif question and question.strip():
        start, how = find_start(graph, space, question)
    else:
        raise InvalidInput("recall_related needs a question or a list of entities")
    paths, found, truncated = traverse(graph, space, start, hops, as_of, valid_at, bounds)
    return Related(tuple(start), tuple(paths), found, edge_facts(graph, space, paths, as_of),
                   truncated, hops, None, how)
