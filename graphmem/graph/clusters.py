"""Fact clustering by entity overlap: deterministic, no model involved.

A new fact collides with an ACTIVE fact when their entity sets have Jaccard similarity at or
above GRAPHMEM_CLUSTER_JACCARD and reconciliation did not already relate them (same slot,
superseded, retracted, or flagged against). The remember result reports the collisions; the
caller decides whether to supersede, open a conflict or ignore them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import run
from graphmem.model import Decision, Proposal, Status

# A hub entity could collide with thousands of facts; the closest ones are reported.
MAX_COLLISIONS = 20
_STORED = (Status.ACTIVE, Status.FLAGGED_CONFLICT)


def _rows(decided: Sequence[tuple[Proposal, Decision]]) -> list[dict[str, Any]]:
    return [{"id": d.fact_id, "related": [*d.supersedes, *d.retracts, *d.conflict_with]}
            for p, d in decided if d.fact_id and d.status in _STORED and p.head]


def collisions(tx: ManagedTransaction, space: str,
               decided: Sequence[tuple[Proposal, Decision]], threshold: float
               ) -> dict[str, tuple[dict[str, Any], ...]]:
    """New fact id → its collisions ({fact_id, subject, value, shared, jaccard})."""
    rows = _rows(decided)
    if not rows:
        return {}
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in run(tx, "facts/collisions", space=space, rows=rows, threshold=threshold,
                 limit=MAX_COLLISIONS):
        found[r["fact_id"]].append({
            "fact_id": r["other"], "subject": r["subject"], "value": r["value"],
            "shared": sorted(r["shared"]), "jaccard": round(float(r["jaccard"]), 4)})
    return {fid: tuple(items) for fid, items in found.items()}
