"""Counts of a space at a point of time, and the spaces a tenant has."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class SpaceStats:
    """Counts for one space at one point of time: facts by status (the status each had
    then), open conflicts and of them confirm-gate proposals, entities. `recently_retired`
    is how many retired facts `list_memories` shows (at most 20)."""

    space: str
    active: int = 0
    flagged: int = 0
    superseded: int = 0
    historical: int = 0
    open_conflicts: int = 0
    pending_changes: int = 0
    entities: int = 0
    recently_retired: int = 0


@dataclass(frozen=True)
class SpaceInfo:
    """A space some writer created, with when it was first written."""

    key: str
    created_at: datetime | None
