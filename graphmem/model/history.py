"""A subject's timeline, oldest to newest: what each fact held and its status then."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from graphmem.model import Fact


@dataclass(frozen=True)
class HistoryEntry:
    """One line of a timeline: the fact, the value it held then, and its status."""

    fact: Fact
    value: str
    status: str


@dataclass(frozen=True)
class History(Sequence[HistoryEntry]):
    """One subject's timeline, oldest → newest; `str()` is `History for 'state' (oldest → …`.

    A read-only sequence of its entries, so `for entry in history`, `history[-1]` and
    `len(history)` work as they do on a list; a slice gives a tuple of entries.
    """

    subject: str
    entries: tuple[HistoryEntry, ...]

    def __str__(self) -> str:
        if not self.entries:
            return f"No history for {self.subject!r}."
        lines = [f"History for {self.subject!r} (oldest → newest):"]
        for number, entry in enumerate(self.entries, 1):
            lines.append(f"  {number}. {entry.value} [{entry.status}]")
        return "\n".join(lines)

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> HistoryEntry: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[HistoryEntry, ...]: ...

    def __getitem__(self, index: int | slice) -> HistoryEntry | tuple[HistoryEntry, ...]:
        return self.entries[index]

    def __iter__(self) -> Iterator[HistoryEntry]:
        return iter(self.entries)
