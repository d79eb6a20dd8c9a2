"""The long-lived clients of one process, built once and passed around explicitly.

No module-level globals: the server builds a Runtime in its lifespan, the CLI and the
Python API build their own, and tests build one per fixture.
"""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings, load_settings

if TYPE_CHECKING:  # remember(text) and recall: heavy imports stay lazy (issue 5)
    from graphmem.embeddings import Embeddings
    from graphmem.llm import LLM
    from graphmem.mirror.mirror import Mirror

T = TypeVar("T")


@dataclass
class Runtime:
    settings: Settings
    graph: GraphDriver
    store: RelationalStore
    extras: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Settings | None = None) -> Runtime:
        settings = settings or load_settings()
        return cls(settings, GraphDriver(settings), RelationalStore(settings.relational_url))

    def close(self) -> None:
        worker = self.extras.pop("embed_worker", None)  # issue 5: embed what is queued
        if worker is not None:
            worker.close()
        self._close_models()
        mirror = self.extras.pop("mirror", None)  # issue 7: stop the drainer, final drain
        if mirror is not None:
            mirror.close()
        self.graph.close()
        self.store.close()

    # ---- remember(text) and recall: model clients, built lazily once per Runtime (issue 5) --
    @property
    def llm(self) -> LLM | None:
        """The chat model, or None when no LLM is configured."""
        if not self.settings.llm_configured:
            return None
        from graphmem.llm import LLM

        return self._lazy("llm", LLM)

    @property
    def embedder(self) -> Embeddings:
        """The embedder (local model or endpoint); the model itself loads on first use."""
        from graphmem.embeddings import build_embeddings

        return self._lazy("embedder", build_embeddings)

    # ---- the relational mirror: outbox drainer, audit chain, keys (issue 7) ----
    @property
    def mirror(self) -> Mirror:
        from graphmem.mirror.mirror import Mirror

        return self._lazy("mirror", lambda s: Mirror(s, self.graph, self.store))

    def _lazy(self, name: str, build: Callable[[Settings], T]) -> T:
        built_already: T | None = self.extras.get(name)
        if built_already is not None:  # the hot path (every write asks for the mirror) takes
            return built_already  # no lock another thread may be holding
        with self.extras.setdefault("_models_lock", threading.Lock()):
            if name not in self.extras:
                self.extras[name] = build(self.settings)
            built: T = self.extras[name]
            return built

    def _close_models(self) -> None:
        for name in ("llm", "embedder"):
            client = self.extras.pop(name, None)
            if client is not None:
                client.close()

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
        checks: dict[str, str] = {}
        try:
            self.graph.verify()
            version = graph_migrations.current_version(self.graph)
            latest = graph_migrations.latest_version()
            checks["neo4j"] = "ok" if version == latest else (
                f"graph schema at version {version}, code needs {latest}: run `graphmem migrate up`"
            )
        except Exception as e:  # noqa: BLE001 - reported, not raised
            checks["neo4j"] = str(e)
        try:
            version = store_migrations.current_version(self.store)
            latest = store_migrations.latest_version()
            checks["relational"] = "ok" if version == latest else (
                f"relational schema at version {version}, code needs {latest}:"
                " run `graphmem migrate up`"
            )
        except Exception as e:  # noqa: BLE001 - reported, not raised
            checks["relational"] = str(e)
        return checks
