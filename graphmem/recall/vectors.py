"""Fact vectors: stored on FactVector nodes under the `fact_vector` index, checked against it.

A fact's vector lives on a node of its own that names the fact by id, so storing it locks
nothing a writer locks (see cypher/recall/set_embeddings): no write waits for vectors.
Written after each write's transaction, by the background worker (embed_worker.py) or, with
GRAPHMEM_EMBED_BACKGROUND=off, inside the write call. The embedder being
down never fails a write: the facts stay without a vector, are still found by full-text,
and the log says so.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from neo4j.exceptions import DriverError, Neo4jError

from graphmem.embeddings import EmbedderUnavailable, Embeddings, Vector
from graphmem.errors import ConfigError, GraphMemError
from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.model import Action, Result
from graphmem.outage_log import OUTAGES
from graphmem.recall.text import fact_text
from graphmem.recall.vector_cache import VectorCache

log = logging.getLogger(__name__)

INDEX = "fact_vector"
Batch = list[tuple[str, list[str]]]  # (space, fact ids) pairs, embedded together
STORE_ATTEMPTS = 4  # a transient failure (a lock timeout, a restart) is retried this often
RETRY_PAUSE = 0.2  # seconds before the first retry, doubled each time
QUIET_SECONDS = 60.0  # while the embedder stays down, one log line per this many seconds
# Results whose fact_id names a fact this write created or changed (a tombstone included).
_WRITTEN = frozenset({Action.ADD, Action.SUPERSEDE, Action.COEXIST, Action.FLAG,
                      Action.ARCHIVE, Action.REFINE, Action.RETRACT})


@dataclass(frozen=True)
class Prepared:
    """Embedded facts ready to store: set_embeddings' rows by space, and how many of them
    carry a vector, per space."""

    spaces: list[dict[str, Any]]
    stored: dict[str, int]


class DimensionMismatch(GraphMemError):
    """The embedder's vectors do not fit the vector index."""


def written_ids(results: Iterable[Result]) -> list[str]:
    seen: dict[str, None] = {}
    for r in results:
        if r.fact_id and r.action in _WRITTEN:
            seen.setdefault(r.fact_id, None)
    return list(seen)


