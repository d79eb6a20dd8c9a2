"""The in-process space locks, with real threads: one space at a time, spaces in parallel,
re-entrant, and no entry kept for a space nobody is using."""

from __future__ import annotations

import threading

import pytest

from graphmem.graph.space_locks import SpaceLocks

pytestmark = pytest.mark.races

WAIT = 10.0  # seconds a thread may take to reach a point; never a timing assertion


def test_one_space_is_held_by_one_thread_at_a_time() -> None:
    locks = SpaceLocks()
    inside, release, second_in = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:
        with locks.held("t/a"):
            inside.set()
            release.wait(WAIT)

    def second() -> None:
        with locks.held("t/a"):
            second_in.set()

    one = threading.Thread(target=first)
    one.start()
    assert inside.wait(WAIT)
    two = threading.Thread(target=second)
    two.start()
    assert not second_in.wait(0.2), "the second writer got in while the first held the space"
    assert locks.in_use() == 1  # the waiter keeps the entry alive
    release.set()
    assert second_in.wait(WAIT)
    one.join(WAIT)
    two.join(WAIT)
    assert locks.in_use() == 0


def test_different_spaces_are_held_at_once() -> None:
    locks = SpaceLocks()
    both = threading.Barrier(2, timeout=WAIT)

    def hold(space: str) -> None:
        with locks.held(space):
            both.wait()  # breaks (and fails the test) unless both are inside together

    threads = [threading.Thread(target=hold, args=(s,)) for s in ("t/a", "t/b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert not both.broken
    assert locks.in_use() == 0


def test_a_thread_takes_its_own_space_again() -> None:
    locks = SpaceLocks()
    with locks.held("t/a"), locks.held("t/a"):
        assert locks.in_use() == 1
    assert locks.in_use() == 0


def test_no_entry_is_kept_after_use_even_after_an_error() -> None:
    locks = SpaceLocks()
    for n in range(1000):
        with locks.held(f"t/space-{n}"):
            pass
    with pytest.raises(RuntimeError), locks.held("t/failing"):
        raise RuntimeError("the write failed")
    assert locks.in_use() == 0
