"""The long-lived clients of one process, built once and passed around explicitly.

No module-level globals: the server builds a Runtime in its lifespan, the CLI and the
Python API build their own, and tests build one per fixture.
"""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings, load_settings


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
        self.graph.close()
        self.store.close()

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
