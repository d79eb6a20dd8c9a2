"""Writes to one space are serialized across processes; other spaces do not wait.

The lock test is deterministic: the test holds a space's lock in an open transaction and asks
Neo4j (`SHOW TRANSACTIONS`) what the writers are doing. A writer process to the held space
must be reported "Blocked by" the holder, and stay so after a writer process to another space
has finished its write; it completes only once the holder commits. Nothing depends on timing:
every wait is for a state Neo4j reports or a process reaches, and the writer's transaction is
told apart from any other by its statement. Storing vectors and writing never wait for each
other: the embedding of a held space's facts completes while the lock is held, and a write
completes while an embedding batch of the facts it changes is open.

The stress test runs real processes writing one slot at once: the result must be one chain,
and the outbox sequence numbers (the space's write counter, taken under the lock) must be
distinct and gapless, which a write that ran beside another instead of after it would break.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Barrier, Event
from typing import Any

import pytest
from neo4j import ManagedTransaction

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.facts import row_to_fact
from graphmem.graph.statements import query
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.background import settled
from support.mirror_support import NO_EMBEDDER

pytestmark = pytest.mark.races

WRITERS = 4
ROUNDS = 5
SHOW = ("SHOW TRANSACTIONS YIELD transactionId, status, metaData, currentQuery, parameters"
        " RETURN transactionId AS id, status, metaData AS meta, currentQuery AS query,"
        " parameters")
BLOCKED = "Blocked by: "


def child_settings(settings: Settings) -> Settings:
    """The session's stores for a writer process (no embedding model to load)."""
    return settings.model_copy(update=NO_EMBEDDER)


# ---- what Neo4j says the transactions are doing ---------------------------------------------
def transactions(graph: GraphDriver) -> list[dict[str, Any]]:
    with graph.session() as session:
        return session.run(SHOW).data()


def cypher(graph: GraphDriver, statement: str, **params: Any) -> list[dict[str, Any]]:
    with graph.session() as session:
        return session.run(statement, params).data()


def holder_id(graph: GraphDriver, tag: str) -> str:
    (found,) = [t["id"] for t in transactions(graph) if (t["meta"] or {}).get("test") == tag]
    return str(found)


def blockers(status: str) -> set[str]:
    """`Blocked by: [neo4j-transaction-12, …]` → the ids."""
    if not status.startswith(BLOCKED):
        return set()
    return {part.strip() for part in status[len(BLOCKED):].strip("[] ").split(",")}


def waiting(graph: GraphDriver, holder: str, space: str) -> list[dict[str, Any]]:
    """The transactions of `space` that wait for the holder's lock."""
    return [t for t in transactions(graph)
            if holder in blockers(t["status"]) and (t["parameters"] or {}).get("space") == space]


def waiting_writes(graph: GraphDriver, holder: str, space: str) -> list[str]:
    """The ids of the writes (a write starts with `remember/lock_and_load`) of `space` that
    wait for the holder's lock."""
    start = query("remember/lock_and_load")
    return [t["id"] for t in waiting(graph, holder, space) if t["query"] == start]


@contextmanager
def holding_lock(graph: GraphDriver, space: str) -> Iterator[tuple[ManagedTransaction, str]]:
    """The space's write lock held by an open transaction of this process, and its id."""
    tag = uuid.uuid4().hex
    with graph.session() as session:
        tx = session.begin_transaction(metadata={"test": tag})
        run(tx, "spaces/lock_with_policy", space=space,  # type: ignore[arg-type]
            now=datetime.now(UTC))
        yield tx, holder_id(graph, tag)  # type: ignore[misc]


def until(condition: Callable[[], bool], alive: Callable[[], bool], what: str) -> None:
    """Wait for `condition` as long as the process that must bring it about runs (it may
    bring it about as it ends: the condition is read once more after it has ended)."""
    while not condition():
        assert alive() or condition(), what
        time.sleep(0.05)


