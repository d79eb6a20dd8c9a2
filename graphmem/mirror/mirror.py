"""The long-lived mirror of one Runtime: keys, and one worker that drains the outbox and
appends audit rows.

Audit rows never wait on the relational store in the caller's path: an operation puts its
row on a bounded in-memory queue (`audit`) and returns. The worker writes the queue in call
order, many rows per relational transaction. A full queue makes callers wait (back-pressure)
while the store keeps up; when the store is down, the oldest queued rows are dropped with an
error log instead, so memory stays bounded and the graph goes on.

Writes are not exposed to that loss: an audited call's row is committed with its outbox
entry, in the graph transaction (see `outbox`), and whoever applies the entry appends the row
in the same relational transaction, so it is appended exactly once even if the process dies
right after the commit. The call itself queues only a marker (`mark`) at its place in the
call order; the worker applies the entry there, so rows keep the order of the calls (a
write's row may come earlier than its marker, never before the call began).

The drainer side: a write calls `notify(space)`, which wakes the worker at once, so the
mirror follows within milliseconds; so does a space's first use in this process, which
drains what a crash left there. The server calls `start()`: every space is drained at
start-up and every GRAPHMEM_MIRROR_INTERVAL seconds. A failed pass (the relational store is
down) is retried every interval: the graph write never waits for the store and never fails
because of it, and the mirror catches up when it returns. Each pass reads the pending entries
once, applies them and the queued rows in one relational transaction; a second thread marks
applied entries done in the graph every MARK_EVERY seconds, off the path from a commit to its
apply (a pass skips what it applied and is not marked yet). A write passes `notify` the
entries it committed: when they follow on from the last entry this process applied in the
space (no gap in the space's write counter, so no other writer came between), the pass
applies them without reading the outbox at all.

`flush()` writes everything queued so far (verify, audit listings, attestations and `close`
call it); `drain()` applies what is pending synchronously, for tests, tools and shutdown.

A space's first use also claims it for this process's relational store (the store's id on
its Space node): drainers apply only the entries of spaces their store claimed (or nobody
did), so two deployments, or two test runs, that share a Neo4j but not a relational store
never take one another's entries. In one deployment every process shares the store, and any
of them may apply any entry.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import apply as applying
from graphmem.mirror import audit as chain
from graphmem.mirror import keys
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings

log = logging.getLogger(__name__)

AUDIT_QUEUE = 10_000  # queued rows and write markers held in memory at most
AUDIT_BATCH = 2_000  # queued items written per relational transaction at most
RECENT = 50_000  # event ids this process saw applied, remembered for the markers
MARK_EVERY = 0.25  # seconds: applied entries are marked done in the graph in batches
PRUNE_EVERY = 60.0

EraseListener = Callable[[str, frozenset[str]], None]


@dataclass(frozen=True)
class Marker:
    """A write's place in the call order; its row travels in its outbox entries, named here
    as (space, event id)."""

    events: tuple[tuple[str, str], ...]


Item = chain.AuditEntry | Marker
Step = chain.AuditEntry | list[outbox.OutboxEntry]


class Mirror:
    def __init__(self, settings: Settings, graph: GraphDriver, store: RelationalStore) -> None:
        self.settings = settings
        self.graph = graph
        self.store = store
        self._keys_lock = threading.Lock()
        self._signer: keys.Signer | None = None
        self._cipher: FieldCipher | None = None
        self._registered = False
        self._cycle_lock = threading.Lock()  # one pass at a time: worker, flush, drain
        self._state_lock = threading.Lock()
        self._dirty: set[str] = set()
        self._seen: set[str] = set()
        self._store_id: str | None = None
        self._everything = False
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._queue_cond = threading.Condition()
        self._queue: deque[tuple[int, Item]] = deque()
        self._ticket = 0  # the last ticket handed out
        self._done = 0  # every item up to this ticket is written (or was dropped)
        self._failing = False
        self._dropped = 0
        self._applied: dict[str, None] = {}  # recent applied event ids, oldest first
        self._unmarked: dict[str, None] = {}  # applied, not yet marked done in the graph
        self._fresh: dict[str, list[outbox.OutboxEntry]] = {}  # committed here, as written
        self._last_seq: dict[str, int] = {}  # per space: the last entry applied here
        self._mark_lock = threading.Lock()  # guards _unmarked
        self._marker: threading.Thread | None = None
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

    # ---- the audit queue ------------------------------------------------------------------------
    def audit(self, entry: chain.AuditEntry) -> bool:
        """Queue a row for the chain (in call order) and return at once; True once queued.
        `flush` waits for it."""
        self._enqueue(entry.stamped())
        return True

    def mark(self, events: Sequence[tuple[str, str]]) -> None:
        """A write's place in the call order: its rows are in the outbox entries `events`."""
        if events:
            self._enqueue(Marker(tuple(events)))

    def _enqueue(self, item: Item) -> None:
        with self._queue_cond:
            while len(self._queue) >= AUDIT_QUEUE:
                if self._failing or threading.current_thread() is self._thread:
                    ticket, _ = self._queue.popleft()  # bounded memory while the store is down
                    self._done = max(self._done, ticket)
                    self._dropped += 1
                    if self._dropped % 1000 == 1:
                        log.error("audit queue full (%d) while the relational store fails: %d"
                                  " read/denial row(s) dropped so far (writes keep theirs in"
                                  " the outbox)", AUDIT_QUEUE, self._dropped)
                    continue
                self._ensure_thread()
                self._wake.set()
                self._queue_cond.wait(timeout=1.0)  # back-pressure while the store keeps up
            self._ticket += 1
            self._queue.append((self._ticket, item))
        self._ensure_thread()
        self._wake.set()

    def flush(self) -> None:
        """Write every row queued so far (and apply the entries they wait for); raises when
        the relational store or Neo4j fails (the rows stay queued)."""
        with self._queue_cond:
            target = self._ticket
        while True:
            with self._queue_cond:
                if self._done >= target:
                    return
            self._pass()

    # ---- the outbox ------------------------------------------------------------------------------
    def drain(self, spaces: Iterable[str] | None = None) -> int:
        """Apply the pending outbox entries of `spaces` (None: of every space) now, with the
        queued audit rows; returns how many were applied. Raises when Neo4j or the
        relational store fails (nothing is lost: the entries stay pending)."""
        wanted = None if spaces is None else set(spaces)
        total = 0
        while True:
            applied, more = self._pass(wanted, everything=wanted is None, mark=True)
            total += applied
            if not more:
                return total

    def _pass(self, spaces: set[str] | None = None, everything: bool = False,
              mark: bool = False) -> tuple[int, bool]:
        """One pass: the pending entries of the dirty (and given) spaces and the queued
        items, in one relational transaction. Returns (entries applied, whether more is
        pending). Applied entries are marked done in the graph by another thread every
        MARK_EVERY seconds (`mark`: now, by the caller), off the path from a commit to its
        apply; until then a pass that reads them again skips them."""
        with self._cycle_lock:
            with self._state_lock:
                dirty, self._dirty = self._dirty, set()
                fresh, self._fresh = self._fresh, {}
            try:
                applied, more, stale = self._pass_locked(dirty | (spaces or set()), everything,
                                                         fresh)
                if mark or stale:  # stale: a full read held entries applied but not marked
                    self._mark()
            except BaseException:
                with self._state_lock:
                    self._dirty |= dirty | fresh.keys()  # retried (read) on the next pass
                with self._queue_cond:
                    self._failing = True
                    self._queue_cond.notify_all()  # waiting callers drop instead of waiting
                raise
            self._failing = False
            return applied, more

    def _pass_locked(self, wanted: set[str], everything: bool,
                     fresh: dict[str, list[outbox.OutboxEntry]]) -> tuple[int, bool, bool]:
        served = {space: found for space, found in fresh.items()
                  if space not in wanted and self._follows(space, found)}
        known = {e.id for found in served.values() for e in found}
        wanted |= fresh.keys() - served.keys()  # not known to follow on: read the outbox
        with self._queue_cond:
            t0 = self._ticket
            for _, item in islice(self._queue, AUDIT_BATCH):
                if isinstance(item, Marker) and not self._satisfied(item):
                    wanted.update(space for space, event in item.events if event not in known)
        batch = self.settings.mirror_batch
        while True:
            entries: list[outbox.OutboxEntry] = []
            if everything or wanted:
                entries = outbox.pending(self.graph, self.store_id, batch,
                                         None if everything else sorted(wanted))
            capped = len(entries) >= batch
            read = {e.space for e in entries} if everything else wanted
            entries += [e for space, found in served.items() if space not in read
                        for e in found]
            entries.sort(key=lambda e: (e.space, e.seq or 0, e.created_at, e.id))
            with self._queue_cond:  # read after the entries: every row queued before they
                items = list(islice(self._queue, AUDIT_BATCH + 1))  # committed is among these
            with self._mark_lock:
                todo = [e for e in entries if e.id not in self._unmarked]
            steps, taken, whole = self._plan(todo, items, t0, capped)
            if steps or taken or not capped:
                break
            # The first queued write's entries lie past this read's cap (the read is in
            # space order, the queue in call order): read more, or no pass would progress.
            batch *= 2
        applied = self._write(steps) if steps else []
        self._written(taken)
        for step in steps:
            if isinstance(step, list):
                with self._mark_lock:
                    self._unmarked.update((e.id, None) for e in step)
                for e in step:
                    self._last_seq[e.space] = max(self._last_seq.get(e.space, 0), e.seq or 0)
        return len(applied), capped or not whole, capped and len(todo) < len(entries)

    def _follows(self, space: str, found: list[outbox.OutboxEntry]) -> bool:
        """Whether entries committed by this process continue what it applied last in the
        space without a gap (then the outbox need not be read: nothing else can come
        between); any other writer, or a write without an entry, leaves a gap."""
        last = self._last_seq.get(space)
        if last is None:
            return False
        for seq in sorted({e.seq or 0 for e in found}):
            if seq != last + 1:
                return False
            last = seq
        return True

    def _mark(self) -> None:
        """Mark what this process applied done in the graph (idempotent)."""
        with self._mark_lock:
            ids = list(self._unmarked)
        if ids:
            outbox.mark_done(self.graph, ids)
            with self._mark_lock:
                for event in ids:
                    self._unmarked.pop(event, None)

    def mark_applied(self) -> None:
        """Mark done now what this process applied (a background thread does it every
        MARK_EVERY seconds)."""
        self._mark()

    def _run_marker(self) -> None:
        while not self._stop.wait(MARK_EVERY):
            try:
                self._mark()
            except Exception as e:  # noqa: BLE001 - kept, marked on a later round
                log.warning("marking applied outbox entries done failed (retried): %s", e)

    def _satisfied(self, marker: Marker) -> bool:
        return all(event in self._applied for _, event in marker.events)

    def _plan(self, entries: list[outbox.OutboxEntry], items: list[tuple[int, Item]], t0: int,
              capped: bool) -> tuple[list[Step], int, bool]:
        """The order of one pass: queued rows in call order, each write's entries (and those
        committed before them in the space) at its marker, then the other entries. Stops at
        a marker whose entries were not read yet; then (and when the queue holds more than
        a batch) the other entries wait for the next pass, so no row lands before a row
        that was queued before it."""
        index = {e.id: i for i, e in enumerate(entries)}
        applied = self._applied
        done: set[int] = set()
        steps: list[Step] = []
        taken, whole = 0, len(items) <= AUDIT_BATCH
        for ticket, item in items[:AUDIT_BATCH]:
            if isinstance(item, Marker):
                missing = [e for _, e in item.events if e not in index and e not in applied]
                if missing and (ticket > t0 or capped):
                    whole = False  # committed after the entries were read: next pass
                    break
                due: list[int] = []
                for _, event in item.events:
                    i = index.get(event)
                    while i is not None and i >= 0 and i not in done and (
                            entries[i].space == entries[index[event]].space):
                        due.append(i)
                        done.add(i)
                        i -= 1
                if due:
                    steps.append([entries[i] for i in sorted(due)])
            else:
                steps.append(item)
            taken = ticket
        if whole:
            rest = [e for i, e in enumerate(entries) if i not in done]
            if rest:
                steps.append(rest)
        return steps, taken, whole

    def _write(self, steps: list[Step]) -> list[applying.Applied]:
        """Rows and entries in one relational transaction; each newly applied entry's own
        audit row goes in right after it."""
        signer, cipher = self.ensure_registered(), self.cipher
        now = datetime.now(UTC).isoformat()
        applied: list[applying.Applied] = []
        with self.store.transaction() as cur:
            rows = chain.Appender(cur, self.store.dialect.name, signer)
            for step in steps:
                if isinstance(step, chain.AuditEntry):
                    rows.add(step)
                    continue
                for entry in step:
                    done = applying.apply_one(cur, cipher, entry, now)
                    if done is not None:
                        applied.append(done)
                        row = applying.audit_entry(entry)
                        if row is not None:
                            rows.add(row)
            rows.finish()
        for step in steps:
            if isinstance(step, list):
                self._remember(e.id for e in step)
        self._committed(applied)
        return applied

    def _remember(self, ids: Iterable[str]) -> None:
        for event in ids:
            self._applied[event] = None
        while len(self._applied) > RECENT:
            del self._applied[next(iter(self._applied))]

    def _committed(self, applied: list[applying.Applied]) -> None:
        """After the relational commit (benchmarks time the mirror's lag here)."""
        self._erased(applied)

    def _written(self, taken: int) -> None:
        with self._queue_cond:
            while self._queue and self._queue[0][0] <= taken:
                self._queue.popleft()
            self._done = max(self._done, taken)
            self._queue_cond.notify_all()

    def _erased(self, applied: list[applying.Applied]) -> None:
        """Hard deletes clear the decrypt cache and tell other caches (vectors, queries)."""
        for item in applied:
            if item.entry.kind == "erase":
                self.cipher.clear_cache()
                for listener in self.erase_listeners:
                    listener(item.entry.space, item.erased)

    def notify(self, space: str, entries: Sequence[outbox.OutboxEntry] = ()) -> None:
        """A space was written (or is used for the first time by this process): wake the
        worker, started on first use, to apply its pending entries. A write passes the
        entries it committed, so the worker may apply them without reading the outbox."""
        with self._state_lock:
            if entries:
                self._fresh.setdefault(space, []).extend(entries)
            else:
                self._dirty.add(space)
        self._ensure_thread()
        self._wake.set()

    @property
    def store_id(self) -> str:
        if self._store_id is None:
            self._store_id = applying.store_id(self.store)
        return self._store_id

    def touch(self, space: str) -> None:
        """A space's first use in this process: claim it for this store (see
        cypher/outbox/claim_space.cypher) and drain what a crash left in it. Never raises: a
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
            self._marker = threading.Thread(target=self._run_marker, daemon=True,
                                            name="graphmem-mirror-marks")
            self._marker.start()

    def close(self) -> None:
        """Stop the worker, then write what is queued and apply what it was told about."""
        thread, marker = self._thread, self._marker
        if thread is not None:
            self._stop.set()
            self._wake.set()
            thread.join(timeout=30)
            self._thread = None
        if marker is not None:
            marker.join(timeout=30)
            self._marker = None
        try:
            self.flush()
            self.drain(None if self._everything else [])  # and mark what was applied
        except Exception as e:  # noqa: BLE001 - logged; the outbox keeps every entry
            log.warning("mirror close: %d queued audit row(s) not written, the outbox keeps"
                        " the entries: %s", len(self._queue), e)

    def _run(self) -> None:
        pruned_at = full_at = 0.0
        while not self._stop.is_set():
            self._wake.clear()
            everything = (self._everything
                          and time.monotonic() - full_at >= self.settings.mirror_interval)
            more = self._background_pass(everything)
            if everything and self.last_error is None:
                full_at = time.monotonic()
            if (self._everything and self.last_error is None
                    and time.monotonic() - pruned_at > PRUNE_EVERY):
                pruned_at = time.monotonic()
                self._prune()
            if self.last_error is not None:  # the store is down: retry every interval,
                self._stop.wait(self.settings.mirror_interval)  # not on every queued row
            elif not more:
                self._wake.wait(self.settings.mirror_interval)

    def _background_pass(self, everything: bool) -> bool:
        """One pass of the worker; returns whether more is waiting. Failures are logged and
        retried every interval."""
        try:
            _, more = self._pass(everything=everything)
        except Exception as e:  # noqa: BLE001 - logged; the outbox keeps every entry
            if str(e) != self.last_error:
                log.warning("mirror pass failed, the outbox keeps the entries and audit rows"
                            " wait in memory (retried every %ss): %s",
                            self.settings.mirror_interval, e)
            self.last_error = str(e)
            return False
        if self.last_error is not None:
            log.warning("mirror pass works again: the mirror caught up")
        self.last_error = None
        return more

    def _prune(self) -> None:
        try:
            outbox.prune(self.graph, self.settings.outbox_keep_seconds)
        except Exception as e:  # noqa: BLE001 - pruning is housekeeping; logged
            log.warning("pruning applied outbox entries failed: %s", e)

    # ---- the audit chain -----------------------------------------------------------------------
    def verify(self, deep: bool = False) -> chain.ChainReport:
        """Flush the queue, then check the whole chain."""
        self.flush()
        return chain.verify_chain(self.store, self.trusted(), deep=deep)

    def status(self) -> dict[str, Any]:
        pending, oldest = outbox.pending_count(self.graph)
        return {"pending": pending, "oldest_pending": oldest.isoformat() if oldest else None,
                "last_error": self.last_error, "audit_backlog": len(self._queue),
                "audit_dropped": self._dropped}
