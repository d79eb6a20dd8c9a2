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
    # ---- version 2: mirror, audit chain, keys, decisions, receipts ----
    Migration(2, "audit_mirror", (
        "ALTER TABLE events ADD COLUMN graph_seq BIGINT",
        """CREATE TABLE IF NOT EXISTS event_facts (
            fact_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            PRIMARY KEY (fact_id, event_id)
        )""",
        """CREATE TABLE IF NOT EXISTS mirror_facts (
            id TEXT PRIMARY KEY,
            space TEXT NOT NULL,
            tenant TEXT NOT NULL,
            status TEXT NOT NULL,
            scope TEXT NOT NULL,
            kind TEXT NOT NULL,
            confidence DOUBLE PRECISION,
            subject_index TEXT NOT NULL,
            subject TEXT NOT NULL,
            value TEXT NOT NULL,
            raw TEXT,
            metadata TEXT,
            source TEXT,
            triple TEXT,
            valid_from TEXT,
            valid_to TEXT,
            recorded_at TEXT,
            retired_at TEXT,
            event_id TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS mirror_facts_subject ON mirror_facts (space, subject_index)",
        "CREATE INDEX IF NOT EXISTS mirror_facts_status ON mirror_facts (space, status)",
        "CREATE INDEX IF NOT EXISTS mirror_facts_tenant ON mirror_facts (tenant)",
        """CREATE TABLE IF NOT EXISTS mirror_edges (
            src TEXT NOT NULL,
            dst TEXT NOT NULL,
            type TEXT NOT NULL,
            space TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (src, dst, type)
        )""",
        "CREATE INDEX IF NOT EXISTS mirror_edges_dst ON mirror_edges (dst)",
        """CREATE TABLE IF NOT EXISTS audit_log (
            seq BIGINT PRIMARY KEY,
            at TEXT NOT NULL,
            tenant TEXT NOT NULL,
            space TEXT NOT NULL,
            caller TEXT NOT NULL,
            operation TEXT NOT NULL,
            outcome TEXT NOT NULL,
            detail TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            signature TEXT NOT NULL,
            key_id TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS audit_log_tenant ON audit_log (tenant, seq)",
        """CREATE TABLE IF NOT EXISTS audit_head (
            id INTEGER PRIMARY KEY,
            seq BIGINT NOT NULL,
            hash TEXT NOT NULL,
            at TEXT NOT NULL,
            signature TEXT NOT NULL,
            key_id TEXT NOT NULL
        )""",
        "INSERT INTO audit_head (id, seq, hash, at, signature, key_id)"
        " VALUES (1, 0, '" + "0" * 64 + "', '', '', '')",
        """CREATE TABLE IF NOT EXISTS signing_keys (
            key_id TEXT PRIMARY KEY,
            public_key TEXT NOT NULL,
            created_at TEXT NOT NULL,
            retired_at TEXT,
            endorsed_by TEXT,
            endorsement TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS receipts (
            id TEXT PRIMARY KEY,
            tenant TEXT NOT NULL,
            space TEXT NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            signature TEXT NOT NULL,
            key_id TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS receipts_tenant ON receipts (tenant, created_at)",
        """CREATE TABLE IF NOT EXISTS decisions (
            id TEXT PRIMARY KEY,
            tenant TEXT NOT NULL,
            space TEXT NOT NULL,
            caller TEXT NOT NULL,
            action TEXT NOT NULL,
            snapshot TEXT,
            fact_ids TEXT NOT NULL,
            digest TEXT NOT NULL,
            receipt_id TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS decisions_tenant ON decisions (tenant, created_at)",
        """CREATE TABLE IF NOT EXISTS retention (
            space TEXT PRIMARY KEY,
            seconds DOUBLE PRECISION NOT NULL,
            set_at TEXT NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS mirror_meta (
            id INTEGER PRIMARY KEY,
            store_id TEXT NOT NULL
        )""",
    )),
    # ---- version 3: principals and hashed API keys (graphmem.auth) ----
    Migration(3, "api_keys", (
        """CREATE TABLE IF NOT EXISTS principals (
            id TEXT PRIMARY KEY,
            tenant TEXT NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            spaces TEXT,
            created_at TEXT NOT NULL,
            UNIQUE (tenant, name)
        )""",
        """CREATE TABLE IF NOT EXISTS api_keys (
            id TEXT PRIMARY KEY,
            principal_id TEXT NOT NULL REFERENCES principals (id),
            digest TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS api_keys_principal ON api_keys (principal_id)",
    )),
    # ---- version 4: audit rows hash every column (v2), event coverage, anchors ----
    # A store that already holds rows or events keeps v = 1 on its head: the next append
    # seals them in the chain (graphmem.mirror.seal) before writing v2 rows.
    Migration(4, "audit_v2", (
        "ALTER TABLE audit_log ADD COLUMN v INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE audit_head ADD COLUMN v INTEGER NOT NULL DEFAULT 1",
        "UPDATE audit_head SET v = 2 WHERE seq = 0 AND NOT EXISTS (SELECT 1 FROM events)",
        "CREATE INDEX IF NOT EXISTS audit_log_hash ON audit_log (hash)",
        "CREATE INDEX IF NOT EXISTS events_kind ON events (kind, seq)",
    )),
    # ---- version 5: sources bound to principals, per-tenant source lists ----
    Migration(5, "source_bindings", (
        "ALTER TABLE principals ADD COLUMN source TEXT",
        """CREATE TABLE IF NOT EXISTS tenant_sources (
            tenant TEXT NOT NULL,
            source TEXT NOT NULL,
            principals TEXT NOT NULL,
            trusted INTEGER NOT NULL,
            curated INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (tenant, source)
        )""",
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
