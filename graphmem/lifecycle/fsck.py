"""`graphmem fsck`: the graph's schema and invariants, near-duplicate entities, the mirror.

A declared constraint or index missing from the database, or a violated invariant, fails the
run; near-duplicate entities are candidates for a person (reported, never merged) and fail
only under `strict`; the mirror check compares the relational copy with the graph once the
outbox has caught up.
"""

from __future__ import annotations

import logging

from graphmem.errors import GraphMemError
from graphmem.graph import entities
from graphmem.graph.fsck import invariants, schema
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.lifecycle.clients import Clients
from graphmem.lifecycle.duplicates import Embedder, near_duplicates
from graphmem.model.fsck import Check, Report

log = logging.getLogger(__name__)

MIRROR = "mirror agrees with the graph"
DUPLICATES = "near-duplicate entities (name cosine >= 0.95)"


def duplicates(runtime: Clients, space: str, embedder: Embedder | None, strict: bool) -> Check:
    if embedder is None:
        return Check(DUPLICATES, ("no embedder configured: check not run",), fails=strict)
    try:
        pairs = near_duplicates(entities.listing(runtime.graph, space), embedder)
    except GraphMemError as e:
        return Check(DUPLICATES, (f"check not run: {e}",), fails=strict)
    return Check(DUPLICATES, tuple(str(p) for p in pairs), fails=strict)


def mirror(runtime: Clients, space: str) -> Check:
    return Check(MIRROR, tuple(check_mirror(runtime, space)))


def fsck(runtime: Clients, space: str, strict: bool = False) -> Report:
    """Run every check on one space."""
    checks = [schema(runtime.graph), *invariants(runtime.graph, space),
              duplicates(runtime, space, runtime.embedder, strict), mirror(runtime, space)]
    report = Report(space, tuple(checks))
    if not report.ok:
        log.warning("fsck found problems in space %s", space)
    return report
