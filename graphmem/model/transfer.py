"""What an export and an import report: the spaces, the counts, the signed digest."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else words or word + 's'}"


PLURALS = {"entity": "entities", "pending": "pending"}


@dataclass(frozen=True)
class ExportRequest:
    """What to export: the spaces (keys), as of an instant or as they are now, and whether
    sealed relational content is decrypted into the file (the caller may read it)."""

    spaces: tuple[str, ...]
    scope: str
    source: str
    as_of: datetime | None = None
    decrypt: bool = False


@dataclass(frozen=True)
class ExportResult:
    spaces: tuple[str, ...]
    counts: dict[str, int]
    digest: str
    key_id: str
    bytes: int
    manifest: dict[str, Any] = field(repr=False, default_factory=dict)

    def __str__(self) -> str:
        parts = ", ".join(plural(n, kind, PLURALS.get(kind))
                          for kind, n in self.counts.items() if kind not in ("header",))
        return (f"exported {parts or 'nothing'} from {len(self.spaces)} space(s);"
                f" hash {self.digest[:16]}…, signed by key {self.key_id}")


@dataclass(frozen=True)
class ImportReport:
    """`written`: what this run wrote, by kind (facts, entities, conflicts, decisions);
    `actions`: a replay's reconcile actions; `skipped`: records an earlier, interrupted run
    had imported already; `unmapped`: what the source held that could not be mapped."""

    mode: str
    format: str
    spaces: tuple[str, ...]
    records: int
    written: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    unmapped: tuple[str, ...] = ()
    already: bool = False
    remapped: bool = False

    def __str__(self) -> str:
        where = ", ".join(self.spaces)
        if self.already:
            return f"{self.mode}: already imported into {where}; nothing to do"
        parts = [plural(n, kind[:-1] if kind.endswith("s") else kind, kind)
                 for kind, n in self.written.items() if n]
        line = (f"{self.mode} ({self.format}): {plural(self.records, 'record')} into {where};"
                f" wrote {', '.join(parts) or 'nothing'}")
        if self.actions:
            line += " (" + ", ".join(f"{a} {n}" for a, n in sorted(self.actions.items())) + ")"
        if self.skipped:
            line += f"; continued after {plural(self.skipped, 'record')} an earlier run wrote"
        if self.remapped:
            line += "; ids re-derived for this space (the source's ids are taken here)"
        if self.unmapped:
            line += "; not mapped: " + "; ".join(self.unmapped)
        return line


@dataclass(frozen=True)
class RestoreResult:
    """What a rebuild of the graph from the mirror's event log replayed."""

    events: int
    spaces: tuple[str, ...]
    facts: int

    def __str__(self) -> str:
        return (f"restored {self.facts} facts in {len(self.spaces)} space(s) from"
                f" {self.events} mirror events")
