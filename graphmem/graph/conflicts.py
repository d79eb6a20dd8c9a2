"""Conflict nodes inside a settling (or undoing, or replayed) write transaction: the conflict
a proposal waits in, one conflict with its facts, and its closing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import run
from graphmem.graph.rows import plain


def close(tx: ManagedTransaction, space: str, now: datetime, *, id: str, status: str,
          winner: str | None, note: str | None, by: str | None) -> None:
    """Close an open conflict: resolved (with its winner) or dismissed."""
    run(tx, "conflicts/close", space=space, now=now, id=id, status=status, winner=winner,
        note=note, by=by)


def for_fact(tx: ManagedTransaction, space: str, fact_id: str | None) -> list[dict[str, Any]]:
    """The conflicts a fact is held in (`conflict`, `fact_status` per row)."""
    return run(tx, "conflicts/for_fact", id=fact_id, space=space)


def settled_proposal(tx: ManagedTransaction, space: str, fact_id: str | None
                     ) -> dict[str, Any] | None:
    """The closed conflict of a proposal someone already settled (`status`, `fact_status`)."""
    rows = run(tx, "conflicts/settled_proposal", id=fact_id, space=space)
    return rows[0] if rows else None


def get(tx: ManagedTransaction, space: str, conflict_id: str) -> dict[str, Any] | None:
    """One conflict (`conflict`) with its facts (`facts`), values as they arrive."""
    rows = plain(tx, "conflicts/get", id=conflict_id, space=space)
    return rows[0] if rows else None
