"""Ranking a space's facts for a question: vector and full-text, fused by reciprocal rank.

Strategies are named configuration objects: `fused` (the default), `vector` and
`lexical` (what the benchmark compares). Vector ranking of the hot pool is an exact search
over the space's vectors held in memory (`vector_cache`); time-travel and history pools, and
spaces too big for the cache, go through the Neo4j vector index (oversampled, rescored
exactly) or an exact scan in Cypher. When the embedder is down or its vectors do not fit the
index, vector ranking drops out, the log says why, and full-text carries the query (a write
never fails for it); the Ranking says so too.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from neo4j import ManagedTransaction
from neo4j.exceptions import ClientError

from graphmem.embeddings import EmbedderUnavailable
from graphmem.errors import BudgetExceeded, SchemaOutdated
from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.model import HOT_STATUSES, Status
from graphmem.recall.text import lucene_terms
from graphmem.recall.vectors import DimensionMismatch, VectorIndex

log = logging.getLogger(__name__)

ALL_STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
RRF_K = 60
T = TypeVar("T")
MAX_ANN_K = 10_000
RETIRED_SLACK = 10  # extra in-memory hits, for ones retired since they were cached


@dataclass(frozen=True)
class Strategy:
    """How to rank: which rankers run, how deep each list goes, the RRF constant."""

    name: str
    vector: bool
    lexical: bool
    rrf_k: int = RRF_K
    depth: int = 50
    oversample: int = 4


FUSED = Strategy("fused", vector=True, lexical=True)
VECTOR = Strategy("vector", vector=True, lexical=False)
LEXICAL = Strategy("lexical", vector=False, lexical=True)
STRATEGIES: dict[str, Strategy] = {s.name: s for s in (FUSED, VECTOR, LEXICAL)}


@dataclass(frozen=True)
class Pool:
    """Which facts may be retrieved: the given statuses now, or (with `at`) what memory held
    at that instant; `history` adds the retired facts recorded by then; `valid_at` keeps
    only what memory held (or archived) that was true in the world at that instant."""

    statuses: tuple[str, ...] = HOT_STATUSES
    at: datetime | None = None
    history: bool = False
    valid_at: datetime | None = None

    def params(self) -> dict[str, Any]:
        return {"statuses": list(self.statuses), "at": self.at, "history": self.history,
                "valid_at": self.valid_at}


def pool_for(include_history: bool = False, as_of: datetime | None = None,
             valid_at: datetime | None = None) -> Pool:
    if valid_at is not None:  # what was true then, superseded since or not
        return Pool(ALL_STATUSES, as_of, True, valid_at)
    if as_of is not None:
        return Pool(ALL_STATUSES, as_of, include_history)
    return Pool(ALL_STATUSES if include_history else HOT_STATUSES, None, include_history)


ACTIVE_POOL = Pool((Status.ACTIVE.value,))


@dataclass(frozen=True)
class Ranking:
    """Fact ids best first; `method` is what really ran, `note` why it degraded."""

    ids: tuple[str, ...]
    method: str
    note: str = ""


Scored = Sequence[tuple[str, float]]


def dense_ranks(scored: Scored) -> list[tuple[str, int]]:
    """Ranks from 1, best first, where equal scores share a rank (dense ranking).

    Full-text scores tie often (every fact that matches only an entity's name scores the
    same); the order Lucene lists tied hits in is arbitrary and must not count as evidence.
    """
    ranked: list[tuple[str, int]] = []
    previous: float | None = None
    level = 0
    for item, score in scored:
        key = round(float(score), 6)
        if key != previous:
            level, previous = level + 1, key
        ranked.append((item, level))
    return ranked


def rrf(lists: Sequence[Scored], k: int = RRF_K) -> list[str]:
    """Reciprocal-rank fusion: score(id) = Σ 1 / (k + rank) over the lists that hold it.

    Each list is (id, score) best first, ranked densely (ties share a rank). Fused ties keep
    the better single rank first, then the id, so the order is deterministic.
    """
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for scored in lists:
        for item, rank in dense_ranks(scored):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores, key=lambda i: (-scores[i], best[i], i))


QUERY_EMBEDDING_THREADS = 8  # questions of concurrent recalls wait here, not in the model
_query_threads: ThreadPoolExecutor | None = None
_query_threads_lock = threading.Lock()


def _embedding() -> ThreadPoolExecutor:
    """The process's threads for question embeddings, started on the first ranking."""
    global _query_threads
    if _query_threads is None:
        with _query_threads_lock:
            if _query_threads is None:
                _query_threads = ThreadPoolExecutor(QUERY_EMBEDDING_THREADS,
                                                    thread_name_prefix="graphmem-query")
    return _query_threads


