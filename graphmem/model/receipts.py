"""The verdict on a receipt a client sends back: valid or not, and why."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str

    def __bool__(self) -> bool:
        return self.ok
