"""The Neo4j connection: one official driver, vendor errors turned into clear ones."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, ManagedTransaction, Session
from neo4j.exceptions import AuthError, ClientError, Neo4jError, ServiceUnavailable

from graphmem import consistency
from graphmem.errors import ConfigError, InvalidInput, Neo4jUnavailable
from graphmem.graph.statements import query
from graphmem.settings import Settings

T = TypeVar("T")

log = logging.getLogger(__name__)


def unavailable(settings: Settings, error: Exception) -> Neo4jUnavailable:
    """One line naming what failed and what to do about it."""
    uri = settings.bolt_uri
    if isinstance(error, AuthError):
        hint = (
            "check GRAPHMEM_NEO4J_USER/GRAPHMEM_NEO4J_PASSWORD"
            if settings.neo4j_password is not None
            else f"the password in {settings.password_file} does not match the server"
        )
        return Neo4jUnavailable(f"Neo4j at {uri} refused the credentials: {hint}")
    if isinstance(error, ServiceUnavailable | OSError):
        hint = (
            "start it with `graphmem neo4j start`"
            if settings.managed_neo4j
            else "check GRAPHMEM_NEO4J_URI and that the server is up"
        )
        return Neo4jUnavailable(f"Neo4j is not reachable at {uri}: {hint}")
    message = getattr(error, "message", None) or str(error)
    return Neo4jUnavailable(f"Neo4j at {uri} failed: {message}")


ACQUIRE_SECONDS = 10.0


class GraphDriver:
    """Owns the driver; every statement is run by name from the cypher/ registry."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        try:
            user, password = settings.neo4j_auth()
            # the acquisition timeout also bounds a new connection's handshake: a server
            # that accepts and then never answers is given up on after ACQUIRE_SECONDS
            self._driver = GraphDatabase.driver(
                settings.bolt_uri, auth=(user, password),
                connection_acquisition_timeout=ACQUIRE_SECONDS, connection_timeout=5.0,
                max_transaction_retry_time=30.0, notifications_min_severity="OFF",
            )
        except ValueError as e:
            raise ConfigError(f"GRAPHMEM_NEO4J_URI {settings.bolt_uri!r} is invalid: {e}") from e
        self.database = settings.neo4j_database

    def close(self) -> None:
        self._driver.close()

    def verify(self) -> str:
        """Connect, authenticate and return the server version, or raise Neo4jUnavailable."""
        try:
            self._driver.verify_connectivity()
            info = self._driver.get_server_info()
            return str(info.agent)
        except (Neo4jError, ServiceUnavailable, OSError) as e:
            raise unavailable(self.settings, e) from e
        except neo4j.exceptions.DriverError as e:
            raise unavailable(self.settings, e) from e

    @contextmanager
    def session(self, **kwargs: Any) -> Iterator[Session]:
        """A session; inside `consistency.tracking(token)` it first waits for the state the
        token names (on whichever server the driver routes it to)."""
        tracker = consistency.current()
        if tracker is not None and tracker.after and "bookmarks" not in kwargs:
            kwargs["bookmarks"] = neo4j.Bookmarks.from_raw_values(tracker.after)
        try:
            with self._driver.session(database=self.database, **kwargs) as session:
                yield session
        except (ServiceUnavailable, AuthError, neo4j.exceptions.SessionExpired) as e:
            raise unavailable(self.settings, e) from e
        except ClientError as e:
            if (e.code or "").endswith("InvalidBookmark"):
                raise InvalidInput("the consistency token names a state this database does"
                                   " not know: pass back a token a write to it returned"
                                   ) from e
            if e.code and "DatabaseNotFound" in e.code:
                raise ConfigError(
                    f"Neo4j has no database {self.database!r}: check GRAPHMEM_NEO4J_DATABASE"
                ) from e
            raise

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run a named read statement in a managed (retried) read transaction."""

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            return [record.data() for record in tx.run(query(name), params)]

        return self.execute(work, write=False)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run a named write statement in a managed (retried) write transaction."""

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            return [record.data() for record in tx.run(query(name), params)]

        return self.execute(work)

    def write_once(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """A named write statement, one attempt: a transient failure is raised to the caller
        (who may retry it without holding what it held around this attempt)."""

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            return [record.data() for record in tx.run(query(name), params)]

        return self.execute(work, retry=False)

    def execute(self, fn: Callable[..., T], /, *args: Any, write: bool = True,
                retry: bool = True) -> T:
        """A managed transaction that fails fast when Neo4j is down.

        The first attempt runs without the driver's retries. If it fails on a transient
        error, or loses its connection while the server still answers (a restarted server,
        a stale pooled connection), it runs again with them; if the server does not answer,
        Neo4jUnavailable is raised at once instead of after 30 s of retries. `retry=False`:
        the first attempt's failure is raised as it is."""
        try:
            with self.session(max_transaction_retry_time=0.0) as session, _pipelined(session):
                return _transaction(session, fn, args, write)
        except Neo4jUnavailable:
            self.verify()
            if not retry:
                raise
        except Neo4jError as e:
            if out_of_memory(e):  # transient to the driver, but the same request fails again
                raise too_large(e) from e
            if not e.is_retryable() or not retry:
                raise
            # routine under contention (a deadlock, a lock wait) and retried at once: a line
            # each would be noise in a busy server's log
            log.debug("transaction failed and will be retried: %s", e.code or e)
        with self.session() as session, _pipelined(session):
            return _transaction(session, fn, args, write)


def _transaction(session: Session, fn: Callable[..., T], args: tuple[Any, ...],
                 write: bool) -> T:
    """One managed transaction; a write's bookmarks go to the call's consistency tracker."""
    if not write:
        return session.execute_read(fn, *args)
    result = session.execute_write(fn, *args)
    tracker = consistency.current()
    if tracker is not None:
        tracker.wrote(session.last_bookmarks().raw_values)
    return result


# Neo4j's refusals of a transaction's memory: the pool (dbms.memory.transaction.total.max)
# and one transaction's share (db.memory.transaction.max), under their old and GQL codes.
MEMORY_REFUSALS = ("MemoryPoolOutOfMemoryError", "TransactionOutOfMemoryError",
                   "TransactionMemoryLimit")
MEMORY_GQL_STATUSES = ("51N72", "51N73")


def out_of_memory(error: Neo4jError) -> bool:
    code = error.code or ""
    status = getattr(error, "gql_status", None) or ""
    return code.endswith(MEMORY_REFUSALS) or status in MEMORY_GQL_STATUSES


def too_large(error: Neo4jError) -> InvalidInput:
    """What a caller is told when Neo4j refuses a transaction the memory it needs."""
    return InvalidInput("this request needs more memory than Neo4j allows one transaction"
                        f" ({error.code}): ask for less at once (fewer facts or shorter texts"
                        " per write, a smaller page)")


def _pipelined(session: Session) -> AbstractContextManager[Any]:
    """BEGIN sent together with the first statement rather than on its own round trip, as
    the driver's own `execute_query` does (a write is BEGIN, two statements and COMMIT, so
    this is a quarter of its round trips). The switch is the driver's private one; a
    driver without it just runs unpipelined."""
    switch = getattr(session, "_pipelined_begin", None)
    return switch if isinstance(switch, AbstractContextManager) else nullcontext()


def run(tx: ManagedTransaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named statement inside a caller's transaction."""
    return [record.data() for record in tx.run(query(name), params)]


def run_maps(tx: ManagedTransaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """`run` for a statement that returns only values, lists and maps (no nodes, edges or
    paths): its records as they arrive, without the driver's recursive export of every
    nested value (a tenth of a large write's client time)."""
    result = tx.run(query(name), params)
    keys = result.keys()
    return [dict(zip(keys, record, strict=True)) for record in result]
