"""What the operator's checks report: `graphmem doctor` one finding per dependency (the fix
beside a failure), `graphmem mirror check` the mirror's differences from the graph."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str

    def __str__(self) -> str:
        return f"[{'ok' if self.ok else 'FAIL'}] {self.name}: {self.detail}"


class Problems(list[str]):
    """The mirror's differences from the graph, one line each; `ok` when there are none."""

    @property
    def ok(self) -> bool:
        return not self

    def __str__(self) -> str:
        return "; ".join(self) if self else "mirror agrees with the graph"
