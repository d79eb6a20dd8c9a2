"""The mirror's background threads: the worker that runs passes, and the marks' thread.

After each pass the worker calls `idle` (the mirror's periodic chores: the checkpoint file's
time rule, other processes' erasures).

A write wakes the worker at once (`wake`), which lets further writes commit for LINGER
seconds and then applies them together, so the mirror follows within tens of milliseconds; so
does a space's first use in this process, which drains what a crash left there. In server
mode (`follow_everything`) every space is drained at start-up and every
GRAPHMEM_MIRROR_INTERVAL seconds, and applied entries past GRAPHMEM_OUTBOX_KEEP_SECONDS are
pruned from the graph. A failed pass (the relational store is down) is retried every
interval: the graph write never waits for the store and never fails because of it, and the
mirror catches up when it returns.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror.drain import Drainer
from graphmem.mirror.marks import Marks
from graphmem.outage_log import OUTAGES
from graphmem.settings import Settings

log = logging.getLogger(__name__)

PRUNE_EVERY = 60.0
# Seconds a woken worker lets further writes commit before its pass, so one relational
# transaction (and one signing run) applies many of them; `flush` and `drain` never wait on it.
LINGER = 0.02


class Worker:
    """Started on first use; `last_error` holds the failure of the last pass (None once a
    pass goes through)."""

    def __init__(self, settings: Settings, graph: GraphDriver, drainer: Drainer,
                 marks: Marks, idle: Callable[[], None] = lambda: None) -> None:
        self._settings = settings
        self._idle = idle
        self._graph = graph
        self._drainer = drainer
        self._marks = marks
        self._lock = threading.Lock()  # guards starting the threads and _everything
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._everything = False
        self.last_error: str | None = None

    @property
    def everything(self) -> bool:
        """Whether the worker drains every space (server mode)."""
        return self._everything

    def follow_everything(self) -> None:
        """Drain every space on the next pass and every GRAPHMEM_MIRROR_INTERVAL seconds."""
        with self._lock:
            self._everything = True

    def wake(self) -> None:
        self._wake.set()

    def in_worker(self) -> bool:
        """Whether the calling thread is the worker."""
        return threading.current_thread() is self._thread

    def ensure_thread(self) -> None:
        """Start the worker and the marks' thread unless the worker runs."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="graphmem-mirror",
                                            daemon=True)
            self._thread.start()
            self._marks.start(self._stop)

    def stop(self) -> None:
        """Stop both threads (the pass under way ends first)."""
        thread = self._thread
        if thread is not None:
            self._stop.set()
            self._wake.set()
            thread.join(timeout=30)
            self._thread = None
        self._marks.join(timeout=30)

    def _run(self) -> None:
        pruned_at = swept_at = 0.0
        started = False  # server mode's first pass drains every space
        while not self._stop.is_set():
            self._stop.wait(LINGER)
            self._wake.clear()
            everything = self._everything and not started
            sweep = (self._everything and started
                     and time.monotonic() - swept_at >= self._sweep_every())
            more = self._background_pass(everything, sweep)
            self._idle()
            if (everything or sweep) and self.last_error is None:
                started, swept_at = True, time.monotonic()
            if (self._everything and self.last_error is None
                    and time.monotonic() - pruned_at > PRUNE_EVERY):
                pruned_at = time.monotonic()
                self._prune()
            if self.last_error is not None:  # the store is down: retry every interval,
                self._stop.wait(self._settings.mirror_interval)  # not on every queued row
            elif not more:
                self._wake.wait(self._settings.mirror_interval)

    def _sweep_every(self) -> float:
        """Seconds between sweeps: an entry becomes claimable only once its lease is over, so
        twice a lease is often enough (and never more often than the interval)."""
        return max(self._settings.mirror_interval, self._settings.outbox_lease_seconds / 2)

    def _background_pass(self, everything: bool, sweep: bool) -> bool:
        """One pass of the worker; returns whether more is waiting. Failures are logged and
        retried every interval."""
        try:
            _, more = (self._drainer.sweep() if sweep
                       else self._drainer.one_pass(everything=everything))
        except Exception as e:  # noqa: BLE001 - logged; the outbox keeps every entry
            if str(e) != self.last_error:
                log.warning("mirror pass failed, the outbox keeps the entries and audit rows"
                            " wait in memory (retried every %ss): %s",
                            self._settings.mirror_interval, e)
            self.last_error = str(e)
            return False
        if self.last_error is not None:
            log.warning("mirror pass works again: the mirror caught up")
        self.last_error = None
        return more

    def _prune(self) -> None:
        try:
            outbox.prune(self._graph, self._settings.outbox_keep_seconds)
        except Exception as e:  # noqa: BLE001 - pruning is housekeeping; logged
            if not OUTAGES.noted(e, "mirror: pruning applied outbox entries"):
                log.warning("pruning applied outbox entries failed: %s", e)
