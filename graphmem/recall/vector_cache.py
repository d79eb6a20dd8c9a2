"""Exact cosine search over a space's fact vectors, held in process memory.

Why not the Neo4j vector index: it is one index for every space, so a small space's
neighbours are crowded out by look-alike facts of other spaces, and it quantizes, which
reorders near-identical facts; a filtered exact scan in Cypher is right but grows with the
space. Holding each space's vectors here makes vector ranking exact and a matrix product
(milliseconds at 100k facts), at the cost of memory (`GRAPHMEM_VECTOR_CACHE` vectors in all).

Freshness: every stored vector carries the space's next sequence number (`seq`), so a cache
fetches exactly what was stored since it last looked (an index range seek, one cheap query
per search when nothing changed). Facts retired since (superseded, retracted, rejected,
erased) are found when they reach a result: the caller checks statuses and `drop`s them.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from neo4j import ManagedTransaction

from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.model import HOT_STATUSES

log = logging.getLogger(__name__)

PAGE = 5000
Matrix = npt.NDArray[np.float32]


def unit(vector: Sequence[float]) -> Matrix:
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


class SpaceVectors:
    """One space's hot fact vectors: unit rows (grown by doubling), a live mask, and the
    last sequence number seen."""

    def __init__(self, dims: int) -> None:
        self.dims = dims
        self.ids: list[str] = []
        self.rows: dict[str, int] = {}
        self._matrix: Matrix = np.zeros((64, dims), dtype=np.float32)
        self._alive = np.zeros(64, dtype=bool)
        self.seq = -1
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def _grow(self, needed: int) -> None:
        capacity = len(self._alive)
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        matrix = np.zeros((capacity, self.dims), dtype=np.float32)
        matrix[:len(self.ids)] = self._matrix[:len(self.ids)]
        alive = np.zeros(capacity, dtype=bool)
        alive[:len(self.ids)] = self._alive[:len(self.ids)]
        self._matrix, self._alive = matrix, alive

    def upsert(self, items: Sequence[tuple[str, Sequence[float]]]) -> None:
        """New vectors are appended; a re-stamped fact (refined) gets its row replaced."""
        self._grow(len(self.ids) + len(items))
        for fact_id, vector in items:
            row = self.rows.get(fact_id)
            if row is None:
                row = self.rows[fact_id] = len(self.ids)
                self.ids.append(fact_id)
            self._matrix[row] = unit(vector)
            self._alive[row] = True

    def drop(self, ids: Sequence[str]) -> None:
        for fact_id in ids:
            row = self.rows.get(fact_id)
            if row is not None:
                self._alive[row] = False

    def top(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        """The n live rows most similar to `vector`, best first (ties by row order)."""
        count = len(self.ids)
        if not count or n <= 0:
            return []
        scores = self._matrix[:count] @ unit(vector)
        scores[~self._alive[:count]] = -np.inf
        n = min(n, count)
        best = np.argpartition(-scores, n - 1)[:n]
        ordered = best[np.lexsort((best, -scores[best]))]
        return [(self.ids[i], float(scores[i])) for i in ordered if np.isfinite(scores[i])]


class VectorCache:
    """The spaces' vectors of one process, least recently searched evicted first."""

    def __init__(self, graph: GraphDriver, budget: int, page: int = PAGE) -> None:
        self.graph = graph
        self.budget = budget
        self.page = page
        self._spaces: OrderedDict[str, SpaceVectors] = OrderedDict()
        self._too_big: set[str] = set()
        self._lock = threading.Lock()

    def space(self, space: str, dims: int, tx: ManagedTransaction | None = None
              ) -> SpaceVectors | None:
        """The space's vectors, brought up to date; None when they do not fit the budget."""
        if space in self._too_big or self.budget <= 0:
            return None
        with self._lock:
            entry = self._spaces.get(space)
            if entry is None or entry.dims != dims:
                entry = self._spaces[space] = SpaceVectors(dims)
            self._spaces.move_to_end(space)
        with entry.lock:
            if not self._sync(space, entry, tx):
                return None
        self._evict()
        return entry

    def _sync(self, space: str, entry: SpaceVectors, tx: ManagedTransaction | None) -> bool:
        while True:
            rows = self._page(space, entry.seq, tx)
            if rows:
                entry.upsert([(fact_id, vector) for fact_id, vector, _ in rows])
                entry.seq = int(rows[-1][2])
            if len(entry) > self.budget:
                with self._lock:
                    self._spaces.pop(space, None)
                    self._too_big.add(space)
                log.info("space %s holds more than GRAPHMEM_VECTOR_CACHE=%d vectors: vector"
                         " ranking uses the Neo4j index instead", space, self.budget)
                return False
            if len(rows) < self.page:
                return True

    def _page(self, space: str, seq: int, tx: ManagedTransaction | None
              ) -> list[tuple[str, list[float], int]]:
        """Raw record values: `record.data()` would walk every float of every vector."""
        args = (space, seq, list(HOT_STATUSES), self.page)
        if tx is not None:
            return recall.vectors_since(tx, *args)
        return self.graph.execute(recall.vectors_since, *args, write=False)

    def _evict(self) -> None:
        with self._lock:
            while sum(len(e) for e in self._spaces.values()) > self.budget and \
                    len(self._spaces) > 1:
                self._spaces.popitem(last=False)

    def held(self) -> dict[str, list[str]]:
        """The fact ids whose vectors are held, by space."""
        with self._lock:
            return {space: list(entry.ids) for space, entry in self._spaces.items()}

    def clear(self, space: str | None = None) -> None:
        """Forget one space's vectors (or all): erasure calls this."""
        with self._lock:
            if space is None:
                self._spaces.clear()
                self._too_big.clear()
            else:
                self._spaces.pop(space, None)
                self._too_big.discard(space)
