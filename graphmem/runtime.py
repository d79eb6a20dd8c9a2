"""The long-lived clients of one process, built once and passed around explicitly.

No module-level globals: the server builds a Runtime in its lifespan, the CLI and the
Python API build their own, and tests build one per fixture. The driver and the relational
store open at once; the model clients, the mirror, the ranker and the embedding worker are
built on first use (a process that only reads never loads the embedding model).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from graphmem.errors import GraphMemError
from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver, unavailable
from graphmem.graph.outbox import Outbox
from graphmem.graph.space_locks import SpaceLocks
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.model.audit import AuditCall
from graphmem.settings import Settings, load_settings

if TYPE_CHECKING:  # the model clients import heavy packages: only when first used
    from graphmem.auth.sources import SourceBook
    from graphmem.embeddings import Embeddings
    from graphmem.lexicon import Senses
    from graphmem.llm import LLM
    from graphmem.mirror.mirror import Mirror
    from graphmem.recall.embed_process import EmbedProcess
    from graphmem.recall.embed_sweep import EmbedSweep
    from graphmem.recall.embed_worker import EmbedWorker
    from graphmem.recall.relation_knowledge import RelationKnowledge
    from graphmem.recall.retrieve import Ranker

T = TypeVar("T")
P = ParamSpec("P")
log = logging.getLogger(__name__)


class Runtime:
    """One process's clients; `embedder` may be shared with another Runtime (it is then not
    closed by this one)."""

    def __init__(self, settings: Settings, graph: GraphDriver, store: RelationalStore, *,
                 embedder: Embeddings | None = None) -> None:
        self.settings = settings
        self.graph = graph
        self.store = store
        self._lock = threading.RLock()
        self.space_locks = SpaceLocks()  # this process's transactions that lock a Space node
        self._shared_embedder = embedder is not None
        self._embedder: Embeddings | None = embedder
        self._llm: LLM | None = None
        self._mirror: Mirror | None = None
        self._ranker: Ranker | None = None
        self._embed_worker: EmbedWorker | None = None
        self._embed_process: EmbedProcess | None = None
        self._embed_sweep: EmbedSweep | None = None
        self.commit_listeners: list[Callable[[str], None]] = []  # told the space of a commit
        self._sources: SourceBook | None = None
        self._lexicon: tuple[Senses | None] | None = None  # (None,): the files are missing
        self._relation_knowledge: RelationKnowledge | None = None

    @classmethod
    def open(cls, settings: Settings | None = None) -> Runtime:
        settings = settings or load_settings()
        return cls(settings, GraphDriver(settings), RelationalStore(settings.relational_url))

    # ---- built on first use -------------------------------------------------------------
    def _once(self, name: str, build: Callable[[], T]) -> T:
        """The client held in attribute `name`, built once (the hot path takes no lock)."""
        found: T | None = getattr(self, name)
        if found is not None:
            return found
        with self._lock:
            found = getattr(self, name)
            if found is None:
                found = build()
                setattr(self, name, found)
            return found

    @property
    def llm(self) -> LLM | None:
        """The chat model, or None when no LLM is configured."""
        if not self.settings.llm_configured:
            return None
        from graphmem.llm import LLM

        return self._once("_llm", lambda: LLM(self.settings))

    @property
    def embedder(self) -> Embeddings:
        """The embedder (local model or endpoint); the model itself loads on first use."""
        from graphmem.embeddings import build_embeddings

        return self._once("_embedder", lambda: build_embeddings(self.settings))

    @property
    def lexicon(self) -> Senses | None:
        """WordNet, when its files are installed (None otherwise: `graphmem doctor` says)."""
        from graphmem.lexicon import WordNetMissing, open_senses

        def opened() -> tuple[Senses | None]:
            try:
                return (open_senses(self.settings.wordnet_dir),)
            except (WordNetMissing, OSError) as e:
                log.warning("multi-hop questions are read without the lexicon: %s", e)
                return (None,)

        return self._once("_lexicon", opened)[0]

    @property
    def relation_knowledge(self) -> RelationKnowledge:
        """What this process learned of each space's relations from their facts."""
        from graphmem.recall.relation_knowledge import RelationKnowledge

        return self._once("_relation_knowledge", lambda: RelationKnowledge(
            self.settings.relation_sample, self.settings.relation_refresh_seconds))

    @property
    def mirror(self) -> Mirror:
        """The mirror; erasures it learns of (this process's or another's) empty this
        Runtime's caches (`forget_erased`)."""
        from graphmem.mirror.mirror import Mirror

        def build() -> Mirror:
            mirror = Mirror(self.settings, self.graph, self.store)
            mirror.erase_listeners.append(self.forget_erased)
            return mirror

        return self._once("_mirror", build)

    def forget_erased(self, space: str, fact_ids: frozenset[str]) -> None:
        """An erasure in `space` (every space when empty): its vectors leave the vector
        cache, and cached query embeddings go (a question may have named what was erased)."""
        ranker, embedder = self._ranker, self._embedder
        if ranker is not None:
            ranker.vectors.cache.clear(space or None)
        if embedder is not None:
            embedder.clear_cache()

    @property
    def sources(self) -> SourceBook:
        """Which principals speak as which source, per tenant (cached like verified keys)."""
        from graphmem.auth.sources import SourceBook

        return self._once("_sources", lambda: SourceBook.open(self.store, self.settings,
                                                              cached=True))

    @property
    def ranker(self) -> Ranker:
        """One Ranker per Runtime (it caches the vector index's dimensions)."""
        from graphmem.recall.retrieve import Ranker
        from graphmem.recall.vectors import VectorIndex

        return self._once("_ranker", lambda: Ranker(self.graph, VectorIndex(
            self.graph, lambda: self.embedder, self.settings.vector_cache)))

    @property
    def embed_worker(self) -> EmbedWorker:
        """The background embedder of new facts; `close` embeds what is queued first."""
        return self._once("_embed_worker", self._new_embed_worker)

    def _new_embed_worker(self) -> EmbedWorker:
        """A worker that embeds and stores here, a chunk stored while the next is embedded,
        or in a child process (GRAPHMEM_EMBED_PROCESS)."""
        from graphmem.recall.embed_worker import EmbedWorker

        if self.settings.embed_process:
            from graphmem.recall.embed_process import EmbedProcess

            process = self._embed_process = EmbedProcess(self.settings)
            store, stages = process.store_batch, None
        else:
            vectors = self.ranker.vectors
            store, stages = vectors.store_batch, vectors
        return EmbedWorker(self.graph, store, self.settings.embed_wait,
                           max_backlog=self.settings.embed_max_backlog, stages=stages)

    def start_embed_sweep(self) -> None:
        """Server mode: embed, every GRAPHMEM_EMBED_SWEEP_SECONDS, the facts other processes
        wrote and never embedded (see `recall.embed_sweep`)."""
        from graphmem.recall.embed_sweep import EmbedSweep

        period = self.settings.embed_sweep_seconds
        with self._lock:
            if period and self.settings.embed_background and self._embed_sweep is None:
                self._embed_sweep = EmbedSweep(
                    self.graph, lambda space, ids: self.embed_worker.submit(space, ids), period,
                    busy=lambda: self.embedding_backlog() > 0)
                self._embed_sweep.start()

    @property
    def has_embed_worker(self) -> bool:
        return self._embed_worker is not None

    @property
    def embed_process(self) -> EmbedProcess | None:
        """The child process embedding this process's writes (GRAPHMEM_EMBED_PROCESS), once
        the worker has started."""
        return self._embed_process

    def embedding_backlog(self) -> int:
        """Facts of this process's writes still waiting for their vectors (0 before its
        first write); never starts the worker."""
        worker = self._embed_worker
        return worker.backlog() if worker is not None else 0

    def model_clients(self) -> dict[str, object | None]:
        """The model clients built so far, by kind (for call counters); never builds one."""
        return {"llm": self._llm, "embedding": self._embedder}

    # ---- writing -----------------------------------------------------------------------
    def write(self, space: str, call: AuditCall | None,
              fn: Callable[Concatenate[ManagedTransaction, Outbox, P], T],
              *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn(tx, outbox, ...)` as one write transaction in `space`: the outbox entries it
        records carry `call`'s audit row, and once committed the mirror is told about them.
        Fails fast with a clear error when Neo4j is down."""
        committed: list[Outbox] = []

        def attempt(tx: ManagedTransaction) -> T:
            outbox = Outbox(space, call.stub() if call is not None else None)
            result = fn(tx, outbox, *args, **kwargs)
            committed[:] = [outbox]
            return result

        try:
            with self.space_locks.held(space):
                result: T = self.graph.execute(attempt)
        except (ServiceUnavailable, SessionExpired) as e:
            raise unavailable(self.settings, e) from e
        except Neo4jError as e:
            raise GraphMemError(f"Neo4j rejected the write: {e.message or e}") from e
        entries = committed[0].entries if committed else []
        if call is not None:
            call.committed(space, (e.id for e in entries))
        self.mirror.notify(space, entries)
        for listener in list(self.commit_listeners):
            listener(space)
        return result

    # ---- shutting down ------------------------------------------------------------------
    def stop_embed_worker(self, timeout: float | None = None) -> None:
        """Embed what is queued (for at most `timeout` seconds, the worker's default when
        None), then stop the worker; a later write starts a new one."""
        sweep, self._embed_sweep = self._embed_sweep, None
        if sweep is not None:
            sweep.stop()
        worker, self._embed_worker = self._embed_worker, None
        if worker is not None:
            if timeout is None:
                worker.close()
            else:
                worker.close(timeout=timeout)
        process, self._embed_process = self._embed_process, None
        if process is not None:
            process.close()

    def close_workers(self) -> None:
        """Stop what this Runtime started (the embedding worker, the mirror's threads) and
        close its own model clients; the driver and the store stay open."""
        self.stop_embed_worker()
        llm, self._llm = self._llm, None
        if llm is not None:
            llm.close()
        if not self._shared_embedder:
            embedder, self._embedder = self._embedder, None
            if embedder is not None:
                embedder.close()
        mirror, self._mirror = self._mirror, None
        if mirror is not None:
            mirror.close()

    def close(self) -> None:
        self.close_workers()
        self.graph.close()
        self.store.close()

    # ---- schemas and readiness ----------------------------------------------------------
    def migrate(self) -> dict[str, list[str]]:
        """Bring both schemas to the current version; a no-op when they already are."""
        self.graph.verify()
        graph_done = graph_migrations.up(self.graph)
        store_done = store_migrations.up(self.store)
        return {
            "graph": [f"{m.version:03d}_{m.name}" for m in graph_done],
            "relational": [f"{m.version:03d}_{m.name}" for m in store_done],
        }

    def readiness(self) -> dict[str, str]:
        """Each dependency's state; every value is 'ok' when the service can take traffic."""
        return {"neo4j": self._graph_ready(), "relational": self._store_ready()}

    def _graph_ready(self) -> str:
        try:
            self.graph.verify()
            version = graph_migrations.current_version(self.graph)
        except Exception as e:  # noqa: BLE001 - reported, not raised
            return str(e)
        latest = graph_migrations.latest_version()
        return "ok" if version == latest else (
            f"graph schema at version {version}, code needs {latest}: run `graphmem migrate up`")

    def _store_ready(self) -> str:
        try:
            version = store_migrations.current_version(self.store)
        except Exception as e:  # noqa: BLE001 - reported, not raised
            return str(e)
        latest = store_migrations.latest_version()
        return "ok" if version == latest else (
            f"relational schema at version {version}, code needs {latest}:"
            " run `graphmem migrate up`")
