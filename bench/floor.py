"""The raw Neo4j floor: what the official driver alone needs for a write transaction.

`one()` is a bare `execute_write` of one statement (create a node); `two()` takes a lock
node's write lock and creates a node, as the smallest serialised write does. Both run on a
driver of their own against the same server, in a space of their own whose nodes are
deleted on exit.
"""

from __future__ import annotations

import itertools
from types import TracebackType
from typing import Any

from neo4j import GraphDatabase, ManagedTransaction

from graphmem.settings import Settings

ONE = "CREATE (:BenchFloor {space: $space, n: $n, v: $v})"
LOCK = "MERGE (s:BenchFloorLock {space: $space}) SET s.n = coalesce(s.n, 0) + 1"
CLEAN = "MATCH (n) WHERE (n:BenchFloor OR n:BenchFloorLock) AND n.space = $space DELETE n"


class Floor:
    def __init__(self, settings: Settings, space: str) -> None:
        user, password = settings.neo4j_auth()
        self.driver = GraphDatabase.driver(settings.bolt_uri, auth=(user, password))
        self.database = settings.neo4j_database
        self.space = space
        self._n = itertools.count()

    def _write(self, *statements: str) -> None:
        n = next(self._n)

        def work(tx: ManagedTransaction) -> None:
            for text in statements:
                tx.run(text, space=self.space, n=n, v=f"value {n}").consume()

        with self.driver.session(database=self.database) as session:
            session.execute_write(work)

    def one(self) -> None:
        self._write(ONE)

    def two(self) -> None:
        self._write(LOCK, ONE)

    def unwind_create(self, rows: list[dict[str, Any]]) -> None:
        """A batch's raw equivalent: its nodes in one UNWIND CREATE."""
        def work(tx: ManagedTransaction) -> None:
            tx.run("UNWIND $rows AS r CREATE (:BenchFloor {space: $space, n: r.n, v: r.v})",
                   rows=rows, space=self.space).consume()

        with self.driver.session(database=self.database) as session:
            session.execute_write(work)

    def read(self, text: str, **params: Any) -> list[dict[str, Any]]:
        with self.driver.session(database=self.database) as session:
            return [r.data() for r in session.run(text, params)]

    def __enter__(self) -> Floor:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        with self.driver.session(database=self.database) as session:
            session.run(CLEAN, space=self.space).consume()
        self.driver.close()
