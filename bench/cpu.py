"""CPU spent per unit of work, by this process and by the managed Neo4j server.

On a machine with few cores the CPU a write costs, not its latency, bounds how many writes
per second the machine can do at all: `cores × 1000 / (ms of this process + ms of Neo4j)`.
Read from /proc (Linux); the server's share only when it is the managed local one.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.settings import Settings

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_seconds(path: Path) -> float | None:
    """utime + stime of a /proc stat file, in seconds (fields 14 and 15)."""
    try:
        fields = path.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def quiet(pid: int, share: float = 0.05, window: float = 2.0, limit: float = 600.0) -> float:
    """Wait until process `pid` uses under `share` of one core over `window` seconds (its
    background work, such as an embedding backlog, is done); returns the seconds waited."""
    began = time.monotonic()
    stat = Path(f"/proc/{pid}/stat")
    while time.monotonic() - began < limit:
        before = _stat_seconds(stat)
        time.sleep(window)
        after = _stat_seconds(stat)
        if before is None or after is None or after - before < share * window:
            break
    return time.monotonic() - began


def _server_pid(settings: Settings) -> int | None:
    try:
        pid = int(LocalNeo4j(settings).pid_file.read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if Path(f"/proc/{pid}/stat").exists() else None


@dataclass(frozen=True)
class Reading:
    process: float  # this process, every thread but the excluded ones
    server: float | None  # the Neo4j server process; None when not the managed local one


@dataclass(frozen=True)
class PerUnit:
    process_ms: float
    server_ms: float | None

    @property
    def ceiling(self) -> float | None:
        """Units per second the machine's cores could do if they did nothing else."""
        if self.server_ms is None:
            return None
        return (os.cpu_count() or 1) * 1000 / (self.process_ms + self.server_ms)

    def describe(self, unit: str) -> str:
        server = ("Neo4j CPU not measured (not the managed local server)"
                  if self.server_ms is None else f"Neo4j **{self.server_ms:.2f} ms**")
        line = f"CPU per {unit}: this process **{self.process_ms:.2f} ms**, {server}"
        if self.ceiling is not None:
            line += (f"; {os.cpu_count()} cores can therefore do at most"
                     f" **{self.ceiling:,.0f} {unit}s/s** whatever the wall clock says")
        return line


class CpuMeter:
    """Reads before and after a phase; threads named in `exclude` (the background embedder,
    whose work is not the write's) are left out of this process's share."""

    def __init__(self, settings: Settings, exclude: tuple[str, ...] = ("graphmem-embed",)
                 ) -> None:
        self.pid = _server_pid(settings)
        self.exclude = exclude

    def read(self) -> Reading:
        excluded = sum(_stat_seconds(Path(f"/proc/self/task/{t.native_id}/stat")) or 0.0
                       for t in threading.enumerate() if t.name in self.exclude and t.native_id)
        server = None if self.pid is None else _stat_seconds(Path(f"/proc/{self.pid}/stat"))
        return Reading(time.process_time() - excluded, server)

    @staticmethod
    def per_unit(before: Reading, after: Reading, units: int) -> PerUnit:
        server = (None if before.server is None or after.server is None
                  else (after.server - before.server) * 1000 / units)
        return PerUnit((after.process - before.process) * 1000 / units, server)
