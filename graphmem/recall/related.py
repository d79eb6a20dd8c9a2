"""recall_related: start entities, bounded multi-hop paths, and the facts behind each edge.

The whole read (start entities, every hop, the facts) runs in one read transaction, so a
traversal sees one consistent graph and pays for one transaction, not one per hop.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput
from graphmem.graph.driver import GraphDriver
from graphmem.graph.entities import Entity
from graphmem.graph.paths import Bounds, Edge, Path, Related, provenance
from graphmem.graph.traverse import MAX_HOPS, edge_facts, traverse
from graphmem.model import Fact
from graphmem.recall.start_entities import (
    StartSpec,
    check_typed,
    find_start,
    lucene_query,
    resolve_given,
    typed_keys,
)

__all__ = ["MAX_HOPS", "Bounds", "Edge", "Path", "Related", "StartSpec", "lucene_query",
           "provenance", "recall_related"]


def _recall(tx: ManagedTransaction, space: str, question: str | None,
            given: Sequence[StartSpec] | None, hops: int, as_of: datetime | None,
            valid_at: datetime | None, bounds: Bounds) -> Related:
    keys = typed_keys(given) if given else None
    start: Sequence[Entity] | Sequence[str]
    if keys:  # looked up by the first hop: one round trip less
        start, how = keys, "given"
    elif given:
        start, how = resolve_given(tx, space, given), "given"
    elif question and question.strip():
        start, how = find_start(tx, space, question)
    else:
        raise InvalidInput("recall_related needs a question or a list of entities")
    start, paths, found, truncated = traverse(tx, space, start, hops, as_of, valid_at, bounds)
    if keys:
        check_typed(given or (), start)
    facts = edge_facts(tx, space, paths, as_of)
    timed: dict[int, Edge] = {}
    return Related(tuple(start), tuple(_validity(p, facts, timed) for p in paths), found,
                   facts, truncated, hops, None, how)


def _validity(path: Path, facts: dict[str, Fact], timed: dict[int, Edge]) -> Path:
    """Each edge is valid as its fact is (the hop queries leave times to the facts); paths
    share their edge objects, so each is rebuilt once (`timed`, by identity)."""
    edges = []
    for e in path.edges:
        found = timed.get(id(e))
        if found is None:
            fact = facts.get(e.fact_id)
            found = e if fact is None else Edge(
                e.fact_id, e.type, e.relation, e.head, e.tail, e.status, e.confidence,
                fact.valid_from, fact.valid_to)
            timed[id(e)] = found
        edges.append(found)
    return Path(path.keys, tuple(edges))


def recall_related(graph: GraphDriver, space: str, question: str | None,
                   given: Sequence[StartSpec] | None, hops: int, as_of: datetime | None,
                   valid_at: datetime | None, bounds: Bounds) -> Related:
    """Start entities (given, or named in the question), then bounded paths and their facts."""
    if not 1 <= hops <= MAX_HOPS:
        raise InvalidInput(f"hops must be between 1 and {MAX_HOPS}, got {hops}")
    return graph.execute(_recall, space, question, given, hops, as_of, valid_at, bounds,
                         write=False)
