"""The graph side of imports: their checkpoints, and what a restore writes besides facts
(the space's own properties, entities as exported, conflicts with their outcome).

A checkpoint (`(:Import)`) moves in the transaction of each batch an import writes, under
the space's lock, so an interrupted import continues after its last committed batch and
never writes a record twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import GraphMemError
from graphmem.graph.driver import GraphDriver, run


@dataclass(frozen=True)
class Checkpoint:
    id: str
    space: str
    mode: str
    source: str
    line: int = 0
    done: bool = False
    remap: bool = False
    written: int = 0


def checkpoint(graph: GraphDriver, space: str, import_id: str) -> Checkpoint | None:
    rows = graph.read("transfer/checkpoint_get", space=space, id=import_id)
    if not rows:
        return None
    row = rows[0]["checkpoint"]
    return Checkpoint(row["id"], row["space"], row["mode"], row["source"] or "",
                      int(row["line"] or 0), bool(row["done"]), bool(row["remap"]),
                      int(row["written"] or 0))


class ConcurrentImport(GraphMemError):
    """Another run of the same import moved its checkpoint meanwhile."""


def expect(tx: ManagedTransaction, point: Checkpoint, start: int) -> None:
    """Raise ConcurrentImport unless the checkpoint stands where this run left it (`start`),
    before anything is written (the caller holds the space's lock)."""
    rows = run(tx, "transfer/checkpoint_get", space=point.space, id=point.id)
    found = int(rows[0]["checkpoint"]["line"] or 0) if rows else 0
    if found != start:
        raise ConcurrentImport(f"another run of this import into {point.space} is writing"
                               " it: let it finish (or run this one again once it stopped)")


def advance(tx: ManagedTransaction, point: Checkpoint, start: int, line: int, written: int,
            done: bool, now: datetime) -> None:
    """Move the checkpoint from `start` to `line` in the caller's transaction (which holds
    the space's lock); raises ConcurrentImport, so the transaction rolls back, when another
    run moved it from `start` meanwhile."""
    rows = run(tx, "transfer/checkpoint_set", id=point.id, space=point.space,
               mode=point.mode, source=point.source, remap=point.remap, line=line,
               written=written, done=done, now=now, start=start)
    if not rows:
        raise ConcurrentImport(f"another run of this import into {point.space} is writing"
                               " it: let it finish (or run this one again once it stopped)")


def content(graph: GraphDriver, space: str) -> int:
    """Facts, conflicts and entities the space holds."""
    return int(graph.read("transfer/space_content", space=space)[0]["nodes"])


def taken(graph: GraphDriver, ids: list[str]) -> bool:
    """Whether the graph holds any of these fact or conflict ids, in any space."""
    for start in range(0, len(ids), 5000):
        if int(graph.read("transfer/taken_ids", ids=ids[start:start + 5000])[0]["taken"]):
            return True
    return False


def restore_facts(tx: ManagedTransaction, space: str, facts: list[dict[str, Any]],
                  links: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Facts as exported and their links by kind (supersedes, retracts, restores); returns
    how many of each were written."""
    rows = run(tx, "transfer/restore_facts", space=space, facts=facts,
               supersedes=links.get("supersedes", []), retracts=links.get("retracts", []),
               restores=links.get("restores", []))
    return {k: int(v) for k, v in rows[0].items()}


def restore_space(tx: ManagedTransaction, space: str, policy: str | None,
                  labels: list[str], schema: str | None = None,
                  described: str | None = None) -> None:
    run(tx, "transfer/restore_space", space=space, policy=policy, labels=labels,
        schema=schema, described=described)


def restore_entities(tx: ManagedTransaction, space: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        run(tx, "transfer/restore_entities", space=space, rows=rows)


def restore_conflicts(tx: ManagedTransaction, space: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        run(tx, "transfer/restore_conflicts", space=space, rows=rows)
