"""A deadline for pure-Python work on a worker thread.

Validating a hostile document can be quadratic inside graphql-core, where no check of ours
runs. A profile hook on the worker thread sees every Python call there; once the deadline
has passed it raises `TooSlow`, which stops the work wherever it is. The hook lives only for
the call, on that thread alone.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
CHECK_EVERY = 128  # profile events between two looks at the clock


class TooSlow(BaseException):
    """The deadline passed. A BaseException, so no `except Exception` in library code can
    swallow it and carry on without the hook."""


def _finalizing(frame: FrameType | None) -> bool:
    """Whether the garbage collector runs a finalizer here: an exception raised inside a
    `__del__` is printed and swallowed, so the stop waits for the work's own next call."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def within(seconds: float, fn: Callable[[], T]) -> T:
    """`fn()`, or TooSlow once it has run for `seconds`."""
    deadline = time.monotonic() + seconds
    events = 0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal events
        events += 1
        if (events % CHECK_EVERY == 0 and time.monotonic() > deadline
                and not _finalizing(frame)):
            sys.setprofile(None)
            raise TooSlow

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        return fn()
    finally:
        sys.setprofile(previous)
