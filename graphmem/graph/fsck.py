"""The graph's invariants, checked for `graphmem fsck` (see graphmem.lifecycle.fsck).

Invariants (a violation fails the run): the database holds every constraint and index the
graph model declares (`graph.nodes`), at most one ACTIVE value per single-valued slot,
every SUPERSEDED fact has an incoming SUPERSEDES or RETRACTS, every projection edge agrees
with its fact and every projectable fact has its edges, every stored vector has its fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from graphmem.graph import constraints, nodes
from graphmem.graph.driver import GraphDriver
from graphmem.model.fsck import Check

LIMIT = 100
SCHEMA = "the declared constraints and indexes exist"


def schema(graph: GraphDriver, classes: Iterable[type[nodes.GraphNode]] | None = None
           ) -> Check:
    """Database-wide, unlike the others: the declarations are `nodes.DECLARED` unless given."""
    declared = nodes.DECLARED if classes is None else classes
    return Check(SCHEMA, tuple(constraints.missing(graph, declared)))


def _slots(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("fsck/slots", space=space, limit=LIMIT)
    return Check("one active value per single-valued slot", tuple(
        f"{r['subject']} ({r['scope']}): {len(r['ids'])} ACTIVE facts {', '.join(r['ids'])}"
        for r in rows))


def _orphans(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("fsck/orphans", space=space, limit=LIMIT)
    return Check("every SUPERSEDED fact is superseded or retracted by another, or undone", tuple(
        f"#{r['id']} {r['subject']} = {r['value']} has no incoming SUPERSEDES or RETRACTS"
        for r in rows))


def _edges(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("fsck/edges", space=space, limit=LIMIT)
    problems = [f"{r['head']} -[{r['type']}]-> {r['tail']}: edge {r['edge_status']}, fact"
                f" #{r['fact_id']} " + (r["fact_status"] or "missing") for r in rows]
    rows = graph.read("fsck/unprojected", space=space, limit=LIMIT)
    problems += [f"#{r['id']} {r['subject']}: " + ("projection edge missing" if r["about"]
                                                   else "no ABOUT edge") for r in rows]
    return Check("projection edges match their facts", tuple(problems))


def _vectors(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("fsck/vectors", space=space, limit=LIMIT)
    return Check("every stored vector belongs to a fact of its space", tuple(
        f"vector of #{r['id']}: " + (f"the fact is in space {r['other']}" if r["other"]
                                     else "the fact is gone") for r in rows))


def invariants(graph: GraphDriver, space: str) -> list[Check]:
    """Every invariant check of one space."""
    return [_slots(graph, space), _orphans(graph, space), _edges(graph, space),
            _vectors(graph, space)]


def mirror_facts(graph: GraphDriver, space: str) -> list[dict[str, Any]]:
    """Each fact of the space with the fields the mirror holds of it, to compare them."""
    return graph.read("fsck/mirror_facts", space=space)
