"""A write's two statements (the slots it reads under the space lock, and everything it
writes) and the conflicts it opens; and the facts an exact message produced before."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver, run, run_maps

Slots = list[dict[str, str]]


def lock_and_load(tx: ManagedTransaction, space: str, now: datetime, *, slots: Slots,
                  past: Slots, coexist: Slots) -> dict[str, Any]:
    """Take the space lock and read, in one round trip, the stored policy and the hot set of
    each slot (`facts`), the archived values of `past` slots (`archived`) and the slots of
    `coexist` held elsewhere (`elsewhere`)."""
    return run_maps(tx, "remember/lock_and_load", space=space, now=now, slots=slots,
                    past=past, coexist=coexist)[0]


def apply(tx: ManagedTransaction, space: str, now: datetime, event: str | None,
          **batch: Any) -> dict[str, Any] | None:
    """Write a batch's messages, facts, refines, statuses, edges and outbox entries; the
    row carries the space's write sequence (`seq`), None when nothing was written."""
    rows = run(tx, "remember/apply", space=space, now=now, event=event, **batch)
    return rows[0] if rows else None


def open_conflicts(tx: ManagedTransaction, space: str, now: datetime,
                   conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Open the conflicts (or join an open one of the same slot and kind): per row the
    conflict's id (`conflict_id`) and the facts it flags (`flagged`)."""
    return run(tx, "remember/open_conflicts", rows=conflicts, space=space, now=now)


def message_facts(graph: GraphDriver, space: str, message_key: str) -> list[dict[str, Any]]:
    """The facts an exact message produced before (id, subject, value, status)."""
    return graph.read("remember/message_facts", space=space, message_key=message_key)
