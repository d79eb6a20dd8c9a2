"""The relational connection layer, the same tests on SQLite and Postgres."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from graphmem.errors import ConfigError, StoreUnavailable
from graphmem.mirror import migrations
from graphmem.mirror.db import POSTGRES, SQLITE, RelationalStore, redact

pytestmark = pytest.mark.races

EVENT = (
    "INSERT INTO events (event_id, space, kind, payload, created_at, applied_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


class Boom(Exception):
    pass


def add_event(store: RelationalStore, event_id: str) -> None:
    with store.transaction() as cur:
        cur.execute(EVENT, (event_id, "t/u/a/r", "fact.added", "{}", "2025-01-01", "2025-01-01"))


def event_ids(store: RelationalStore) -> list[str]:
    return [row[0] for row in store.query("SELECT event_id FROM events ORDER BY seq")]


def test_dialect_follows_the_url(relational_store: RelationalStore) -> None:
    expected = SQLITE if relational_store.url.startswith("sqlite") else POSTGRES
    assert relational_store.dialect is expected
    relational_store.ping()


def test_commit_is_visible_to_a_new_connection(relational_store: RelationalStore) -> None:
    add_event(relational_store, "e1")
    other = RelationalStore(relational_store.url)
    try:
        assert event_ids(other) == ["e1"]
    finally:
        other.close()


def test_an_exception_rolls_the_whole_transaction_back(relational_store: RelationalStore) -> None:
    add_event(relational_store, "kept")
    with pytest.raises(Boom), relational_store.transaction() as cur:
        cur.execute(EVENT, ("lost", "s", "k", "{}", "t", "t"))
        raise Boom
    assert event_ids(relational_store) == ["kept"]
    add_event(relational_store, "after")  # the connection is usable again
    assert event_ids(relational_store) == ["kept", "after"]


def test_a_failed_statement_rolls_back_and_keeps_the_store_usable(
    relational_store: RelationalStore,
) -> None:
    add_event(relational_store, "e1")
    with pytest.raises(Exception, match="(?i)unique|duplicate"):
        with relational_store.transaction() as cur:
            cur.execute(EVENT, ("e2", "s", "k", "{}", "t", "t"))
            cur.execute(EVENT, ("e1", "s", "k", "{}", "t", "t"))  # event_id is UNIQUE
    assert event_ids(relational_store) == ["e1"]
    add_event(relational_store, "e3")
    assert event_ids(relational_store) == ["e1", "e3"]


def test_placeholders_and_types_are_translated(relational_store: RelationalStore) -> None:
    with relational_store.transaction() as cur:
        cur.execute("CREATE TABLE blobs (id {serial}, body {blob} NOT NULL, note TEXT)")
        cur.execute("INSERT INTO blobs (body, note) VALUES (?, ?)", (b"\x00\xffbytes", "n"))
        cur.execute("INSERT INTO blobs (body, note) VALUES (?, ?)", (b"two", None))
    rows = relational_store.query("SELECT id, body, note FROM blobs ORDER BY id")
    assert [(r[0], bytes(r[1]), r[2]) for r in rows] == [
        (1, b"\x00\xffbytes", "n"), (2, b"two", None),
    ]


def test_foreign_keys_are_enforced(relational_store: RelationalStore) -> None:
    with relational_store.transaction() as cur:
        cur.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        cur.execute("CREATE TABLE child (id INTEGER PRIMARY KEY,"
                    " parent_id INTEGER NOT NULL REFERENCES parent (id))")
        cur.execute("INSERT INTO parent (id) VALUES (?)", (1,))
        cur.execute("INSERT INTO child (id, parent_id) VALUES (?, ?)", (1, 1))
    with pytest.raises(Exception, match="(?i)foreign key"):
        with relational_store.transaction() as cur:
            cur.execute("INSERT INTO child (id, parent_id) VALUES (?, ?)", (2, 99))
    assert relational_store.query("SELECT id FROM child") == [(1,)]


def test_each_thread_has_its_own_connection(relational_store: RelationalStore) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                add_event(relational_store, f"t{n}-{i}")
        except BaseException as e:  # noqa: BLE001 - collected for the assertion below
            errors.append(e)
        finally:
            relational_store.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(event_ids(relational_store)) == 15


def test_migrations_are_idempotent(relational_url: str) -> None:
    store = RelationalStore(relational_url)
    try:
        assert migrations.current_version(store) == 0
        applied = migrations.up(store)
        assert [m.version for m in applied] == [m.version for m in migrations.MIGRATIONS]
        assert migrations.up(store) == []
        assert migrations.pending(store) == []
        assert migrations.current_version(store) == migrations.latest_version()
        rows = store.query("SELECT version, name FROM schema_migrations ORDER BY version")
        assert rows == [(m.version, m.name) for m in migrations.MIGRATIONS]
        add_event(store, "e1")
        assert migrations.up(store) == []
        assert event_ids(store) == ["e1"], "a second `up` leaves the data alone"
    finally:
        store.close()


# ---- SQLite specifics ----------------------------------------------------------------------
def test_sqlite_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = RelationalStore(f"sqlite:///{tmp_path / 'db' / 'mirror.db'}")
    try:
        store.ping()
        assert store.query("PRAGMA journal_mode") == [("wal",)]
        assert store.query("PRAGMA foreign_keys") == [(1,)]
        assert (tmp_path / "db" / "mirror.db").exists(), "the parent folder is created"
    finally:
        store.close()


def test_sqlite_that_cannot_be_opened_is_store_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = RelationalStore(f"sqlite:///{blocker / 'mirror.db'}")
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    assert str(info.value).startswith("cannot open SQLite database")
    assert "\n" not in str(info.value)


# ---- bad URLs ------------------------------------------------------------------------------
def test_unreachable_postgres_is_one_line_without_the_password() -> None:
    url = "postgresql://graphmem:s3cret-Pa55@127.0.0.1:1/graphmem"
    store = RelationalStore(url)
    with pytest.raises(StoreUnavailable) as info:
        store.ping()
    message = str(info.value)
    assert "\n" not in message
    assert "s3cret-Pa55" not in message
    assert "postgresql://graphmem:***@127.0.0.1:1/graphmem" in message
    assert "GRAPHMEM_DATABASE_URL" in message


@pytest.mark.parametrize(
    "url",
    ["mysql://u:s3cret@db/x", "http://localhost/db", "graphmem.db", "sqlite:memory", ""],
)
def test_bad_scheme_is_config_error(url: str) -> None:
    with pytest.raises(ConfigError) as info:
        RelationalStore(url)
    message = str(info.value)
    assert "\n" not in message
    assert "s3cret" not in message


def test_redact_hides_only_the_password() -> None:
    assert redact("postgresql://u:pw@h:5432/d") == "postgresql://u:***@h:5432/d"
    assert redact("postgresql://u@h/d") == "postgresql://u@h/d"
    assert redact("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
