"""The validation deadline stops the work itself, never a finalizer the collector runs."""

from __future__ import annotations

import gc
import time

import pytest

from graphmem.schema.deadline import TooSlow, within


class SlowToFinalize:
    def __del__(self) -> None:
        until = time.monotonic() + 0.02
        while time.monotonic() < until:
            sum(range(50))


def test_the_deadline_is_never_raised_inside_a_finalizer() -> None:
    def work() -> None:
        while True:
            SlowToFinalize()  # finalized at once, inside the hooked thread
            gc.collect(0)

    with pytest.raises(TooSlow):  # an unraisable exception would fail the run (warnings=error)
        within(0.05, work)


def test_work_inside_the_deadline_returns_its_value() -> None:
    assert within(5.0, lambda: sum(range(1000))) == 499500
