"""Versioned relational migrations, shared by SQLite and Postgres.

Each step is a list of statements; `{serial}` and `{blob}` are the only dialect tokens. A
step and its row in schema_migrations commit together, so `up` is safe to re-run.
"""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


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


def applied_versions(store: RelationalStore) -> set[int]:
    with store.transaction() as cur:
        cur.execute(_TABLE)
        cur.execute("SELECT version FROM schema_migrations")
        return {int(row[0]) for row in cur.fetchall()}


def current_version(store: RelationalStore) -> int:
    """The highest version such that it and every version below it are applied."""
    applied = applied_versions(store)
    current = 0
    for migration in MIGRATIONS:
        if migration.version not in applied:
            break
        current = migration.version
    return current


def pending(store: RelationalStore) -> list[Migration]:
    """Every step not yet applied, whatever order they were added to the code in."""
    applied = applied_versions(store)
    return [m for m in MIGRATIONS if m.version not in applied]


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
