"""A store outage in the server log: one line when it starts, then a summary a minute.

While Neo4j or the relational store cannot be reached, every request that needs it fails
the same way. A traceback for each would be megabytes a minute (a second fault caused by
the first: a full disk). So the first failure of an outage logs its detail once; the
following ones are counted, and at most every SUMMARY_SECONDS a line says how many failed
since the outage began and when the last one did. An outage ends when no failure of its
kind came for QUIET_SECONDS: the next failure starts a new one, with its own first line.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.errors import Outage

log = logging.getLogger("graphmem.outages")
SUMMARY_SECONDS = 60.0
QUIET_SECONDS = 30.0


@dataclass
class _Running:
    first: datetime
    last: datetime
    last_seen: float  # monotonic
    summarized: float  # monotonic
    count: int = 1
    since_summary: int = 0


class OutageLog:
    """What this process has logged of each kind of outage (thread-safe)."""

    def __init__(self, summary_seconds: float = SUMMARY_SECONDS,
                 quiet_seconds: float = QUIET_SECONDS) -> None:
        self.summary_seconds = summary_seconds
        self.quiet_seconds = quiet_seconds
        self._lock = threading.Lock()
        self._running: dict[str, _Running] = {}

    def note(self, error: Outage, operation: str) -> None:
        """Count a call that failed on an outage; log what is due."""
        kind, now, wall = type(error).kind, time.monotonic(), datetime.now(UTC)
        due = False
        with self._lock:
            running = self._running.get(kind)
            if running is None or now - running.last_seen > self.quiet_seconds:
                self._running[kind] = _Running(wall, wall, now, now)
                first = True
            else:
                running.count += 1
                running.since_summary += 1
                running.last, running.last_seen = wall, now
                first = False
                if now - running.summarized >= self.summary_seconds:
                    due = True
                    running.summarized, running.since_summary = now, 0
                    count, started = running.count, running.first
        if first:
            log.warning("%s: %s (first failed call: %s). Calls that need it answer UNAVAILABLE"
                        " until it is back; a summary follows every %.0fs while it lasts",
                        kind, error, operation, self.summary_seconds)
        elif due:
            log.warning("%s: still failing, %d call(s) since %s, the last at %s", kind,
                        count, started.isoformat(timespec="seconds"),
                        wall.isoformat(timespec="seconds"))

    def noted(self, error: BaseException, operation: str) -> bool:
        """Whether `error` is an outage, counted here: a background task's failure goes to
        its own log line only when it is not (an outage of a store is logged once, however
        many tasks and requests meet it)."""
        if not isinstance(error, Outage):
            return False
        self.note(error, operation)
        return True

    def running(self, kind: str) -> int:
        """Calls failed in the current outage of this kind (0: none running)."""
        with self._lock:
            found = self._running.get(kind)
            if found is None or time.monotonic() - found.last_seen > self.quiet_seconds:
                return 0
            return found.count


OUTAGES = OutageLog()
