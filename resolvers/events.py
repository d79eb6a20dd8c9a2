"""What subscriptions deliver, and how a mutation's result becomes events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmem.model import Action, Result, Space

FACT_CHANGED = "factChanged"
CONFLICT_OPENED = "conflictOpened"
_UNCHANGED = frozenset({Action.DEDUP, Action.SKIP})


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class FactChange:
    space: str
    change: str
    message: str
    fact_id: str | None = None
    subject: str | None = None
    value: str | None = None
    action: Action | None = None
    at: datetime = field(default_factory=_now)


@dataclass(frozen=True)
class ConflictOpened:
    space: str
    conflict_id: str
    message: str
    fact_id: str | None = None
    subject: str | None = None
    value: str | None = None
    at: datetime = field(default_factory=_now)


def from_results(change: str, space: Space, results: Sequence[Result]) -> list[tuple[str, Any]]:
    """A factChanged per stored change, a conflictOpened per conflict a result opened."""
    events: list[tuple[str, Any]] = []
    for r in results:
        if r.action not in _UNCHANGED:
            events.append((FACT_CHANGED, FactChange(space.key, change, r.message, r.fact_id,
                                                    r.subject, r.value, r.action)))
        if r.conflict_id:
            events.append((CONFLICT_OPENED, ConflictOpened(space.key, r.conflict_id, r.message,
                                                           r.fact_id, r.subject, r.value)))
    return events


def settled(change: str, space: Space, message: str,
            fact_id: str | None = None) -> list[tuple[str, Any]]:
    return [(FACT_CHANGED, FactChange(space.key, change, message, fact_id))]
