"""How every process learns of an erasure, wherever it ran: the `erase` events of the log.

The process that applies an erase entry tells its own caches at once (`Mirror`); every
other process sharing the relational store finds the entry in the event log, where it stays
(its payload holds ids only), at most every GRAPHMEM_MIRROR_INTERVAL seconds from its mirror
worker: one indexed read of the highest `erase` event, and the new ones only when it moved.
Each is handed to the listeners (space, erased fact ids), and the decrypt cache is cleared.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable

from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.event_log import event_binding

log = logging.getLogger(__name__)

Listener = Callable[[str, frozenset[str]], None]


class ErasureWatch:
    """Polls the event log for erasures after the one that was latest when it started
    (`start`, before this process caches anything); when that could not be read, the first
    poll that can read it clears every cache instead (what was cached before cannot be told
    apart)."""

    def __init__(self, store: RelationalStore, cipher: Callable[[], FieldCipher],
                 listeners: list[Listener], every: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._cipher = cipher
        self._listeners = listeners
        self._every = every
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: int | None = None
        self._polled = float("-inf")
        self._failing = False

    def start(self) -> None:
        """Where the log stands now; never raises (a store that is down: see the class)."""
        try:
            self._seen = self._latest()
        except Exception as e:  # noqa: BLE001 - the first poll that can read it clears all
            self._failed(e)

    def _latest(self) -> int:
        return int(self._store.query(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE kind = 'erase'")[0][0])

    @property
    def seen(self) -> int | None:
        """The last `erase` event this process has acted on (None before the first poll)."""
        return self._seen

    def erased(self, space: str, ids: frozenset[str]) -> None:
        """An erasure of `space` (this process's, or found in the log): clear the caches."""
        self._cipher().clear_cache()
        for listener in self._listeners:
            listener(space, ids)

    def poll(self) -> None:
        """Look for erasures other processes applied (at most every `every` seconds)."""
        if self._clock() - self._polled < self._every:
            return
        with self._lock:
            self._polled = self._clock()
            try:
                self._poll_locked()
            except Exception as e:  # noqa: BLE001 - retried on the next poll
                self._failed(e)
            else:
                self._failing = False

    def _failed(self, error: Exception) -> None:
        if not self._failing:  # once per outage, not every interval
            self._failing = True
            log.warning("cannot read the erasures of other processes from the event log (tried"
                        " again every %ss): %s", self._every, error)

    def _poll_locked(self) -> None:
        latest = self._latest()
        if self._seen is None:
            self._seen = latest
            self.erased("", frozenset())
            return
        if latest <= self._seen:
            return
        rows = self._store.query("SELECT seq, event_id, space, payload FROM events"
                                 " WHERE kind = 'erase' AND seq > ? ORDER BY seq", (self._seen,))
        cipher = self._cipher()
        for _, event_id, space, sealed in rows:
            payload = json.loads(cipher.open(sealed, event_binding(event_id, space, "erase"))
                                 or "{}")
            self.erased(str(space), frozenset(payload.get("facts", [])))
        self._seen = latest