class Ranker:
    """Runs the named statements of cypher/recall for one space's pool, each in its own
    transaction, or all in one when bound to it by `within` (fewer round trips)."""

    def __init__(self, graph: GraphDriver, vectors: VectorIndex,
                 tx: ManagedTransaction | None = None, unsynced: set[str] | None = None
                 ) -> None:
        self.graph = graph
        self.vectors = vectors
        self.tx = tx
        self._unsynced = unsynced if unsynced is not None else set()

    def written(self, space: str) -> None:
        """This process wrote to `space`: its next lexical ranking first lets the eventually
        consistent `fact_search` index take the writes in (read-your-writes)."""
        self._unsynced.add(space)

    def within(self, fn: Callable[[Ranker], T]) -> T:
        """Run `fn` with every read of this Ranker in one read transaction."""
        if self.tx is not None:
            return fn(self)

        def work(tx: ManagedTransaction) -> T:
            return fn(Ranker(self.graph, self.vectors, tx, self._unsynced))

        return self.graph.execute(work, write=False)

    def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """`fn(tx, *args)` in the bound transaction, else in a read transaction of its own."""
        if self.tx is not None:
            return fn(self.tx, *args)
        return self.graph.execute(fn, *args, write=False)

    def pool_size(self, space: str, pool: Pool, cap: int) -> int:
        """The pool's size, counted only up to `cap` (an index range scan, no property read)."""
        return self.run(recall.pool_size, space, cap, pool.params())

    def pool(self, space: str, pool: Pool, cap: int) -> list[dict[str, Any]]:
        return self.run(recall.pool, space, cap, pool.params())

    def load(self, space: str, ids: Sequence[str]) -> list[dict[str, Any]]:
        if not ids:
            return []
        return self.run(recall.load, space, list(ids))

    def critical(self, space: str, pool: Pool, categories: Sequence[str], budget: int
                 ) -> list[str]:
        """Every pool fact in the categories; more than `budget` fails, never truncates."""
        if not categories:
            return []
        ids = self.run(recall.critical, space, list(categories), budget + 1, pool.params())
        if len(ids) > budget:
            raise BudgetExceeded(
                f"more than {budget} facts are in critical categories"
                f" ({', '.join(categories)}): recall refuses to truncate them; raise"
                " GRAPHMEM_CRITICAL_BUDGET or narrow the critical categories")
        return ids

    def rank(self, space: str, question: str, pool: Pool, strategy: Strategy, top_k: int
             ) -> Ranking:
        """The question is embedded on another thread while the full-text query runs: the
        model computes outside the GIL and Neo4j in its own process, so with a core to spare
        ranking costs about the longer of the two. On 2 busy cores the gain is small (the
        retrieval section of bench/RESULTS.md shows the parts)."""
        lists: list[Scored] = []
        note = ""
        vector = _embedding().submit(self.vectors.query_vector, question) if strategy.vector \
            else None
        lexical = self._lexical(space, question, pool, strategy) if strategy.lexical else None
        if vector is not None:
            try:
                lists.append(self._vector(space, vector.result(), pool, strategy))
            except (EmbedderUnavailable, DimensionMismatch) as e:
                note = f"vector ranking unavailable ({e}); ranked by full-text only"
                log.warning("recall: %s", note)
        if lexical is None and note:
            lexical = self._lexical(space, question, pool, strategy)
        if lexical is not None:
            lists.append(lexical)
        method = "lexical" if note else strategy.name
        return Ranking(tuple(rrf(lists, strategy.rrf_k)[:top_k]), method, note)

    def _vector(self, space: str, vector: list[float], pool: Pool, strategy: Strategy
                ) -> Scored:
        if (pool.at is None and pool.valid_at is None
                and set(pool.statuses) <= set(HOT_STATUSES)):
            found = self._in_memory(space, vector, pool, strategy.depth)
            if found is not None:
                return found
        k = min(strategy.depth * strategy.oversample, MAX_ANN_K)
        found = self.run(recall.vector_ann, space, vector, k, strategy.depth, pool.params())
        if len(found) < strategy.depth:
            found = self.run(recall.vector_exact, space, vector, strategy.depth,
                             pool.params())
        return found

    def _in_memory(self, space: str, vector: list[float], pool: Pool, depth: int
                   ) -> Scored | None:
        """Exact search over the space's cached vectors; hits retired since they were
        cached are dropped from the cache and the search repeated (rarely more than once)."""
        entry = self.vectors.cache.space(space, len(vector), self.tx)
        if entry is None:
            return None
        kept: list[tuple[str, float]] = []
        for _ in range(4):
            with entry.lock:
                hits = entry.top(vector, depth + RETIRED_SLACK)
            status = self.run(recall.statuses, space, [i for i, _ in hits])
            gone = [i for i, _ in hits if status.get(i) not in HOT_STATUSES]
            kept = [(i, score) for i, score in hits if status.get(i) in pool.statuses]
            if gone:
                with entry.lock:
                    entry.drop(gone)
            if not gone or len(kept) >= depth:
                break
        return kept[:depth]

    def _lexical(self, space: str, question: str, pool: Pool, strategy: Strategy) -> Scored:
        terms = lucene_terms(question)
        if not terms:
            return []
        if space in self._unsynced:  # discarded first: a write meanwhile marks it again
            self._unsynced.discard(space)
            self.run(recall.await_fulltext)
        try:
            return self.run(recall.fulltext, space, terms, strategy.depth, pool.params())
        except ClientError as e:
            if "fact_search" in (e.message or ""):
                raise SchemaOutdated("the fact_search full-text index is missing: run"
                                     " `graphmem migrate up`") from e
            raise
