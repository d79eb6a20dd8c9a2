"""What an import did, as one line for a terminal or a log, and as data for the APIs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from graphmem.lifecycle.transfer.importers.items import plural


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


def merge(counts: Counter[str], more: dict[str, int]) -> None:
    counts.update({k: v for k, v in more.items() if v})
