"""Versioned relational migrations, shared by SQLite and Postgres.

Each step is a list of statements; `{serial}` and `{blob}` are the only dialect tokens. A
step and its row in schema_migrations commit together, so `up` is safe to re-run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.mirror.db import RelationalStore


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "events", (
        """CREATE TABLE IF NOT EXISTS events (
            seq {serial},
            event_id TEXT NOT NULL UNIQUE,
            space TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            applied_at TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS events_space ON events (space, seq)",
    )),
)

_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""


def latest_version() -> int:
    return MIGRATIONS[-1].version


def current_version(store: RelationalStore) -> int:
    with store.transaction() as cur:
        cur.execute(_TABLE)
        cur.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(cur.fetchone()[0])


def pending(store: RelationalStore) -> list[Migration]:
    current = current_version(store)
    return [m for m in MIGRATIONS if m.version > current]


def up(store: RelationalStore) -> list[Migration]:
    applied = []
    for migration in pending(store):
        with store.transaction() as cur:
            for statement in migration.statements:
                cur.execute(statement)
            cur.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat()),
            )
        applied.append(migration)
    return applied
