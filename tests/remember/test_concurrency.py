"""Writes to one space are serialized across processes; other spaces do not wait."""

from __future__ import annotations

import multiprocessing as mp
import threading
import uuid
from datetime import UTC, datetime

from graphmem import GraphMem
from graphmem.graph.driver import run
from graphmem.graph.facts import row_to_fact
from graphmem.model import Space
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

WRITERS = 4
ROUNDS = 5


def _writer(space: str, worker: int, home: str, barrier: mp.synchronize.Barrier) -> None:
    settings = load_settings(home=home)
    with GraphMem(space=space, settings=settings) as mem:
        barrier.wait()
        for round_ in range(ROUNDS):
            mem.remember_facts([{"subject": "db", "value": f"db-{worker}-{round_}",
                                 "confidence": 0.9}])


def test_processes_writing_one_slot_leave_one_value_and_one_chain(
        runtime: Runtime, settings: Settings) -> None:
    space = f"conc-{uuid.uuid4().hex[:10]}"
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(WRITERS)
    procs = [ctx.Process(target=_writer, args=(space, w, str(settings.home), barrier))
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


def test_other_spaces_do_not_wait_for_a_held_space_lock(runtime: Runtime) -> None:
    held, other = f"lock-{uuid.uuid4().hex[:8]}", f"free-{uuid.uuid4().hex[:8]}"
    same_done, other_done = threading.Event(), threading.Event()

    def write(space: str, done: threading.Event) -> None:
        with GraphMem(space=space, runtime=runtime) as mem:
            mem.remember_facts([{"subject": "db", "value": "Postgres"}])
        done.set()

    with runtime.graph.session() as session:
        tx = session.begin_transaction()
        run(tx, "spaces/lock_with_policy", space=Space.parse(held).key,  # type: ignore[arg-type]
            now=datetime.now(UTC))
        blocked = threading.Thread(target=write, args=(held, same_done))
        free = threading.Thread(target=write, args=(other, other_done))
        blocked.start()
        free.start()
        assert other_done.wait(timeout=60), "a write to another space waited for the lock"
        assert not same_done.is_set(), "a write to the locked space did not wait"
        tx.commit()
    blocked.join(timeout=60)
    free.join(timeout=60)
    assert same_done.is_set()


def test_hot_facts_map_back_to_facts(runtime: Runtime) -> None:
    with GraphMem(space=f"map-{uuid.uuid4().hex[:8]}", runtime=runtime) as mem:
        (result,) = mem.remember_facts([{"subject": "db", "value": "Postgres"}])
        rows = runtime.graph.read("facts/get", space=mem.key, id=result.fact_id)
    assert row_to_fact(rows[0]["fact"]).value == "Postgres"
