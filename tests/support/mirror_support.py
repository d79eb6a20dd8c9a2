"""Helpers shared by the mirror tests (conftest.py holds the fixtures)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.apply import fact_binding
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.event_log import event_binding
from graphmem.runtime import Runtime
from graphmem.settings import Settings

# Writes embed their facts after committing; these tests do not need vectors, so the
# embedder points at a closed port and fails at once (the write goes on, full-text only).
NO_EMBEDDER: dict[str, Any] = {"embedding_base_url": "http://127.0.0.1:9/v1",
                               "llm_max_retries": 0}


def with_store(settings: Settings, url: str, **changes: Any) -> Settings:
    return settings.model_copy(update={"database_url": SecretStr(url), **changes})


def open_runtime(settings: Settings, graph: GraphDriver, shared: Runtime | None = None
                 ) -> Runtime:
    """A Runtime over an existing driver; the session's embedder is reused (loaded once)."""
    store = RelationalStore(settings.relational_url)
    store_migrations.up(store)
    return Runtime(settings, graph, store, embedder=shared.embedder if shared else None)


def close_runtime(runtime: Runtime) -> None:
    """Stop what the test's Runtime owns (the mirror, the store), not the shared driver."""
    runtime.close_workers()
    runtime.store.close()


def sqlite_files(url: str) -> list[Path]:
    """The database file and its write-ahead log: everything SQLite keeps on disk."""
    path = Path(url[len("sqlite:///"):])
    return [p for p in (path, Path(f"{path}-wal")) if p.exists()]


def postgres_table_bytes(runtime: Runtime, tables: tuple[str, ...]) -> list[bytes]:
    """Every stored row of the tables, as Postgres renders the whole tuple."""
    return [str(row[0]).encode() for table in tables
            for row in runtime.store.query(f"SELECT t::text FROM {table} t")]  # noqa: S608


def stored_bytes(runtime: Runtime) -> list[bytes]:
    url = runtime.store.url
    if url.startswith("sqlite"):
        found = []
        for path in sqlite_files(url):
            try:
                found.append(path.read_bytes())
            except FileNotFoundError:  # the log, checkpointed away since it was listed
                continue
        return found
    return postgres_table_bytes(runtime, ("mirror_facts", "events", "decisions", "receipts",
                                          "audit_log"))


def mirrored(runtime: Runtime, space: str) -> dict[str, tuple[str, str | None]]:
    """The mirror's facts of a space: id → (status, decrypted value)."""
    cipher = runtime.mirror.cipher
    rows = runtime.store.query("SELECT id, status, value FROM mirror_facts WHERE space = ?",
                               (space,))
    return {r[0]: (r[1], cipher.open(r[2], fact_binding(r[0], space, "value"))) for r in rows}


def event_texts(runtime: Runtime, space: str) -> list[str]:
    """The decrypted payloads of a space's events, oldest first."""
    cipher = runtime.mirror.cipher
    rows = runtime.store.query("SELECT event_id, kind, payload FROM events WHERE space = ?"
                               " ORDER BY seq", (space,))
    return [cipher.open(r[2], event_binding(r[0], space, r[1])) or "" for r in rows]


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
