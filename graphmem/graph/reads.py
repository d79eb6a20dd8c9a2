"""Read operations on facts and conflicts: hot set, time travel, history, listings."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import conflicts as conflict_rows
from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time, row_to_fact
from graphmem.graph.nodes import ConflictNode
from graphmem.graph.rows import read, read_one
from graphmem.model import (
    HOT_STATUSES,
    Conflict,
    ConflictKind,
    ConflictStatus,
    Fact,
    Status,
)
from graphmem.model.differences import value_then
from graphmem.model.history import History, HistoryEntry


def aware(at: datetime | None, name: str) -> datetime | None:
    if at is not None and at.tzinfo is None:
        raise InvalidInput(f"{name} must carry a timezone (e.g. 2026-03-01T00:00:00+00:00)")
    return at


def value_at(fact: Fact, at: datetime) -> Fact:
    """A refined fact as it read at `at`: the first revision made after then holds it."""
    return value_then(fact, at)


def facts(graph: GraphDriver, space: str, subject: str | None = None,
          statuses: tuple[str, ...] = (Status.ACTIVE.value,), as_of: datetime | None = None,
          valid_at: datetime | None = None) -> list[Fact]:
    """Current facts, or those memory held at `as_of`, or those true in the world at
    `valid_at`; the ordinary read never loads a retired row."""
    if as_of is not None:
        at = aware(as_of, "as_of") or as_of
        name = "facts/as_of" if subject is None else "traversal/subject_as_of"
        rows = read_one(graph, name, space=space, subject=subject, at=at)
        return [value_at(row_to_fact(r["fact"]), at) for r in rows]
    if aware(valid_at, "valid_at") is not None:
        name = "facts/valid_at" if subject is None else "traversal/subject_valid_at"
        rows = read_one(graph, name, space=space, subject=subject, at=valid_at)
        return [row_to_fact(r["fact"]) for r in rows]
    if subject is not None:
        rows = read_one(graph, "facts/subject_hot", space=space, subject=subject,
                        statuses=list(statuses))
    else:
        rows = read_one(graph, "facts/hot", space=space, subject=None, statuses=list(statuses))
    return [row_to_fact(r["fact"]) for r in rows]


def hot(graph: GraphDriver, space: str) -> list[Fact]:
    return facts(graph, space, statuses=HOT_STATUSES)


def get(graph: GraphDriver, space: str, fact_id: str) -> tuple[Fact, list[dict[str, Any]]]:
    rows = read_one(graph, "facts/get", space=space, id=fact_id)
    if not rows:
        raise NotFound(f"no fact {fact_id!r} in this space")
    return row_to_fact(rows[0]["fact"]), rows[0]["conflicts"]


def history(graph: GraphDriver, space: str, subject: str, scope: str | None = None,
            as_of: datetime | None = None) -> History:
    """Walks the chain in recording order; refined values appear where they were replaced."""
    rows = read_one(graph, "facts/history", space=space, subject=subject, scope=scope)
    entries: list[HistoryEntry] = []
    for row in rows:
        fact = row_to_fact(row["fact"])
        if as_of is not None and fact.recorded_at is not None and fact.recorded_at > as_of:
            continue
        for revision in fact.revisions:
            entries.append(HistoryEntry(fact, str(revision.get("value")), "REFINED"))
        entries.append(HistoryEntry(fact, fact.value, fact.status.value))
    return History(subject, tuple(entries))


def recent_retired(graph: GraphDriver, space: str, limit: int = 20) -> list[Fact]:
    rows = read_one(graph, "facts/recent_retired", space=space, limit=limit)
    return [row_to_fact(r["fact"]) for r in rows]


def conflict_from_row(c: dict[str, Any], fact_ids: list[str]) -> Conflict:
    """A conflict read as a map (listings project its as-of state), with its facts' ids."""
    return Conflict(
        id=c["id"], space=c["space"], kind=ConflictKind(c["kind"]),
        status=ConflictStatus(c["status"]), fact_ids=tuple(fact_ids),
        severity=c.get("severity", "medium"), note=c.get("note") or "", by=c.get("by") or "",
        winner=c.get("winner"), created_at=as_time(c.get("created_at")),
        closed_at=as_time(c.get("closed_at")), subject=c.get("subject") or "",
        scope=c.get("scope") or "",
    )


def conflicts(graph: GraphDriver, space: str, status: str | None = "open") -> list[Conflict]:
    if status is not None:
        try:
            status = ConflictStatus(status.lower()).value
        except ValueError:
            allowed = ", ".join(s.value for s in ConflictStatus)
            raise InvalidInput(f"conflict status {status!r}: use one of {allowed}") from None
    rows = read(graph, "conflicts/list", space=space, status=status)
    return [ConflictNode.inflate(r["conflict"]).conflict(r["fact_ids"]) for r in rows]


def conflict(graph: GraphDriver, space: str, conflict_id: str) -> tuple[Conflict, list[Fact]]:
    row = graph.execute(conflict_rows.get, space, conflict_id, write=False)
    if row is None:
        raise NotFound(f"no conflict {conflict_id!r} in this space")
    found = [row_to_fact(f) for f in row["facts"]]
    node = ConflictNode.inflate(row["conflict"])
    return node.conflict([f.id for f in found]), found


def metadata_reason(fact: Fact) -> str:
    return str(fact.metadata.get("reason") or fact.metadata.get("note") or "")


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
