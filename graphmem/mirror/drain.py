"""One pass of the mirror: outbox entries and queued audit rows into the relational store.

Each pass reads the pending entries of the spaces it was told about once, and applies them
with the queued rows in one relational transaction, in the order `plan` gives. Writes are
not exposed to the loss of queued rows: an audited call's row is committed with its outbox
entry, in the graph transaction (see `graph.outbox`), and the pass that applies the entry
appends the row in the same relational transaction, so it is appended exactly once even if
the process dies right after the commit.

A write passes `notify` the entries it committed; when they follow on from the last entry
this process applied in the space, the pass applies them as they are, without reading the
outbox. Applied entries are marked done in the graph later (`marks`), and a pass skips what
it applied and is not marked yet.

`flush` writes everything queued so far; `drain` applies what is pending, for tests, tools
and shutdown. One pass runs at a time, whoever calls it (the worker, flush, drain).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime

from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import apply as applying
from graphmem.mirror import audit as chain
from graphmem.mirror.audit_queue import AuditQueue
from graphmem.mirror.claims import Claims
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.keyring import Keyring
from graphmem.mirror.marks import Marks
from graphmem.mirror.plan import AUDIT_BATCH, Step, follow_on, plan, unread
from graphmem.settings import Settings

RECENT = 50_000  # event ids this process saw applied, remembered for the markers

Committed = Callable[[list[applying.Applied], chain.SignedHead | None], None]


class Drainer:
    """The spaces to read, the entries committed here, and the passes over them. `committed`
    hears of what each pass applied and the head it signed, right after its relational
    commit."""

    def __init__(self, settings: Settings, graph: GraphDriver, store: RelationalStore,
                 keyring: Keyring, claims: Claims, queue: AuditQueue, marks: Marks,
                 committed: Committed) -> None:
        self._settings = settings
        self._graph = graph
        self._store = store
        self._keyring = keyring
        self._claims = claims
        self._queue = queue
        self._marks = marks
        self._committed = committed
        self._cycle_lock = threading.Lock()  # one pass at a time: worker, flush, drain
        self._lock = threading.Lock()  # guards _dirty and _fresh
        self._dirty: set[str] = set()
        self._fresh: dict[str, list[outbox.OutboxEntry]] = {}  # committed here, as written
        self._last_seq: dict[str, int] = {}  # per space: the last entry applied here
        self._applied: dict[str, None] = {}  # recent applied event ids, oldest first

    def notify(self, space: str, entries: Sequence[outbox.OutboxEntry] = ()) -> None:
        """The next pass applies `space`'s pending entries: `entries` as committed here, or
        (none given) what it reads from the outbox."""
        with self._lock:
            if entries:
                self._fresh.setdefault(space, []).extend(entries)
            else:
                self._dirty.add(space)

    def flush(self) -> None:
        """Write every row queued so far (and apply the entries they wait for); raises when
        the relational store or Neo4j fails (the rows stay queued)."""
        target = self._queue.last_ticket()
        while not self._queue.written_through(target):
            self.one_pass()

    def drain(self, spaces: Iterable[str] | None = None) -> int:
        """Apply the pending outbox entries of `spaces` (None: of every space) now, with the
        queued audit rows; returns how many were applied. Raises when Neo4j or the
        relational store fails (nothing is lost: the entries stay pending)."""
        wanted = None if spaces is None else set(spaces)
        total = 0
        while True:
            applied, more = self.one_pass(wanted, everything=wanted is None, mark=True)
            total += applied
            if not more:
                return total

    def sweep(self) -> tuple[int, bool]:
        """A server's periodic pass: the spaces written here, and those whose entries waited
        past the lease (claimed for this process; their writer is gone)."""
        stale = set(self._claims.stale_spaces(self._settings.outbox_lease_seconds))
        return self.one_pass(stale)

    def one_pass(self, spaces: set[str] | None = None, everything: bool = False,
                 mark: bool = False) -> tuple[int, bool]:
        """One pass: the pending entries of the notified (and given) spaces and the queued
        items, in one relational transaction. Returns (entries applied, whether more is
        pending). Applied entries are marked done in the graph by the marks' thread
        (`mark`: now, by the caller); until then a pass that reads them again skips them."""
        with self._cycle_lock:
            with self._lock:
                dirty, self._dirty = self._dirty, set()
                fresh, self._fresh = self._fresh, {}
            try:
                applied, more, stale = self._pass_locked(dirty | (spaces or set()), everything,
                                                         fresh)
                if mark or stale:  # stale: a full read held entries applied but not marked
                    self._marks.mark()
            except BaseException:
                with self._lock:
                    self._dirty |= dirty | fresh.keys()  # retried (read) on the next pass
                self._queue.store_failed()
                raise
            self._queue.store_works()
            return applied, more

    def _pass_locked(self, wanted: set[str], everything: bool,
                     fresh: dict[str, list[outbox.OutboxEntry]]) -> tuple[int, bool, bool]:
        served = follow_on(fresh, wanted, self._last_seq)
        known = {e.id for found in served.values() for e in found}
        wanted |= fresh.keys() - served.keys()  # not known to follow on: read the outbox
        t0, queued = self._queue.snapshot(AUDIT_BATCH)
        wanted |= unread(queued, self._applied, known)
        batch = self._settings.mirror_batch
        while True:
            entries, capped = self._read(wanted, everything, served, batch)
            # read after the entries: every row queued before they committed is among these
            items = self._queue.peek(AUDIT_BATCH + 1)
            todo = self._marks.unmarked(entries)
            steps, taken, whole = plan(todo, items, t0, capped, self._applied)
            if steps or taken or not capped:
                break
            # The first queued write's entries lie past this read's cap (the read is in
            # space order, the queue in call order): read more, or no pass would progress.
            batch *= 2
        applied = self._write(steps) if steps else []
        self._queue.written(taken)
        for step in steps:
            if isinstance(step, list):
                self._marks.add(e.id for e in step)
                for e in step:
                    self._last_seq[e.space] = max(self._last_seq.get(e.space, 0), e.seq or 0)
        return len(applied), capped or not whole, capped and len(todo) < len(entries)

    def _read(self, wanted: set[str], everything: bool,
              served: Mapping[str, list[outbox.OutboxEntry]], limit: int
              ) -> tuple[list[outbox.OutboxEntry], bool]:
        """The pending entries of `wanted` (or of every space) up to `limit`, with the
        entries `served` as committed here, in space and commit order; and whether the read
        reached its limit."""
        entries: list[outbox.OutboxEntry] = []
        if everything or wanted:
            entries = outbox.pending(self._graph, self._claims.store_id, limit,
                                     None if everything else sorted(wanted))
        capped = len(entries) >= limit
        read = {e.space for e in entries} if everything else wanted
        entries += [e for space, found in served.items() if space not in read for e in found]
        entries.sort(key=lambda e: (e.space, e.seq or 0, e.created_at, e.id))
        return entries, capped

    def _write(self, steps: list[Step]) -> list[applying.Applied]:
        """Rows and entries in one relational transaction; each newly applied entry's audit
        row (the call's, or the system's) goes in right after it."""
        signer, cipher = self._keyring.ensure_registered(), self._keyring.cipher
        now = datetime.now(UTC).isoformat()
        applied: list[applying.Applied] = []
        with self._store.transaction() as cur:
            rows = chain.Appender(cur, self._store.dialect.name, signer)
            for step in steps:
                if isinstance(step, chain.AuditEntry):
                    rows.add(step)
                    continue
                for entry in step:
                    done = applying.apply_one(cur, cipher, entry, now)
                    if done is not None:
                        applied.append(done)
                        rows.add(applying.audit_entry(done))
            head = rows.finish()
        for step in steps:
            if isinstance(step, list):
                self._remember(e.id for e in step)
        self._committed(applied, head)
        return applied

    def _remember(self, ids: Iterable[str]) -> None:
        for event in ids:
            self._applied[event] = None
        while len(self._applied) > RECENT:
            del self._applied[next(iter(self._applied))]
