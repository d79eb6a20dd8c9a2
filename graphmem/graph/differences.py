"""The facts whose times fall between two instants of one clock, read through the indexes on
those times (cypher/changes/), as the spans `model.differences.compare` compares."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time, row_to_fact
from graphmem.graph.rows import read_one
from graphmem.model.differences import Clock, SlotChange, Span, compare

# closes the refinement range: none is recorded later than now, and a day covers other
# hosts' clocks
SKEW = timedelta(days=1)


def span(row: dict[str, Any], clock: Clock) -> Span:
    """A fact's life on `clock`, from its row."""
    fact = row_to_fact(row)
    if clock == Clock.RECORDED:
        return Span(fact, as_time(row.get("held_from")), fact.retired_at,
                    row.get("held_event"), row.get("retired_event"),
                    as_time(row.get("refined_at")), row.get("refined_event"))
    closed_by_retiring = row.get("valid_to_at") is not None
    return Span(fact, fact.valid_from, fact.valid_to, row.get("event"),
                row.get("retired_event") if closed_by_retiring else row.get("event"))


def changes(graph: GraphDriver, space: str, start: datetime, end: datetime, clock: Clock,
            subject: str | None = None) -> list[SlotChange]:
    """Every slot of the space (or of one subject) whose current facts differ between
    `start` and `end`, in slot order."""
    name = "changes/recorded" if clock == Clock.RECORDED else "changes/valid"
    rows = read_one(graph, name, **{"space": space, "subject": subject, "from": start,
                                    "to": end, "now": max(end, datetime.now(UTC)) + SKEW})
    return compare([span(r["fact"], clock) for r in rows], start, end, clock)
