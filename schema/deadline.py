"""A deadline for pure-Python work on a worker thread.

Validating a hostile document can be quadratic inside graphql-core, where no check of ours
runs. A profile hook on the worker thread sees every Python call there; once the deadline
has passed it raises `TooSlow` at graphql-core's next plain function call, which stops the
work there. The hook lives only for the call, on that thread alone.
"""

from __future__ import annotations

import gc
import inspect
import os
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

import graphql

T = TypeVar("T")
CHECK_EVERY = 128  # profile events between two looks at the clock


class TooSlow(BaseException):
    """The deadline passed. A BaseException, so no `except Exception` in library code can
    swallow it and carry on without the hook."""


_GRAPHQL = os.path.dirname(inspect.getfile(graphql))
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _stoppable(frame: FrameType | None) -> bool:
    """Whether raising here stops the work and nothing else. The garbage collector may run a
    finalizer or close a stray generator of any library on this thread; an exception raised
    there is printed and swallowed, so the stop waits for graphql-core's own next plain call."""
    if frame is None or frame.f_code.co_flags & _RESUMABLE:
        return False
    if not frame.f_code.co_filename.startswith(_GRAPHQL):
        return False
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return False
        frame = frame.f_back
    return True


class _Collections(threading.local):
    """The garbage collector's CPU time on this thread while a deadline runs: a full
    collection of a large heap can take longer than the whole check, and it is not the
    document's work."""

    active = False
    started = 0.0
    spent = 0.0


_collections = _Collections()


def _on_collection(phase: str, info: dict[str, int]) -> None:
    state = _collections
    if not state.active:
        return
    if phase == "start":
        state.started = time.thread_time()
    else:
        state.spent += time.thread_time() - state.started


gc.callbacks.append(_on_collection)


def within(seconds: float, fn: Callable[[], T]) -> T:
    """`fn()`, or TooSlow once it has used `seconds` of this thread's CPU time: a loaded
    machine, where the thread waits for a core or for the GIL, does not stop honest work."""
    deadline = time.thread_time() + seconds
    events = 0
    state = _collections
    state.active, state.spent = True, 0.0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal events
        events += 1
        if (events % CHECK_EVERY == 0 and time.thread_time() - state.spent > deadline
                and _stoppable(frame)):
            sys.setprofile(None)
            raise TooSlow

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        return fn()
    finally:
        sys.setprofile(previous)
        state.active = False