# ---- the writer processes ---------------------------------------------------------------------
def _write_when_told(settings: Settings, space: str, value: str, ready: Event, go: Event
                     ) -> None:
    """Use the space (its first use claims it for the mirror), say so, write when told."""
    with GraphMem(space=space, settings=settings) as mem:
        mem.active("db")
        ready.set()
        go.wait()
        mem.remember_facts([{"subject": "db", "value": value, "confidence": 0.9}])


class Writer:
    def __init__(self, ctx: mp.context.SpawnContext, settings: Settings, space: str,
                 value: str) -> None:
        self.ready, self.go = ctx.Event(), ctx.Event()
        self.proc: SpawnProcess = ctx.Process(
            target=_write_when_told, args=(settings, space, value, self.ready, self.go))
        self.proc.start()

    def alive(self) -> bool:
        return self.proc.is_alive()

    def wait_ready(self) -> None:
        until(self.ready.is_set, self.alive, "the writer exited before it was ready")

    def finished(self) -> bool:
        return self.proc.exitcode is not None


def test_a_held_space_lock_holds_a_writer_process_of_that_space_and_no_other(
        runtime: Runtime, settings: Settings) -> None:
    held, other = isolation.space("lock"), isolation.space("free")
    for key in (held, other):
        with GraphMem(space=key, runtime=runtime) as mem:
            mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
            settled(mem)
    ctx = mp.get_context("spawn")
    blocked = Writer(ctx, child_settings(settings), held, "Postgres")
    free = Writer(ctx, child_settings(settings), other, "Postgres")
    try:
        blocked.wait_ready()
        free.wait_ready()
        with holding_lock(runtime.graph, held) as (tx, holder):
            blocked.go.set()
            until(lambda: bool(waiting(runtime.graph, holder, held)), blocked.alive,
                  "a writer to the locked space finished without waiting for the lock")
            (write,) = waiting(runtime.graph, holder, held)
            assert write["query"] == query("remember/lock_and_load"), (
                f"the write must wait at its start, not in: {write['query'][:200]}")

            free.go.set()
            until(free.finished, lambda: not waiting(runtime.graph, holder, other),
                  "a writer to another space waited for the held lock")
            assert free.proc.exitcode == 0

            assert blocked.alive(), "the writer to the locked space went on while it was held"
            assert waiting_writes(runtime.graph, holder, held) == [write["id"]]
            tx.commit()
        blocked.proc.join()
        assert blocked.proc.exitcode == 0
    finally:
        for writer in (blocked, free):
            writer.go.set()
            writer.proc.join(timeout=60)
            if writer.alive():
                writer.proc.kill()
    for key in (held, other):
        with GraphMem(space=key, runtime=runtime) as mem:
            assert [f.value for f in mem.active("db")] == ["Postgres"]
            assert [e.fact.value for e in mem.history("db").entries] == ["MySQL", "Postgres"]


def test_storing_vectors_never_waits_for_the_spaces_write_lock(runtime: Runtime) -> None:
    space = isolation.space("vectors")
    with GraphMem(space=space, runtime=runtime) as mem:
        mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
        settled(mem)
        (fact,) = mem.active("db")
        cypher(runtime.graph, "MATCH (v:FactVector {fact_id: $id}) DELETE v", id=fact.id)
        stored: list[int] = []
        store = threading.Thread(
            target=lambda: stored.append(runtime.ranker.vectors.store(space, [fact.id])))
        with holding_lock(runtime.graph, space) as (tx, holder):
            store.start()
            until(lambda: bool(stored or waiting(runtime.graph, holder, space)),
                  store.is_alive, "the vectors' store ended without a result")
            assert not waiting(runtime.graph, holder, space), "the store waited for the lock"
            tx.rollback()
        store.join()
    assert stored == [1]
    (row,) = cypher(runtime.graph, "OPTIONAL MATCH (v:FactVector {fact_id: $id})"
                    " RETURN v.embedding IS NOT NULL AND v.seq IS NOT NULL AS stored",
                    id=fact.id)
    assert row["stored"]