class Outage:
    """Logs an embedder outage once, then a count per QUIET_SECONDS while it lasts, and its
    end: with the background worker a dead embedder fails on every write, and a line per
    write buried the log."""

    def __init__(self, quiet: float = QUIET_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.clock = clock
        self._since: float | None = None  # when the current outage was last reported
        self._unreported = 0
        self._lock = threading.Lock()

    def failed(self, count: int, error: Exception) -> None:
        with self._lock:
            now = self.clock()
            if self._since is None:
                self._since = now
                log.warning("embedder unavailable, %d fact(s) stored without vectors (still"
                            " found by full-text): %s", count, error)
                return
            self._unreported += count
            if now - self._since < self.quiet:
                return
            log.warning("embedder still unavailable: %d more fact(s) stored without vectors"
                        " in the last %.0f s: %s", self._unreported, now - self._since, error)
            self._since, self._unreported = now, 0

    def worked(self) -> None:
        if self._since is None:  # the common case, without the lock
            return
        with self._lock:
            if self._since is not None:
                log.warning("embedder available again (%d more fact embedding(s) failed"
                            " since the last report)", self._unreported)
                self._since, self._unreported = None, 0


class VectorIndex:
    """The vector side of retrieval for one Runtime: the embedder and the index it feeds."""

    def __init__(self, graph: GraphDriver, embedder: Callable[[], Embeddings],
                 cache_budget: int = 0) -> None:
        self.graph = graph
        self._embedder = embedder
        self.cache = VectorCache(graph, cache_budget)
        self._dimensions: int | None = None
        self._lock = threading.Lock()
        self.outage = Outage()

    @property
    def embeddings(self) -> Embeddings:
        return self._embedder()

    def dimensions(self) -> int:
        """The index's dimensions, read once; a missing index means an old schema."""
        with self._lock:
            if self._dimensions is None:
                options = recall.vector_index(self.graph)
                if options is None:
                    raise DimensionMismatch(f"no {INDEX} vector index: run `graphmem migrate up`")
                config = options["indexConfig"]
                self._dimensions = int(config["vector.dimensions"])
            return self._dimensions

    def check(self, vector: Vector) -> Vector:
        expected = self.dimensions()
        if len(vector) != expected:
            raise DimensionMismatch(
                f"the embedder ({self.embeddings.name}) gives {len(vector)} dimensions but the"
                f" {INDEX} index holds {expected}")
        return vector

    def query_vector(self, text: str) -> Vector:
        """The question's vector (cached by exact text); raises when it cannot be used."""
        try:
            return self.check(self.embeddings.query(text))
        except ConfigError as e:
            raise EmbedderUnavailable(str(e)) from e

    def store(self, space: str, fact_ids: list[str]) -> int:
        """Embed the given facts of one space and store their vectors; how many got one."""
        return self.store_batch([(space, fact_ids)]).get(space, 0)

    def store_batch(self, batch: Batch) -> dict[str, int]:
        """Embed the facts of one or more spaces in one model call and store their vectors
        in one transaction; how many got a vector, per space. Never raises: a failure is
        logged and the facts keep full-text only."""
        prepared = self.prepare(batch)
        return self.write(prepared) if prepared is not None else {}

    def prepare(self, batch: Batch) -> Prepared | None:
        """The first half of `store_batch`: the facts' texts read and embedded (None when
        nothing is left to store, or on a failure, which is logged)."""
        items = [{"space": space, "id": i} for space, ids in batch for i in ids]
        if not items:
            return None
        try:
            rows = recall.embed_targets(self.graph, items)
            if not rows:  # erased since they were queued: do not bring the space back
                return None
            vectors = self._vectors([fact_text(r["subject"], r["value"], r["scope"])
                                     for r in rows])
        except (GraphMemError, Neo4jError, DriverError) as e:
            if not OUTAGES.noted(e, "embedding: reading facts to index"):
                log.error("stored %d fact(s) but could not index them for retrieval: %s",
                          len(items), e)
            return None
        by_space: dict[str, list[dict[str, object]]] = {}
        stored: dict[str, int] = {}
        for r, v in zip(rows, vectors, strict=True):
            by_space.setdefault(r["space"], []).append({"id": r["id"], "vector": v})
            if v is not None:
                stored[r["space"]] = stored.get(r["space"], 0) + 1
        return Prepared([{"key": key, "rows": by_space[key]} for key in sorted(by_space)],
                        stored)

    def write(self, prepared: Prepared) -> dict[str, int]:
        """The second half of `store_batch`: the vectors stored; how many, per space. Never
        raises: a failure is logged and the facts keep full-text only."""
        try:
            self._set(prepared.spaces)
        except (GraphMemError, Neo4jError, DriverError) as e:
            if not OUTAGES.noted(e, "embedding: storing vectors"):
                log.error("stored %d fact(s) but could not index them for retrieval: %s",
                          sum(len(s["rows"]) for s in prepared.spaces), e)
            return {}
        return prepared.stored

    def _set(self, spaces: list[dict[str, Any]]) -> None:
        """Store the rows; a transient failure (a lock wait with an erasure timing out, a
        restart) is tried again."""
        for attempt in range(STORE_ATTEMPTS):
            try:
                recall.set_embeddings(self.graph, spaces)
                return
            except Neo4jError as e:
                if not e.is_retryable() or attempt == STORE_ATTEMPTS - 1:
                    raise
            time.sleep(RETRY_PAUSE * 2 ** attempt)

    def _vectors(self, texts: list[str]) -> list[Vector | None]:
        if not texts:
            return []
        try:
            vectors = [self.check(v) for v in self.embeddings.documents(texts)]
        except (EmbedderUnavailable, DimensionMismatch, ConfigError) as e:
            self.outage.failed(len(texts), e)
            return [None] * len(texts)
        self.outage.worked()
        return list(vectors)
