"""Outbox entries this process applied and has not yet marked done in the graph.

Marking is kept off the path from a commit to its apply: a pass records what it applied here,
and a thread of its own marks those entries done in the graph every MARK_EVERY seconds, many
per Neo4j transaction. Until then a pass that reads them again skips them (`unmarked`), and
whoever needs them marked at once (a drain, shutdown) calls `mark`. Marking is idempotent:
an entry marked twice is simply done.

One mark runs at a time in a process, and each takes its entries' locks in id order: two
marks of overlapping entries (the thread's round and a drain's) could otherwise lock them in
opposite orders and deadlock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence

from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.outage_log import OUTAGES

log = logging.getLogger(__name__)

MARK_EVERY = 0.25  # seconds: applied entries are marked done in the graph in batches


class Marks:
    def __init__(self, graph: GraphDriver) -> None:
        self._graph = graph
        self._lock = threading.Lock()  # guards _unmarked
        self._marking = threading.Lock()  # one mark transaction at a time
        self._unmarked: dict[str, None] = {}  # applied, not yet marked done in the graph
        self._thread: threading.Thread | None = None

    def add(self, ids: Iterable[str]) -> None:
        """These entries were applied here: mark them done on the next round."""
        with self._lock:
            self._unmarked.update((event, None) for event in ids)

    def unmarked(self, entries: Sequence[outbox.OutboxEntry]) -> list[outbox.OutboxEntry]:
        """The entries of `entries` not applied here already."""
        with self._lock:
            return [e for e in entries if e.id not in self._unmarked]

    def mark(self) -> None:
        """Mark what this process applied done in the graph (idempotent)."""
        with self._marking:
            with self._lock:
                ids = sorted(self._unmarked)
            if ids:
                outbox.mark_done(self._graph, ids)
                with self._lock:
                    for event in ids:
                        self._unmarked.pop(event, None)

    def start(self, stop: threading.Event) -> None:
        """Mark every MARK_EVERY seconds in a thread of its own until `stop` is set."""
        self._thread = threading.Thread(target=self._run, args=(stop,), daemon=True,
                                        name="graphmem-mirror-marks")
        self._thread.start()

    def join(self, timeout: float) -> None:
        """Wait for the thread (its `stop` set) to end."""
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(MARK_EVERY):
            try:
                self.mark()
            except Exception as e:  # noqa: BLE001 - kept, marked on a later round
                if not OUTAGES.noted(e, "mirror: marking applied outbox entries done"):
                    log.warning("marking applied outbox entries done failed (retried): %s", e)
