"""The graph side of erasure: which facts a target names, and their deletion for good with
everything attached to them (see graphmem.lifecycle.erasure for the whole path)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver, run


def _ids(rows: list[dict[str, Any]]) -> set[str]:
    return {str(r["id"]) for r in rows}


def targets_by_id(tx: ManagedTransaction, space: str, ids: list[str]) -> set[str]:
    """Those of `ids` that are facts of the space."""
    return _ids(run(tx, "erasure/targets_by_id", space=space, ids=ids))


def targets_by_subject(tx: ManagedTransaction, space: str, subject: str | None) -> set[str]:
    return _ids(run(tx, "erasure/targets_by_subject", space=space, subject=subject))


def targets_expired(tx: ManagedTransaction, space: str, before: datetime | None) -> set[str]:
    """History (retired facts) recorded before `before`."""
    return _ids(run(tx, "erasure/targets_expired", space=space, before=before))


def targets_all(tx: ManagedTransaction, space: str) -> set[str]:
    return _ids(run(tx, "erasure/targets_all", space=space))


def targets_all_page(tx: ManagedTransaction, space: str, limit: int) -> list[str]:
    return [str(r["id"]) for r in run(tx, "erasure/targets_all_page", space=space,
                                      limit=limit)]


def tombstones(tx: ManagedTransaction, space: str, ids: list[str]) -> set[str]:
    """The tombstones that name the values of `ids` (erased with them)."""
    return _ids(run(tx, "erasure/tombstones", space=space, ids=ids))


def facts(tx: ManagedTransaction, space: str, ids: list[str]) -> list[str]:
    """Delete the facts with their edges, vectors, orphaned entities and emptied conflicts;
    returns the ids of the conflicts that went with them."""
    return [str(c) for c in run(tx, "erasure/facts", space=space, ids=ids)[0]["conflicts"]]


def space_rest(tx: ManagedTransaction, space: str) -> None:
    """What a space holds besides facts (entities, conflicts, its Space node's settings)."""
    run(tx, "erasure/space_rest", space=space)


def outbox(tx: ManagedTransaction, space: str) -> list[dict[str, Any]]:
    """The space's outbox entries (id, kind, payload), to be rewritten without erased ids."""
    return run(tx, "erasure/outbox", space=space)


def rewrite_outbox(tx: ManagedTransaction, rows: list[dict[str, str]]) -> None:
    run(tx, "erasure/rewrite_outbox", rows=rows)


def entities_page(graph: GraphDriver, space: str, limit: int) -> int:
    """Delete up to `limit` of the space's entities in one transaction; how many went."""
    return int(graph.write("erasure/entities_page", space=space, limit=limit)[0]["deleted"])
