"""Turns bound the calls of a server process that compute at once; a call waiting on a
remote model or on its space's write lock lets another run. Real threads throughout."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from graphmem import admission
from graphmem.admission import Turns
from graphmem.graph.space_locks import SpaceLocks
from graphmem.llm import LLM
from graphmem.settings import Settings

from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer

pytestmark = pytest.mark.races

WAIT = 30


def _started(fn: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


def test_no_more_calls_compute_at_once_than_there_are_turns() -> None:
    turns = Turns(2)
    lock = threading.Lock()
    running, peak = 0, 0
    first_two = threading.Barrier(2, timeout=WAIT)  # broken unless 2 run together

    def call() -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        first_two.wait()
        with lock:
            running -= 1

    threads = [_started(lambda: turns.run(call)) for _ in range(6)]
    for thread in threads:
        thread.join(WAIT)
    assert not any(t.is_alive() for t in threads)
    assert peak == 2
    assert not first_two.broken


def test_a_call_holding_a_turn_keeps_it_in_a_nested_run() -> None:
    turns = Turns(1)
    assert turns.run(lambda: turns.run(admission.holding)) is True
    assert admission.holding() is False


def test_a_call_waiting_on_the_model_lets_another_call_run(llm: LLMServer,
                                                           settings: Settings) -> None:
    model = LLM(settings.model_copy(update=llm_overrides(llm)))
    turns = Turns(1)
    arrived, release = llm.hold()
    answers: list[str] = []
    asking = _started(lambda: answers.append(turns.run(
        lambda: model.complete_text("system", "question"))))
    try:
        assert arrived.wait(WAIT), "the model never saw the call"
        other = threading.Event()
        _started(lambda: turns.run(other.set))
        assert other.wait(WAIT), "a call waiting on the model kept its turn"
    finally:
        release.set()
    asking.join(WAIT)
    assert len(answers) == 1
    model.close()


def test_calls_queued_on_a_busy_space_let_calls_of_other_spaces_run() -> None:
    """Two turns: one call holds space a's lock, two more queue for it; a call on space b
    still runs, and every call finishes once a is free (no turn is held while waiting)."""
    turns, locks = Turns(2), SpaceLocks()
    holding_a, free_a, done = threading.Event(), threading.Event(), []

    def hold_a() -> None:
        with locks.held("a"):
            holding_a.set()
            assert free_a.wait(WAIT)
        done.append("first a")

    def queue_on_a() -> None:
        with locks.held("a"):
            done.append("queued a")

    def on_b() -> None:
        with locks.held("b"):
            done.append("b")

    first = _started(lambda: turns.run(hold_a))
    assert holding_a.wait(WAIT)
    queued = [_started(lambda: turns.run(queue_on_a)) for _ in range(2)]
    other = _started(lambda: turns.run(on_b))
    other.join(WAIT)
    assert done == ["b"], "a call on another space waited behind the busy one"
    free_a.set()
    for thread in [first, *queued]:
        thread.join(WAIT)
    assert sorted(done) == ["b", "first a", "queued a", "queued a"]


def test_outside_a_server_calls_take_no_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(admission, "_process", None)
    assert admission.run(admission.holding) is False
    with admission.waiting():
        assert admission.holding() is False


def test_turns_are_granted_in_arrival_order() -> None:
    turns = Turns(1)
    first_in, release = threading.Event(), threading.Event()
    order: list[int] = []

    def first() -> None:
        first_in.set()
        assert release.wait(WAIT)

    holder = _started(lambda: turns.run(first))
    assert first_in.wait(WAIT)
    waiters = []
    for n in range(5):
        waiters.append(_started(lambda n=n: turns.run(lambda: order.append(n))))
        while len(turns._waiters) < n + 1:  # each one queued before the next arrives
            threading.Event().wait(0.001)
    release.set()
    for thread in [holder, *waiters]:
        thread.join(WAIT)
    assert order == [0, 1, 2, 3, 4]


def test_a_call_back_from_waiting_goes_ahead_of_calls_not_yet_started() -> None:
    turns = Turns(1)
    in_wait, back, holder_in, free = (threading.Event() for _ in range(4))
    order: list[str] = []

    def returning() -> None:
        with admission.waiting():
            in_wait.set()
            assert back.wait(WAIT)
        order.append("returning")

    def hold() -> None:
        holder_in.set()
        assert free.wait(WAIT)

    threads = [_started(lambda: turns.run(returning))]
    assert in_wait.wait(WAIT)
    threads.append(_started(lambda: turns.run(hold)))
    assert holder_in.wait(WAIT)
    threads.append(_started(lambda: turns.run(lambda: order.append("new"))))
    while len(turns._waiters) < 1:
        threading.Event().wait(0.001)
    back.set()
    while len(turns._waiters) < 2:
        threading.Event().wait(0.001)
    free.set()
    for thread in threads:
        thread.join(WAIT)
    assert order == ["returning", "new"]
