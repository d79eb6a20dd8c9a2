"""What a listing of facts, conflicts or entities admits: the filters callers pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmem.model import ConflictKind, ConflictStatus, Kind, Status, When


@dataclass(frozen=True)
class EntityFilter:
    """`type` folds into the vocabulary (`company` → organisation); `search` matches a part
    of the normalised name or of a spelling a fact used (case and spacing ignored)."""

    type: str | None = None
    search: str | None = None


@dataclass(frozen=True)
class FactFilter:
    """Which facts a listing admits. `statuses` None: the ACTIVE ones, or, under a
    world-time filter, every fact memory held or archived (what it believed true then);
    `pending`: only confirm-gate proposals; `text`: a case-insensitive part of the value or
    the subject."""

    subject: str | None = None
    scope: str | None = None
    statuses: tuple[Status, ...] | None = None
    source: str | None = None
    category: str | None = None
    kind: Kind | None = None
    text: str | None = None
    pending: bool = False

    def params(self, when: When) -> dict[str, Any]:
        believed = self.statuses is None and when.world
        statuses = None if believed else [s.value for s in self.statuses or (Status.ACTIVE,)]
        return {"subject": self.subject, "scope": self.scope, "statuses": statuses,
                "source": self.source, "category": self.category,
                "kind": self.kind.value if self.kind else None,
                "text": self.text.casefold() if self.text else None, "believed": believed,
                "pending": self.pending, **when.params()}


@dataclass(frozen=True)
class ConflictFilter:
    """Which conflicts a listing admits: one status (the one each had at `as_of`; None:
    any), some kinds, a subject or a scope."""

    status: ConflictStatus | None = ConflictStatus.OPEN
    kinds: tuple[ConflictKind, ...] | None = None
    subject: str | None = None
    scope: str | None = None

    def params(self, when: When) -> dict[str, Any]:
        return {"status": self.status.value if self.status else None,
                "kinds": None if self.kinds is None else [k.value for k in self.kinds],
                "subject": self.subject, "scope": self.scope, **when.params()}
