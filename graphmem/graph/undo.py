"""What undoing an event reads and marks in the graph: the event's outbox entry, the facts
and slots it touched, the conflicts it opened, and the undone facts' marks and links."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.rows import read_one


def event(graph: GraphDriver, space: str, event_id: str) -> dict[str, Any] | None:
    """The event's outbox entry while the graph keeps it (`kind`, `payload`, `audit`,
    `created_at`)."""
    rows = read_one(graph, "undo/event", space=space, id=event_id)
    return rows[0] if rows else None


def facts(tx: ManagedTransaction, space: str, ids: list[str]) -> list[dict[str, Any]]:
    """The facts of `ids` as property maps (`fact`)."""
    return run(tx, "undo/facts", space=space, ids=ids)


def slots(tx: ManagedTransaction, space: str, slots: list[dict[str, str]]
          ) -> list[dict[str, Any]]:
    """Every fact of the given slots: subject, scope, id, status and value key."""
    return run(tx, "undo/slots", space=space, slots=slots)


def conflicts(tx: ManagedTransaction, space: str, ids: list[str]) -> list[dict[str, Any]]:
    """The open conflicts the facts of `ids` are held in, with their members' statuses."""
    return run(tx, "undo/conflicts", space=space, ids=ids)


def mark(tx: ManagedTransaction, space: str, now: datetime, event: str,
         undone: list[str]) -> None:
    """Mark the undone facts with the event that undid them."""
    run(tx, "undo/mark", space=space, now=now, event=event, undone=undone)


def link(tx: ManagedTransaction, space: str, now: datetime,
         restores: list[dict[str, str]]) -> None:
    """Link each fact an undo brought back to the fact it restores."""
    run(tx, "undo/link", space=space, now=now, restores=restores)
