"""The raw Neo4j floor: what the official driver alone needs for a write transaction.

`one()` is a bare `execute_write` of one statement (create a node); `two()` takes a lock
node's write lock and creates a node, as the smallest serialised write does. `two_text()`
does the same with a node under a full-text index configured as graphmem's `fact_search`
(English analyzer, eventually consistent), and `two_vector()` with a node that also carries
a 384-dimension vector under a vector index: what Neo4j itself spends to keep a lexical and
a vector index in step with one write. `replay()` writes a captured batch's facts, edges
and outbox entry with bare UNWIND CREATE statements. Everything runs on a driver of its own
against the same server, in a space of its own whose nodes (and the two indexes) are
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
TEXT = "CREATE (:BenchFloorText {space: $space, n: $n, text: $v})"
VECTOR = "CREATE (:BenchFloorText {space: $space, n: $n, text: $v, vector: $vector})"
TEXT_INDEX = ("CREATE FULLTEXT INDEX bench_floor_text IF NOT EXISTS FOR (n:BenchFloorText) ON EACH"
              " [n.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english',"
              " `fulltext.eventually_consistent`: true}}")
VECTOR_INDEX = ("CREATE VECTOR INDEX bench_floor_vector IF NOT EXISTS FOR (n:BenchFloorText) ON"
                " n.vector OPTIONS {indexConfig: {`vector.dimensions`: 384,"
                " `vector.similarity_function`: 'cosine'}}")
CLEAN = ("MATCH (n) WHERE (n:BenchFloor OR n:BenchFloorLock OR n:BenchFloorText OR n:Fact"
         " OR n:Outbox) AND n.space = $space CALL (n) { DETACH DELETE n } IN TRANSACTIONS")
# A batch's nodes and edges written bare: the facts (labels and properties as graphmem
# writes them, so every Fact index is updated as for graphmem's own), their SUPERSEDES and
# RETRACTS edges, and the outbox entry.
REPLAY = """
CALL () {
  UNWIND $facts AS row
  CREATE (f:Fact)
  SET f = row, f.recorded_at = $now
  SET f:$(CASE f.status WHEN 'ACTIVE' THEN 'Active' WHEN 'FLAGGED_CONFLICT' THEN 'Flagged'
               WHEN 'SUPERSEDED' THEN 'Superseded' ELSE 'Historical' END)
}
CALL () {
  UNWIND $supersedes AS e
  MATCH (new:Fact {id: e.new}), (old:Fact {id: e.old})
  CREATE (new)-[:SUPERSEDES {at: $now}]->(old)
  SET old.status = 'SUPERSEDED', old.retired_at = $now
}
CALL () {
  UNWIND $retracts AS e
  MATCH (new:Fact {id: e.new}), (old:Fact {id: e.old})
  CREATE (new)-[:RETRACTS {at: $now}]->(old)
  SET old.status = 'SUPERSEDED', old.retired_at = $now
}
UNWIND $outbox AS o
CREATE (:Outbox {id: o.id, space: $space, kind: o.kind, payload: o.payload, created_at: $now,
                 done: false})
"""
DROP_INDEXES = ("DROP INDEX bench_floor_text IF EXISTS", "DROP INDEX bench_floor_vector IF EXISTS")


class Floor:
    def __init__(self, settings: Settings, space: str) -> None:
        user, password = settings.neo4j_auth()
        self.driver = GraphDatabase.driver(settings.bolt_uri, auth=(user, password))
        self.database = settings.neo4j_database
        self.space = space
        self._n = itertools.count()
        self._indexed = False

    def _write(self, *statements: str, **params: Any) -> None:
        n = next(self._n)

        def work(tx: ManagedTransaction) -> None:
            for text in statements:
                tx.run(text, space=self.space, n=n, v=f"bench floor value {n}",
                       **params).consume()

        with self.driver.session(database=self.database) as session:
            session.execute_write(work)

    def one(self) -> None:
        self._write(ONE)

    def two(self) -> None:
        self._write(LOCK, ONE)

    def two_text(self) -> None:
        self._write(LOCK, TEXT)

    def two_vector(self, vector: list[float]) -> None:
        self._write(LOCK, VECTOR, vector=vector)

    def indexed(self) -> None:
        """The full-text and vector indexes of `two_text`/`two_vector`, online."""
        with self.driver.session(database=self.database) as session:
            for text in (TEXT_INDEX, VECTOR_INDEX):
                session.run(text).consume()
            session.run("CALL db.awaitIndexes(300)").consume()
        self._indexed = True

    def replay(self, params: dict[str, Any]) -> None:
        """A batch graphmem wrote (the parameters of its `remember/apply`), written bare in
        this floor's space, every id prefixed so that none collides with graphmem's."""
        def rid(value: str) -> str:
            return f"raw-{value}"

        facts = [{**r["props"], "id": rid(r["props"]["id"]), "space": self.space}
                 for r in params["facts"]]
        supersedes = [{"new": rid(e["new"]), "old": rid(e["old"])} for e in params["supersedes"]]
        retracts = [{"new": rid(e["new"]), "old": rid(e["old"])} for e in params["retracts"]]
        outbox = [{**o, "id": rid(o["id"])} for o in params["outbox"]]

        def work(tx: ManagedTransaction) -> None:
            tx.run(REPLAY, facts=facts, supersedes=supersedes, retracts=retracts,
                   outbox=outbox, space=self.space, now=params["now"]).consume()

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
            if self._indexed:
                for text in DROP_INDEXES:
                    session.run(text).consume()
        self.driver.close()
