"""A lone writer never deadlocks, nor do writers on separate spaces: every transaction of a
process (writes, and the mirror's, marks' and embedding threads' background work) takes
its locks in one global order, the space's lock first.

Counted from the logs over real runs (support/deadlocks.py): one writer whose writes keep
superseding the facts the embedding thread is storing vectors for and projecting entities
and edges, and eight threads each writing its own space. Both must log no DeadlockDetected
and no retry; both check that every write landed and reached the mirror.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.model import Action

from support.background import settled
from support.deadlocks import counting_deadlocks, described

pytestmark = pytest.mark.races

SINGLE_WRITES = 120
WRITERS = 8
WRITES_EACH = 20
PEOPLE = 6  # slots revisited: most writes supersede a fact written a few writes earlier


def fact(i: int) -> dict[str, Any]:
    """Employer facts of a few people: entities, ABOUT edges and a typed edge per write, and a
    supersede of the person's previous employer once each slot exists."""
    person = i % PEOPLE
    return {"subject": f"person_{person}_employer", "value": f"Company {i}",
            "head": f"Person {person}", "head_type": "person", "relation": "works at",
            "tail": f"Company {i}", "tail_type": "organization", "confidence": 0.9}


def write_all(mem: GraphMem, count: int) -> list[Action]:
    return [r.action for i in range(count) for r in mem.remember_facts([fact(i)])]


def check_space(mem: GraphMem, actions: list[Action], count: int) -> None:
    assert len(actions) == count
    assert actions.count(Action.ADD) == PEOPLE
    assert actions.count(Action.SUPERSEDE) == count - PEOPLE
    last = {p: max(i for i in range(count) if i % PEOPLE == p) for p in range(PEOPLE)}
    active = {f.subject: f.value for f in mem.active()}
    assert active == {f"person_{p}_employer": f"Company {i}" for p, i in last.items()}


def test_a_lone_writer_never_deadlocks_with_its_background_work(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    with counting_deadlocks() as log:
        actions = write_all(mem, SINGLE_WRITES)
        settled(mem)
    assert not log.lines, described(log, mem.runtime.graph)
    assert log.retries == 0
    check_space(mem, actions, SINGLE_WRITES)


def test_eight_writers_on_eight_spaces_never_deadlock(
        make_mem: Callable[..., GraphMem]) -> None:
    mems = [make_mem() for _ in range(WRITERS)]
    found: dict[int, list[Action]] = {}
    failures: list[BaseException] = []
    start = threading.Barrier(WRITERS)

    def writer(index: int) -> None:
        try:
            start.wait()
            found[index] = write_all(mems[index], WRITES_EACH)
        except BaseException as e:  # noqa: BLE001 - reported by the test thread
            failures.append(e)

    with counting_deadlocks() as log:
        threads = [threading.Thread(target=writer, args=(i,), name=f"writer-{i}")
                   for i in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for mem in mems:
            settled(mem)
    assert failures == []
    assert not log.lines, described(log, mems[0].graph)
    assert log.retries == 0
    for index, mem in enumerate(mems):
        check_space(mem, found[index], WRITES_EACH)
