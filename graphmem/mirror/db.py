"""The relational store: SQLite by default, Postgres when a URL is configured, one code path.

SQL is written once with `?` placeholders; the Postgres dialect swaps them for `%s`. Only
the few type names that differ are spelled through `Dialect`, so migrations and tests are
shared by both backends.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from graphmem.errors import ConfigError, StoreUnavailable


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def fetchone(self) -> Any: ...


@dataclass(frozen=True)
class Dialect:
    name: str
    serial: str
    blob: str
    placeholder: str

    def sql(self, text: str) -> str:
        text = text.replace("{serial}", self.serial).replace("{blob}", self.blob)
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)


SQLITE = Dialect("sqlite", "INTEGER PRIMARY KEY AUTOINCREMENT", "BLOB", "?")
POSTGRES = Dialect("postgres", "BIGSERIAL PRIMARY KEY", "BYTEA", "%s")


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


class RelationalStore:
    """A small connection layer: `transaction()` yields a cursor, commits or rolls back."""

    def __init__(self, url: str) -> None:
        self.url = url
        scheme = urlsplit(url).scheme
        if scheme == "sqlite":
            self.dialect = SQLITE
            self.path = Path(url[len("sqlite:///"):]) if url.startswith("sqlite:///") else None
            if self.path is None:
                raise ConfigError(f"relational URL {url!r} is invalid: use sqlite:///path/to.db")
        elif scheme in ("postgres", "postgresql"):
            self.dialect = POSTGRES
            self.path = None
        else:
            raise ConfigError(
                f"GRAPHMEM_DATABASE_URL {redact(url)!r} is invalid: use postgresql://user:pw@host"
                "/db, or leave it unset for SQLite"
            )
        self._local = threading.local()

    # ---- connections -----------------------------------------------------------------------
    def _connect(self) -> Any:
        if self.dialect is SQLITE:
            assert self.path is not None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None,
                                       check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.execute("PRAGMA busy_timeout=30000")
                conn.execute("PRAGMA secure_delete=ON")  # erased rows are overwritten
            except (sqlite3.Error, OSError) as e:
                raise StoreUnavailable(f"cannot open SQLite database {self.path}: {e}") from e
            return conn
        import psycopg

        try:
            return psycopg.connect(self.url, connect_timeout=5, autocommit=True)
        except psycopg.Error as e:
            reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StoreUnavailable(
                f"Postgres at {redact(self.url)} is not reachable: {reason}"
                " (check GRAPHMEM_DATABASE_URL and that the server is up)"
            ) from e

    def _connection(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _drop_connection(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the connection is already broken
            self._local.conn = None

    def _begin(self) -> Any:
        """A cursor in a new transaction. A pooled connection found broken at BEGIN (the
        server restarted, a proxy cut it) is replaced once: nothing ran on it yet."""
        begin = "BEGIN IMMEDIATE" if self.dialect is SQLITE else "BEGIN"
        cur = self._connection().cursor()
        try:
            cur.execute(begin)
        except Exception as e:
            if not self._is_connection_error(e):
                raise
            self._drop_connection()
            try:
                cur = self._connection().cursor()
                cur.execute(begin)
            except Exception as again:
                self._drop_connection()
                if isinstance(again, StoreUnavailable) or not self._is_connection_error(again):
                    raise
                raise StoreUnavailable(
                    f"relational store {redact(self.url)} failed: {again}") from again
        return cur

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        """One transaction; a broken connection is dropped so the next call reconnects."""
        cur = self._begin()
        try:
            yield _DialectCursor(cur, self.dialect)
            cur.execute("COMMIT")
        except BaseException as e:
            try:
                cur.execute("ROLLBACK")
            except Exception:  # noqa: BLE001 - keep the original error
                self._drop_connection()
            if self._is_connection_error(e):
                self._drop_connection()
                raise StoreUnavailable(f"relational store {redact(self.url)} failed: {e}") from e
            raise

    def _is_connection_error(self, error: BaseException) -> bool:
        if self.dialect is SQLITE:
            text = str(error)
            return isinstance(error, sqlite3.OperationalError) and (
                "unable to open" in text or "disk I/O" in text
            )
        import psycopg

        return isinstance(error, psycopg.OperationalError)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.transaction() as cur:
            cur.execute(sql, params)
            return [tuple(row) for row in cur.fetchall()]

    def ping(self) -> None:
        self.query("SELECT 1")


class _DialectCursor:
    """Translates placeholders and type tokens on the way through."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self._cursor = cursor
        self._dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(self._dialect.sql(sql), tuple(params))

    def fetchall(self) -> list[Any]:
        return list(self._cursor.fetchall())

    def fetchone(self) -> Any:
        return self._cursor.fetchone()
