"""The long-lived mirror of one Runtime: keys, and one worker that drains the outbox and
appends audit rows.

It is composed of parts with one job each:

- `keyring`: the signer, the field cipher and the trusted public keys;
- `claims`: the store's identity and its claims on the spaces this process uses;
- `audit_queue`: audit rows and write markers on their way to the chain, in call order,
  bounded, with back-pressure;
- `drain`: one pass that applies outbox entries and writes queued rows in one relational
  transaction, in the order `plan` gives;
- `marks`: entries applied here, marked done in the graph by a thread of their own;
- `worker`: the thread that runs passes when woken, and every interval in server mode.

An operation calls `audit` (a read's or a denial's row) or `mark` (a write's place in the
call order) and returns at once; a write's commit calls `notify` with the entries it
committed, a space's first use calls `touch`. `flush()` writes everything queued so far
(verify, audit listings, attestations and `close` call it); `drain()` applies what is
pending synchronously, for tests, tools and shutdown. Hard deletes, this process's or
another's (`erasures`), clear the decrypt cache and tell the `erase_listeners` (caches of
vectors or queries). The heads this process signs go to the checkpoint file
(`checkpoints`), and `verify` checks the chain against it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.errors import InvalidInput
from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import apply as applying
from graphmem.mirror import audit as chain
from graphmem.mirror import checkpoints, keys, receipts
from graphmem.mirror.audit_queue import AuditQueue, Marker
from graphmem.mirror.checkpoints import CheckpointLog
from graphmem.mirror.claims import Claims
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.drain import Drainer
from graphmem.mirror.erasures import ErasureWatch, Listener
from graphmem.mirror.keyring import Keyring
from graphmem.mirror.marks import Marks
from graphmem.mirror.verify import Anchor, Anchors, verify
from graphmem.mirror.worker import Worker
from graphmem.model.audit import ChainReport
from graphmem.settings import Settings

log = logging.getLogger(__name__)

EraseListener = Listener


class Mirror:
    def __init__(self, settings: Settings, graph: GraphDriver, store: RelationalStore) -> None:
        self.settings = settings
        self.graph = graph
        self.store = store
        self._keyring = Keyring(settings, store)
        self._claims = Claims(graph, store)
        self._marks = Marks(graph)
        self._queue = AuditQueue(self._wake_worker, lambda: self._worker.in_worker())
        self._drainer = Drainer(settings, graph, store, self._keyring, self._claims,
                                self._queue, self._marks, self._committed)
        self.erase_listeners: list[EraseListener] = []
        self.erasures = ErasureWatch(store, lambda: self.cipher, self.erase_listeners,
                                     settings.mirror_interval)
        self.erasures.start()
        self.checkpoints = CheckpointLog(settings, checkpoints.path_for(settings, store.url),
                                         lambda: self.store_id)
        self._worker = Worker(settings, graph, self._drainer, self._marks, self._idle)

    # ---- keys ------------------------------------------------------------------------------
    @property
    def signer(self) -> keys.Signer:
        return self._keyring.signer

    @property
    def cipher(self) -> FieldCipher:
        return self._keyring.cipher

    def use_signer(self, signer: keys.Signer) -> None:
        """Sign with `signer` from now on (after `keys.rotate`)."""
        self._keyring.use_signer(signer)

    def ensure_registered(self) -> keys.Signer:
        """The signer, with its public key in the ring (once per process)."""
        return self._keyring.ensure_registered()

    def trusted(self) -> dict[str, Ed25519PublicKey]:
        return self._keyring.trusted()

    # ---- the audit queue ---------------------------------------------------------------------
    def audit(self, entry: chain.AuditEntry) -> bool:
        """Queue a row for the chain (in call order) and return at once; True once queued.
        `flush` waits for it."""
        self._queue.put(entry.stamped())
        return True

    def mark(self, events: Sequence[tuple[str, str]]) -> None:
        """A write's place in the call order: its rows are in the outbox entries `events`."""
        if events:
            self._queue.put(Marker(tuple(events)))

    def flush(self) -> None:
        """Write every row queued so far (and apply the entries they wait for); raises when
        the relational store or Neo4j fails (the rows stay queued)."""
        self._drainer.flush()

    # ---- the outbox ------------------------------------------------------------------------
    def drain(self, spaces: Iterable[str] | None = None) -> int:
        """Apply the pending outbox entries of `spaces` (None: of every space) now, with the
        queued audit rows; returns how many were applied. Raises when Neo4j or the
        relational store fails (nothing is lost: the entries stay pending)."""
        return self._drainer.drain(spaces)

    def sweep(self) -> int:
        """A server's periodic pass, now: the spaces written here and those whose entries
        waited past GRAPHMEM_OUTBOX_LEASE_SECONDS (their writer is gone), claimed for this
        process; returns how many entries it applied."""
        return self._drainer.sweep()[0]

    def mark_applied(self) -> None:
        """Mark done now what this process applied (a background thread does it every
        MARK_EVERY seconds)."""
        self._marks.mark()

    def notify(self, space: str, entries: Sequence[outbox.OutboxEntry] = ()) -> None:
        """A space was written (or is used for the first time by this process): wake the
        worker, started on first use, to apply its pending entries. A write passes the
        entries it committed, so the worker may apply them without reading the outbox."""
        self._drainer.notify(space, entries)
        self._wake_worker()

    @property
    def store_id(self) -> str:
        return self._claims.store_id

    def touch(self, space: str) -> None:
        """A space's first use in this process: claim it for this store and drain what a
        crash left in it. Never raises: a store that is down is retried on the next use."""
        if self._claims.first_use(space):
            self.notify(space)

    @property
    def last_error(self) -> str | None:
        """Why the worker's last pass failed (None once a pass goes through)."""
        return self._worker.last_error

    # ---- the worker --------------------------------------------------------------------------
    def start(self) -> None:
        """Server mode: drain every space now (what a crash left behind) and every
        GRAPHMEM_MIRROR_INTERVAL seconds, besides the spaces writes notify."""
        self._worker.follow_everything()
        self._wake_worker()

    def close(self) -> None:
        """Stop the worker, then write what is queued and apply what it was told about; the
        last head this process signed goes to the checkpoint file."""
        self._worker.stop()
        try:
            self.flush()
            self.drain(None if self._worker.everything else [])  # and mark what was applied
        except Exception as e:  # noqa: BLE001 - logged; the outbox keeps every entry
            log.warning("mirror close: %d queued audit row(s) not written, the outbox keeps"
                        " the entries: %s", self._queue.backlog, e)
        self.checkpoints.flush()

    def _wake_worker(self) -> None:
        self._ensure_thread()
        self._worker.wake()

    def _ensure_thread(self) -> None:
        """Start the worker (and the marks' thread) unless it runs; every start goes through
        here, so a process that must not apply anything (a tool, a test) replaces it."""
        self._worker.ensure_thread()

    def _committed(self, applied: list[applying.Applied], head: chain.SignedHead | None
                   ) -> None:
        """After each relational commit of a pass (benchmarks time the mirror's lag here):
        hard deletes clear the decrypt cache and tell other caches (vectors, queries); the
        head goes to the checkpoint file when due."""
        for item in applied:
            if item.entry.kind == "erase":
                self.erasures.erased(item.entry.space, item.erased)
        self.checkpoints.note(head)

    def _idle(self) -> None:
        """Every worker interval: the checkpoint file's time rule, other processes'
        erasures."""
        self.checkpoints.tick()
        self.erasures.poll()

    # ---- the audit chain ---------------------------------------------------------------------
    def verify(self, deep: bool = False, tenant: str | None = None,
               receipt: dict[str, Any] | None = None,
               checkpoint_file: Path | None = None) -> ChainReport:
        """Flush the queue, then check the whole chain against its anchors: the checkpoint
        file (`checkpoint_file`: a copy kept elsewhere) and the head `receipt` saw. For one
        `tenant`, deep checks its rows' signatures and other problems are counted only. A
        chain found intact has its head written to the checkpoint file."""
        self.flush()
        trusted = self.trusted()
        heads: list[Anchor] = []
        if receipt is not None:
            found = receipts.anchor(receipt, trusted)
            if isinstance(found, str):
                raise InvalidInput(found)
            heads.append(found)
        lines, problems = checkpoints.load(checkpoint_file or self.checkpoints.path)
        anchors = Anchors(lines, self.store_id, heads, problems)
        report = verify(self.store, trusted, deep=deep, tenant=tenant, anchors=anchors)
        if report.ok and tenant is None:
            self._anchor_verified()
        return report

    def _anchor_verified(self) -> None:
        found = chain.signed_head(self.store)
        if found is not None and found[3]:
            self.checkpoints.write(chain.SignedHead(int(found[0]), str(found[1]),
                                                    str(found[2]), str(found[3]),
                                                    str(found[4])))

    def status(self) -> dict[str, Any]:
        pending, oldest = outbox.pending_count(self.graph)
        return {"pending": pending, "oldest_pending": oldest.isoformat() if oldest else None,
                "last_error": self.last_error, "audit_backlog": self._queue.backlog,
                "audit_dropped": self._queue.dropped}
