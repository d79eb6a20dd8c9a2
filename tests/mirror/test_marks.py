"""Marking applied outbox entries done: marks of overlapping entries from several threads of a
process (the marks thread's round, a drain's, shutdown's) never deadlock one another."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest

from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.mirror.marks import Marks
from graphmem.runtime import Runtime

from support.deadlocks import counting_deadlocks, described

pytestmark = pytest.mark.races

THREADS = 4
ROUNDS = 15
WRITES = 40


def entry_ids(runtime: Runtime, space: str) -> list[str]:
    with runtime.graph.session() as s:
        return [r["id"] for r in s.run("MATCH (o:Outbox {space: $space}) RETURN o.id AS id",
                                       space=space)]


def test_concurrent_marks_of_the_same_entries_never_deadlock(
        make_mem: Callable[..., GraphMem], runtime: Runtime) -> None:
    mem = make_mem()
    for i in range(WRITES):
        mem.remember_facts([{"subject": f"slot_{i}", "value": f"value {i}"}])
    ids = entry_ids(runtime, mem.space.key)
    assert len(ids) == WRITES
    marks = Marks(runtime.graph)
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def marker(seed: int) -> None:
        order = random.Random(seed)  # each thread re-adds the entries in its own order
        try:
            start.wait()
            for _ in range(ROUNDS):
                marks.add(order.sample(ids, len(ids)))
                marks.mark()
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            failures.append(e)

    with counting_deadlocks() as log:
        threads = [threading.Thread(target=marker, args=(seed,)) for seed in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []
    assert not log.lines, described(log, runtime.graph)
    assert log.retries == 0
    assert outbox.pending_count(runtime.graph, mem.space.key)[0] == 0


def applied_at(runtime: Runtime, space: str) -> dict[str, object]:
    with runtime.graph.session() as s:
        return {r["id"]: r["at"] for r in s.run(
            "MATCH (o:Outbox {space: $space}) WHERE o.done RETURN o.id AS id,"
            " o.applied_at AS at", space=space)}


def test_an_entry_marked_again_keeps_the_time_it_was_first_applied(
        make_mem: Callable[..., GraphMem], runtime: Runtime) -> None:
    """Two processes may apply one entry and both mark it: the later mark must not make it
    look freshly applied, or pruning by age would keep it past its time."""
    mem = make_mem()
    for i in range(3):
        mem.remember_facts([{"subject": f"slot_{i}", "value": f"value {i}"}])
    mem.records.drain()
    mem.runtime.mirror.mark_applied()
    first = applied_at(runtime, mem.space.key)
    assert len(first) == 3
    outbox.mark_done(runtime.graph, list(first))  # another process's late mark
    assert applied_at(runtime, mem.space.key) == first
    assert outbox.prune(runtime.graph, 0, 1000, spaces=[mem.space.key]) == 3
