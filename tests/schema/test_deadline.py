"""The validation deadline stops graphql-core's work, never a finalizer or a stray generator
the collector closes on the same thread."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import graphql
import pytest

from graphmem.schema.deadline import TooSlow, within

DOCUMENT = "query Q { a { b c(d: 1) { e } } }"


class SlowToFinalize:
    def __del__(self) -> None:
        until = time.monotonic() + 0.02
        while time.monotonic() < until:
            sum(range(50))


def counting() -> Iterator[int]:
    n = 0
    while True:
        n += sum(range(20))
        yield n


def test_the_deadline_is_never_raised_inside_a_finalizer() -> None:
    def work() -> None:
        while True:
            SlowToFinalize()  # finalized at once, inside the hooked thread
            gc.collect(0)
            graphql.parse(DOCUMENT)

    with pytest.raises(TooSlow):  # an unraisable exception would fail the run (warnings=error)
        within(0.05, work)


def test_the_deadline_is_never_raised_inside_a_generator_the_collector_closes() -> None:
    def work() -> None:
        while True:
            stray = counting()
            for _ in range(50):
                next(stray)
            cycle: list[object] = [stray]
            cycle.append(cycle)  # only the cyclic collector closes it, wherever it runs
            del stray, cycle
            gc.collect(0)  # the young generation holds the cycle: no walk of the whole heap
            graphql.parse(DOCUMENT)

    with pytest.raises(TooSlow):
        within(0.05, work)


def test_work_outside_graphql_is_not_interrupted() -> None:
    def work() -> int:
        until = time.monotonic() + 0.1
        total = 0
        while time.monotonic() < until:
            total += len(list(range(10)))
        return total

    assert within(0.01, work) > 0


def test_work_inside_the_deadline_returns_its_value() -> None:
    assert within(5.0, lambda: graphql.parse(DOCUMENT).kind) == "document"


def test_the_collector_s_time_is_not_the_document_s() -> None:
    heap = [[i] for i in range(1_500_000)]  # a full collection walks every one of these
    started = time.thread_time()
    gc.collect()
    collection = time.thread_time() - started  # this machine's cost of one full collection

    def work() -> str:
        gc.collect()  # longer than the whole deadline below
        for _ in range(20):
            graphql.parse(DOCUMENT)
        return graphql.parse(DOCUMENT).kind

    try:
        assert within(collection / 4, work) == "document"
    finally:
        del heap
