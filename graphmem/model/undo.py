"""What an undo did: its own event, the event it undid, and each change as a line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UndoResult:
    """`event_id` is the undo's own event (undo it to redo); `undone` the event it undid."""

    event_id: str
    undone: str
    lines: tuple[str, ...]
    restored: tuple[str, ...] = ()  # the copies that bring values back
    retired: tuple[str, ...] = ()  # the facts retired, withdrawn or voided
    closed: tuple[str, ...] = ()  # conflicts closed with nothing left in them
    forced: bool = False
    consistency_token: str | None = None

    @property
    def message(self) -> str:
        return f"Undid event {self.undone} (as event {self.event_id}): " + "; ".join(self.lines)

    def __str__(self) -> str:
        return self.message