@contextmanager
def storing_vectors(graph: GraphDriver, space: str, fact_id: str
                    ) -> Iterator[tuple[ManagedTransaction, str]]:
    """An embedding batch of `space` (a vector for `fact_id`) stored by an open transaction
    of this process, and its id: it holds every lock storing vectors takes."""
    tag = uuid.uuid4().hex
    with graph.session() as session:
        tx = session.begin_transaction(metadata={"test": tag})
        stored = run(tx, "recall/set_embeddings",  # type: ignore[arg-type]
                     spaces=[{"key": space, "rows": [{"id": fact_id, "vector": [0.5] * 384}]}])
        assert stored == [{"embedded": 1}]
        yield tx, holder_id(graph, tag)  # type: ignore[misc]


def test_a_writer_never_waits_for_an_embedding_batch(runtime: Runtime) -> None:
    """A write that supersedes and refines facts whose vectors are being stored, in the
    same process, completes while the vectors' transaction is still open."""
    space = isolation.space("race")
    with GraphMem(space=space, runtime=runtime) as mem:
        mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
        settled(mem)
        (fact,) = mem.active("db")
        done: list[str] = []
        write = threading.Thread(target=lambda: done.extend(
            r.action.value for r in mem.remember_facts(
                [{"subject": "db", "value": "Postgres", "confidence": 0.9}])))
        embedding = query("recall/set_embeddings")
        with storing_vectors(runtime.graph, space, fact.id) as (tx, holder):
            write.start()
            until(lambda: bool(done), lambda: not [
                t for t in waiting(runtime.graph, holder, space) if t["query"] != embedding],
                "the write waited for the embedding batch")
            tx.commit()
        write.join()
        assert done == ["SUPERSEDE"]
        assert [f.value for f in mem.active("db")] == ["Postgres"]
    (row,) = cypher(runtime.graph, "MATCH (v:FactVector {fact_id: $id}) RETURN v.space AS space",
                    id=fact.id)
    assert row == {"space": space}


def _write_rounds(settings: Settings, space: str, worker: int, barrier: Barrier) -> None:
    with GraphMem(space=space, settings=settings) as mem:
        mem.active("db")
        barrier.wait()
        for round_ in range(ROUNDS):
            mem.remember_facts([{"subject": "db", "value": f"db-{worker}-{round_}",
                                 "confidence": 0.9}])


def test_processes_writing_one_slot_leave_one_value_and_one_chain(
        runtime: Runtime, settings: Settings) -> None:
    space = isolation.space("conc")
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(WRITERS)
    procs = [ctx.Process(target=_write_rounds,
                         args=(child_settings(settings), space, w, barrier))
             for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
        assert p.exitcode == 0
    with GraphMem(space=space, runtime=runtime) as mem:
        assert len(mem.active("db")) == 1
        chain = mem.history("db").entries
    assert len(chain) == WRITERS * ROUNDS
    superseded = [e.fact for e in chain if e.status == "SUPERSEDED"]
    assert len(superseded) == WRITERS * ROUNDS - 1
    # one linear chain: every fact but the first supersedes exactly one, each at most once
    targets = [t for e in chain for t in e.fact.supersedes]
    assert len(targets) == len(set(targets)) == WRITERS * ROUNDS - 1
    assert {f.id for f in superseded} == set(targets)
    with runtime.graph.session() as session:
        seqs = sorted(r["seq"] for r in session.run(
            "MATCH (o:Outbox {space: $space}) RETURN o.seq AS seq", space=space))
    assert len(seqs) == WRITERS * ROUNDS
    assert seqs == list(range(seqs[0], seqs[0] + WRITERS * ROUNDS)), seqs


def test_hot_facts_map_back_to_facts(runtime: Runtime) -> None:
    with GraphMem(space=isolation.space("map"), runtime=runtime) as mem:
        (result,) = mem.remember_facts([{"subject": "db", "value": "Postgres"}])
        rows = runtime.graph.read("facts/get", space=mem.space.key, id=result.fact_id)
    assert row_to_fact(rows[0]["fact"]).value == "Postgres"
