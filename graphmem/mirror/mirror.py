"""The long-lived mirror of one Runtime: keys, the outbox drainer, the audit appender.

The drainer is a daemon thread. A write calls `notify(space)`, which wakes it at once, so the
mirror follows within milliseconds without adding the relational store to the write's own
latency; so does a space's first use in this process, which drains what a crash left there.
The server calls `start()`: every space is drained at start-up and every
GRAPHMEM_MIRROR_INTERVAL seconds. A failed drain (the relational store is down) is retried
every interval: the graph write never waits for the store and never fails because of it, and
the mirror catches up when it returns. `drain()` applies what is pending synchronously, for
tests, tools and shutdown.

A space's first use also claims it for this process's relational store (the store's id on
its Space node): drainers apply only the entries of spaces their store claimed (or nobody
did), so two deployments, or two test runs, that share a Neo4j but not a relational store
never take one another's entries. In one deployment every process shares the store, and any
of them may apply any entry.

Audit rows are appended synchronously by the operation that caused them, concurrent ones in
one transaction. If the relational store is down they wait in memory (bounded) and go in, in
order, with the next append.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.graph.driver import GraphDriver
from graphmem.mirror import audit as chain
from graphmem.mirror import keys, outbox
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings

log = logging.getLogger(__name__)

AUDIT_BACKLOG = 10_000
PRUNE_EVERY = 60.0

EraseListener = Callable[[str, frozenset[str]], None]


class Mirror:
    def __init__(self, settings: Settings, graph: GraphDriver, store: RelationalStore) -> None:
        self.settings = settings
        self.graph = graph
        self.store = store
        self._keys_lock = threading.Lock()
        self._signer: keys.Signer | None = None
        self._cipher: FieldCipher | None = None
        self._registered = False
        self._drain_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._dirty: set[str] = set()
        self._seen: set[str] = set()
        self._store_id: str | None = None
        self._everything = False
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # One relational writer at a time in this process (audit appends, mirror applies):
        # SQLite's busy wait sleeps and backs off, a lock hands over at once.
        self._write_lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._backlog: deque[tuple[int, chain.AuditEntry]] = deque()
        self._queued = 0
        self._written = 0
        self.erase_listeners: list[EraseListener] = []
        self.last_error: str | None = None

    # ---- keys ------------------------------------------------------------------------------
    @property
    def signer(self) -> keys.Signer:
        with self._keys_lock:
            if self._signer is None:
                self._signer = keys.signer(self.settings)
            return self._signer

    @property
    def cipher(self) -> FieldCipher:
        with self._keys_lock:
            if self._cipher is None:
                self._cipher = FieldCipher(keys.data_keys(self.settings), self.settings.encrypt,
                                           self.settings.decrypt_cache)
            return self._cipher

    def use_signer(self, signer: keys.Signer) -> None:
        """Sign with `signer` from now on (after `keys.rotate`)."""
        with self._keys_lock:
            self._signer = signer
            self._registered = False

    def ensure_registered(self) -> keys.Signer:
        """The signer, with its public key in the ring (once per process)."""
        signer = self.signer
        if not self._registered:
            keys.register(self.store, signer)
            self._registered = True
        return signer

    def trusted(self) -> dict[str, Ed25519PublicKey]:
        return keys.trusted_keys(self.store, self.ensure_registered().public)

    # ---- the outbox --------------------------------------------------------------------------
    def drain(self, spaces: Iterable[str] | None = None) -> int:
        """Apply the pending outbox entries of `spaces` (None: of every space) now; returns
        how many were applied. Raises when Neo4j or the relational store fails (nothing is
        lost: the entries stay pending)."""
        wanted = None if spaces is None else sorted(set(spaces))
        batch = self.settings.mirror_batch
        with self._drain_lock:
            total = 0
            while True:
                entries = outbox.pending(self.graph, self.store_id, batch, wanted)
                if not entries:
                    return total
                with self._write_lock:
                    applied = outbox.apply(self.store, self.cipher, entries)
                outbox.mark_done(self.graph, [e.id for e in entries])
                self._erased(applied)
                total += len(applied)
                if len(entries) < batch:
                    return total

    def _erased(self, applied: list[outbox.Applied]) -> None:
        """Hard deletes clear the decrypt cache and tell other caches (vectors, queries)."""
        for item in applied:
            if item.entry.kind == "erase":
                self.cipher.clear_cache()
                for listener in self.erase_listeners:
                    listener(item.entry.space, item.erased)

    def notify(self, space: str) -> None:
        """A space was written (or is used for the first time by this process): wake the
        drainer, started on first use, to apply its pending entries."""
        with self._state_lock:
            self._dirty.add(space)
        self._ensure_thread()
        self._wake.set()

    @property
    def store_id(self) -> str:
        if self._store_id is None:
            self._store_id = outbox.store_id(self.store)
        return self._store_id

    def touch(self, space: str) -> None:
        """A space's first use in this process: claim it for this store (see
        cypher/mirror/claim_space.cypher) and drain what a crash left in it. Never raises: a
        store that is down is retried on the next use."""
        if space in self._seen:
            return
        try:
            owner = outbox.claim(self.graph, space, self.store_id)
        except Exception as e:  # noqa: BLE001 - the operation goes on; retried next time
            log.warning("could not claim space %s for the mirror yet: %s", space, e)
            return
        self._seen.add(space)
        if owner != self.store_id:
            log.warning("space %s is mirrored into another relational store (%s): this"
                        " process's mirror leaves its changes to that store", space, owner)
        self.notify(space)

    def start(self) -> None:
        """Server mode: drain every space now (what a crash left behind) and every
        GRAPHMEM_MIRROR_INTERVAL seconds, besides the spaces writes notify."""
        with self._state_lock:
            self._everything = True
        self._ensure_thread()
        self._wake.set()

    def _ensure_thread(self) -> None:
        with self._state_lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="graphmem-mirror",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the drainer after a last drain of what it was told about."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        self._wake.set()
        thread.join(timeout=30)
        self._thread = None
        self._drain_pending_spaces()

    def _drain_pending_spaces(self) -> None:
        with self._state_lock:
            spaces, self._dirty = self._dirty, set()
            everything = self._everything
        try:
            if everything or spaces:
                self.drain(None if everything else spaces)
        except Exception as e:  # noqa: BLE001 - logged; the outbox keeps every entry
            with self._state_lock:
                self._dirty |= spaces  # retried on the next pass
            if str(e) != self.last_error:
                log.warning("mirror drain failed, the outbox keeps the entries (retried every"
                            " %ss): %s", self.settings.mirror_interval, e)
            self.last_error = str(e)
            return
        if self.last_error is not None:
            log.warning("mirror drain works again: the mirror caught up")
        self.last_error = None

    def _run(self) -> None:
        pruned_at = 0.0
        while not self._stop.is_set():
            self._wake.clear()
            self._drain_pending_spaces()
            if (self._everything and self.last_error is None
                    and time.monotonic() - pruned_at > PRUNE_EVERY):
                pruned_at = time.monotonic()
                self._prune()
            self._wake.wait(self.settings.mirror_interval)

    def _prune(self) -> None:
        try:
            outbox.prune(self.graph, self.settings.outbox_keep_seconds)
        except Exception as e:  # noqa: BLE001 - pruning is housekeeping; logged
            log.warning("pruning applied outbox entries failed: %s", e)

    # ---- the audit chain -----------------------------------------------------------------------
    def audit(self, entry: chain.AuditEntry) -> bool:
        """Append a row; returns whether it is in the store. Rows queued by concurrent
        callers go in together, in one transaction (group commit); if the store is down they
        wait in memory, in order, for the next append."""
        with self._queue_lock:
            self._queued += 1
            ticket = self._queued
            if len(self._backlog) >= AUDIT_BACKLOG:
                self._backlog.popleft()
                log.error("audit backlog full (%d rows): the oldest unwritten row is dropped",
                          AUDIT_BACKLOG)
            self._backlog.append((ticket, entry.stamped()))
        with self._write_lock:
            return self._written >= ticket or self._flush_audit()

    def _flush_audit(self) -> bool:
        """Write the backlog (the caller holds _write_lock)."""
        with self._queue_lock:
            batch = list(self._backlog)
        if not batch:
            return True
        try:
            chain.append(self.store, self.ensure_registered(), [e for _, e in batch])
        except Exception as e:  # noqa: BLE001 - never fails the operation being audited
            log.warning("audit append failed; %d row(s) wait in memory: %s", len(batch), e)
            return False
        last = batch[-1][0]
        with self._queue_lock:
            while self._backlog and self._backlog[0][0] <= last:
                self._backlog.popleft()
        self._written = last
        return True

    def verify(self, deep: bool = False) -> chain.ChainReport:
        with self._write_lock:
            self._flush_audit()
        return chain.verify_chain(self.store, self.trusted(), deep=deep)

    def status(self) -> dict[str, Any]:
        pending, oldest = outbox.pending_count(self.graph)
        return {"pending": pending, "oldest_pending": oldest.isoformat() if oldest else None,
                "last_error": self.last_error, "audit_backlog": len(self._backlog)}
