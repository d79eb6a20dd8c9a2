"""Fact embedding in a process of its own (GRAPHMEM_EMBED_PROCESS=on).

The background worker (embed_worker.py) hands each batch of fact ids to a child process that
reads the facts' texts, runs the model and stores the vectors with a driver of its own. Neither
the model's tokenisation nor packing hundreds of floats per fact into Bolt messages then holds
the interpreter lock of the process that serves requests: the worker thread only waits on a
pipe. The child starts with the first batch, and again after it died; the batch it died on is
left without vectors, as when the embedder is down, and the backfill embeds it later.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import threading
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess

from graphmem.recall.vectors import Batch
from graphmem.settings import Settings

log = logging.getLogger(__name__)

STOP_WAIT = 30.0  # seconds a closing child gets to finish its batch and close its clients


class EmbedProcess:
    """A child process that embeds and stores; `store_batch` has VectorIndex.store_batch's
    contract."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._proc: SpawnProcess | None = None
        self._conn: Connection | None = None

    def store_batch(self, batch: Batch) -> dict[str, int]:
        """Embed and store the facts in the child; how many got a vector, per space. Never
        raises."""
        if not any(ids for _, ids in batch):
            return {}
        with self._lock:
            try:
                conn = self._connection()
                conn.send(batch)
                return dict(conn.recv())
            except (EOFError, OSError) as e:
                log.error("the embedding process stopped (%s); %d fact(s) are left to the"
                          " backfill", e or type(e).__name__, sum(len(i) for _, i in batch))
                self._stop()
                return {}

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.is_alive() else None

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _connection(self) -> Connection:
        if self._proc is None or not self._proc.is_alive() or self._conn is None:
            self._stop()
            ctx = mp.get_context("spawn")
            ours, theirs = ctx.Pipe()
            self._proc = ctx.Process(target=serve, args=(self.settings, theirs),
                                     name="graphmem-embed", daemon=True)
            self._proc.start()
            theirs.close()
            self._conn = ours
        return self._conn

    def _stop(self) -> None:
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if conn is not None:
            try:
                conn.send(None)
            except OSError:
                pass
            conn.close()
        if proc is not None:
            proc.join(STOP_WAIT)
            if proc.is_alive():
                proc.kill()
                proc.join()


def serve(settings: Settings, conn: Connection) -> None:
    """The child: a batch of (space, ids) in, how many got a vector per space out, until None
    or the pipe closes."""
    from graphmem.embeddings import build_embeddings
    from graphmem.graph.driver import GraphDriver
    from graphmem.recall.vectors import VectorIndex

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    graph = GraphDriver(settings)
    embedder = build_embeddings(settings)
    vectors = VectorIndex(graph, lambda: embedder)
    try:
        while True:
            try:
                batch = conn.recv()
            except EOFError:
                return
            if batch is None:
                return
            conn.send(vectors.store_batch(batch))
    finally:
        embedder.close()
        graph.close()
