"""Fact embedding, off the write path.

A write commits its facts (with their search text, so full-text finds them at once) and hands
their ids to this worker; a daemon thread embeds whatever has queued up, many writes of any
spaces per model call and per storing transaction, and stores the vectors (it lets writes queue
for up to LINGER seconds first, unless a read waits). The write does not wait for the model, so
its latency is the graph's alone.

Reads that rank by vector (`recall`, the extractor's context) call `wait(space)` first: it
returns once everything queued for that space before the call is stored (or after a bounded
wait, GRAPHMEM_EMBED_WAIT seconds; the facts still waiting are then found by full-text only,
and the log says so). So a process reads its own writes ranked as usual.

The queue is bounded (GRAPHMEM_EMBED_MAX_BACKLOG fact ids): past it, a write still succeeds
and its facts keep full-text search; they are deferred, counted in the backlog, and the
space is backfilled from the graph once the queue has drained to half the bound.

A crash can leave committed facts without vectors. The first time this worker sees a space it
also queues the space's facts that have search text but no vector (the embedder was down, or
the process died), so they catch up in the background.

Closing (`close()`, or interpreter exit for a process that never closes) embeds what is queued,
waiting at most CLOSE_WAIT seconds; what is left keeps full-text search, is counted in one
INFO line, and is embedded by the next process that writes to its space. The exit hook runs
at the very start of interpreter shutdown (a threading exit hook, before the executors of
`concurrent.futures` stop), so a model still loading when a short script ends finishes
loading instead of failing half-imported.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NamedTuple, Protocol, TypeVar

from neo4j.exceptions import DriverError, Neo4jError

from graphmem.embeddings import prepare_background_load
from graphmem.errors import GraphMemError
from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.outage_log import OUTAGES
from graphmem.recall.vectors import Batch, Prepared

log = logging.getLogger(__name__)

# Texts per model call: one call covers any remember(text) (a message yields a few facts), and
# a query, which waits for the call in progress (~5 ms a text on one thread), waits < 1 s.
BATCH = 128
# Seconds the first queued write waits for more to share its model call and its transaction
# (unless a reader waits, or a batch is full): with writes every few milliseconds, one store
# per write cost the writer's core as much CPU as the write itself.
LINGER = 0.05
BACKFILL_PAGE = 10_000
MAX_BACKLOG = 100_000  # fact ids queued at most (GRAPHMEM_EMBED_MAX_BACKLOG)
CLOSE_WAIT = 60.0  # seconds closing waits for queued embeddings (a first model load included)
JOIN_WAIT = 30.0  # then for the model call in progress, so torch is idle when Python exits

Store = Callable[[Batch], dict[str, int]]  # how many got a vector, per space
T = TypeVar("T")


class Stages(Protocol):
    """A store taken in two halves, so that one chunk is stored while the next is embedded
    (the model and Neo4j's vector index each take a core)."""

    def prepare(self, batch: Batch) -> Prepared | None: ...

    def write(self, prepared: Prepared) -> dict[str, int]: ...


class EmbedWorker:
    """One per Runtime; `submit` never blocks on the model."""

    def __init__(self, graph: GraphDriver, store: Store, wait_seconds: float = 5.0,
                 batch: int = BATCH, linger: float = LINGER,
                 max_backlog: int = MAX_BACKLOG, stages: Stages | None = None) -> None:
        self.graph = graph
        self._stages = stages
        self._writer: ThreadPoolExecutor | None = None  # stores one chunk as the next embeds
        self.max_backlog = max_backlog
        self._queued = 0  # fact ids in the queue
        self._deferred: dict[str, int] = {}  # space -> fact ids left to its backfill (full)
        self._store = store
        self.wait_seconds = wait_seconds
        self.batch = batch
        self.linger = linger
        self._waiting = 0  # readers (wait, flush) blocked on the worker: it stops lingering
        self._queue: deque[_Item] = deque()
        self._cond = threading.Condition()
        self._submitted = 0  # tickets handed out
        self._done = 0  # every ticket up to this one is stored (or given up on)
        self._pending: dict[str, int] = {}  # space -> its newest ticket still queued
        self._seen: set[str] = set()
        self._missed: set[str] = set()  # spaces with facts left unembedded (embedder down)
        self._closed = False
        self._stopped = False  # the thread has returned
        self._left: set[str] = set()  # fact ids closing left to the backfill
        self._thread: threading.Thread | None = None
        self.embedded = 0

    def submit(self, space: str, fact_ids: Sequence[str]) -> int:
        """Queue facts for embedding; returns a ticket that `wait` can be given."""
        ids = list(fact_ids)
        with self._cond:
            if self._closed:
                raise GraphMemError("the embedding worker is closed")
            if space not in self._seen:
                self._seen.add(space)
                self._enqueue(space, [], backfill=True)
            if ids and self._queued + len(ids) > self.max_backlog:
                self._deferred[space] = self._deferred.get(space, 0) + len(ids)
                ids = []
            ticket = self._enqueue(space, ids) if ids else self._pending.get(space, self._done)
            self._start()
            return ticket

    def deferred(self) -> int:
        """Fact ids left to a backfill because the queue was full when they came."""
        with self._cond:
            return sum(self._deferred.values())

    def backlog(self) -> int:
        """Fact ids waiting for their vectors: queued and not yet taken by the thread, and
        deferred to a backfill while the queue was full."""
        with self._cond:
            return self._queued + sum(self._deferred.values())

    def wait(self, space: str, timeout: float | None = None) -> bool:
        """Block until what was queued for `space` so far is stored; False on timeout."""
        limit = self.wait_seconds if timeout is None else timeout
        with self._cond:
            ticket = self._pending.get(space)
            if ticket is None or self._done >= ticket:
                return True
            deadline = time.monotonic() + limit
            self._waiting += 1
            self._cond.notify_all()
            try:
                while self._done < ticket:
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._running():
                        log.warning("facts of space %s are still being embedded after %.1f s;"
                                    " this read ranks them by full-text only", space, limit)
                        return False
                    self._cond.wait(left)
            finally:
                self._waiting -= 1
            return True

    def flush(self, timeout: float | None = None) -> bool:
        """Block until everything queued so far is stored; False on timeout, or when the
        worker has stopped with work left."""
        with self._cond:
            ticket = self._submitted
            deadline = None if timeout is None else time.monotonic() + timeout
            self._waiting += 1
            self._cond.notify_all()
            try:
                while self._done < ticket and self._running():
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    self._cond.wait(left)
            finally:
                self._waiting -= 1
            return self._done >= ticket

    def close(self, timeout: float | None = CLOSE_WAIT) -> None:
        """Embed what is queued (at most `timeout` seconds), then stop. What is left keeps
        its full-text search and is embedded by the next process that writes to its space;
        one INFO line counts it. Closing twice is harmless."""
        with self._cond:
            if self._closed:
                return
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:  # it finishes the model call in progress (torch must not be
            thread.join(timeout=JOIN_WAIT)  # running when the interpreter shuts down)
        if self._writer is not None:
            self._writer.shutdown(wait=True)
        with self._cond:
            left = self._left.union(*(item.ids for item in self._queue))
            self._queue.clear()
            self._queued = 0
        if left:
            log.info("closing before %d queued fact(s) were embedded: they keep full-text"
                     " search and get their vectors when a process next writes to their"
                     " space", len(left))

    def _running(self) -> bool:
        return self._thread is not None and not self._stopped

    # ---- the thread --------------------------------------------------------------------------
    def _enqueue(self, space: str, ids: list[str], backfill: bool = False) -> int:
        """Readers wait for writes only: a backfill gets a ticket but no pending mark."""
        self._submitted += 1
        ticket = self._submitted
        self._queued += len(ids)
        self._queue.append(_Item(ticket, space, ids, backfill))
        if not backfill:
            self._pending[space] = ticket
        self._cond.notify_all()
        return ticket

    def _start(self) -> None:
        if self._thread is None:
            prepare_background_load()
            _at_exit(self)  # a process that never closes still embeds its writes
            self._thread = threading.Thread(target=self._run, name="graphmem-embed",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            with self._cond:
                self._stopped = True
                self._cond.notify_all()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                self._linger()
                if self._closed:  # close() counts what is left for the backfill
                    return
                work = list(self._queue)
                self._queue.clear()
                self._queued = 0
            grouped = _by_space([w for w in work if not w.backfill])
            self._embed(grouped)
            tried = {space: set(ids) for space, ids in grouped}
            for item in work:
                if item.backfill:
                    self._backfill(item.space, tried.get(item.space, set()))
            with self._cond:
                self._done = max(self._done, work[-1].ticket)
                for space, ticket in list(self._pending.items()):
                    if ticket <= self._done:
                        del self._pending[space]
                self._resume_deferred()
                self._cond.notify_all()

    def _resume_deferred(self) -> None:
        """(Holding the condition.) Once the queue is down to half its bound, the spaces
        whose facts were deferred are backfilled from the graph."""
        if self._deferred and not self._closed and self._queued <= self.max_backlog // 2:
            for space in sorted(self._deferred):
                self._enqueue(space, [], backfill=True)
            self._deferred.clear()

    def _linger(self) -> None:
        """(Holding the condition.) Let more writes queue up, for at most `linger` seconds:
        until a batch is full, a reader waits, or the worker closes."""
        deadline = time.monotonic() + self.linger
        while not self._closed and not self._waiting:
            left = deadline - time.monotonic()
            if left <= 0 or self._queued >= self.batch:
                return
            self._cond.wait(left)

    def _embed(self, grouped: Batch) -> int:
        """Chunk by chunk of at most `batch` facts, spaces sharing a chunk; with `stages`, a
        chunk is stored while the next one is embedded, and every store has ended when this
        returns. Closing stops it between chunks (the rest is backfilled later)."""
        stored = 0
        chunks = chunked(grouped, self.batch)
        writing: tuple[Batch, Future[dict[str, int]]] | None = None
        try:
            for n, chunk in enumerate(chunks):
                if self._closed:
                    with self._cond:
                        self._left.update(i for rest in chunks[n:] for _, ids in rest
                                          for i in ids)
                    break
                stages = self._stages
                if stages is None:
                    stored += self._account(chunk, self._guarded(chunk, self._store))
                    continue
                prepared = self._guarded(chunk, stages.prepare)
                if writing is not None:
                    stored += self._account(writing[0], self._guarded(writing[0], writing[1]))
                    writing = None
                if prepared is None:
                    stored += self._account(chunk, {})
                else:
                    writing = (chunk, self._write_pool().submit(stages.write, prepared))
        finally:
            if writing is not None:
                stored += self._account(writing[0], self._guarded(writing[0], writing[1]))
        return stored

    def _guarded(self, chunk: Batch, step: Callable[[Batch], T] | Future[T]) -> T | None:
        """A step's result, or None when it raised (logged: the thread outlives it)."""
        try:
            return step.result() if isinstance(step, Future) else step(chunk)
        except Exception as e:  # noqa: BLE001 - the thread must outlive any one failure
            if not OUTAGES.noted(e, "embedding"):
                log.exception("embedding %d fact(s) of %d space(s) failed",
                              sum(len(ids) for _, ids in chunk), len(chunk))
            return None

    def _account(self, chunk: Batch, done: dict[str, int] | None) -> int:
        """Count what a chunk stored; a space any of whose facts went without a vector is
        backfilled once the embedder works again."""
        done = done or {}
        missed = [space for space, ids in chunk if done.get(space, 0) < len(ids)]
        self._missed.update(missed)
        if not missed and self._missed and any(done.values()):
            self._recovered()
        self.embedded += sum(done.values())
        return sum(done.values())

    def _write_pool(self) -> ThreadPoolExecutor:
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="graphmem-embed-store")
        return self._writer

    def _recovered(self) -> None:
        """The embedder works again: the spaces whose facts it missed are backfilled now,
        not at the next process's first write."""
        with self._cond:
            for space in sorted(self._missed):
                if not self._closed:
                    self._enqueue(space, [], backfill=True)
            self._missed.clear()

    def _backfill(self, space: str, tried: set[str]) -> None:
        """Facts left without a vector (not those just tried); another page follows while
        the embedder keeps up."""
        found = self._unembedded(space)
        ids = [i for i in found if i not in tried]
        if self._embed([(space, ids)]) and len(found) == BACKFILL_PAGE:
            with self._cond:
                if not self._closed:
                    self._enqueue(space, [], backfill=True)

    def _unembedded(self, space: str) -> list[str]:
        try:
            rows = recall.unembedded(self.graph, space, BACKFILL_PAGE)
        except (GraphMemError, Neo4jError, DriverError) as e:
            if not OUTAGES.noted(e, "embedding: looking for facts lacking vectors"):
                log.error("could not look for facts of space %s lacking vectors: %s", space, e)
            return []
        if rows:
            log.info("space %s: %d fact(s) lack a vector; embedding them", space, len(rows))
        return [r["id"] for r in rows]


def _at_exit(worker: EmbedWorker) -> None:
    """Close `worker` when the interpreter exits, without keeping it alive until then.

    A threading exit hook runs first in interpreter shutdown, while imports and the
    `concurrent.futures` executors (both used by a model load) still work; `atexit` is the
    fallback where that hook is missing or shutdown has already begun.
    """
    ref = weakref.ref(worker)

    def close() -> None:
        alive = ref()
        if alive is not None:
            alive.close()

    register = getattr(threading, "_register_atexit", None)
    try:
        if register is None:
            raise RuntimeError("no threading exit hook")
        register(close)
    except RuntimeError:
        atexit.register(close)


class _Item(NamedTuple):
    ticket: int
    space: str
    ids: list[str]
    backfill: bool


def chunked(grouped: Batch, size: int) -> list[Batch]:
    """The spaces' ids cut into chunks of at most `size` ids, in order; a space may straddle
    two chunks."""
    chunks: list[Batch] = []
    current: Batch = []
    room = size
    for space, ids in grouped:
        start = 0
        while start < len(ids):
            if room == 0:
                chunks.append(current)
                current, room = [], size
            part = ids[start:start + room]
            current.append((space, part))
            start += len(part)
            room -= len(part)
    if current:
        chunks.append(current)
    return chunks


def _by_space(work: list[_Item]) -> Batch:
    """Queued ids grouped per space in first-queued order, duplicates dropped."""
    grouped: dict[str, dict[str, None]] = {}
    for _, space, ids, _ in work:
        bucket = grouped.setdefault(space, {})
        for i in ids:
            bucket.setdefault(i, None)
    return [(space, list(ids)) for space, ids in grouped.items()]
