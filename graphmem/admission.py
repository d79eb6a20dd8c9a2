"""Turns: how many calls of one server process compute at once.

Two cores run a few calls well and forty calls badly: every extra runnable thread adds
switching and interpreter-lock handoffs and stretches the tail of every call. A call takes a
turn before it runs and gives it back while it waits on something that is not this process's
CPU (a remote model, its space's write lock), so a slow model or a busy space does not keep
the other calls out. Outside a server nothing takes turns and `waiting` does nothing.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_held = threading.local()


class Turns:
    """A fixed number of turns, granted in arrival order (a call coming back from `waiting`
    first); a thread holds at most one.

    A freed turn is handed straight to the longest waiter, so a newcomer never overtakes a
    call that has been waiting (a plain semaphore lets it, which stretches the tail)."""

    def __init__(self, turns: int) -> None:
        if turns < 1:
            raise ValueError("turns must be at least 1")
        self.turns = turns
        self._lock = threading.Lock()
        self._free = turns
        self._waiters: deque[threading.Lock] = deque()

    def run(self, fn: Callable[[], T]) -> T:
        """`fn()` on this thread, once a turn is free; a thread that holds one already keeps it."""
        if getattr(_held, "turns", None) is not None:
            return fn()
        self._take()
        try:
            return fn()
        finally:
            self._give_back()

    def _take(self, first: bool = False) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                _held.turns = self
                return
            handed = threading.Lock()
            handed.acquire()
            if first:
                self._waiters.appendleft(handed)
            else:
                self._waiters.append(handed)
        handed.acquire()  # released by the call that hands this one its turn
        _held.turns = self

    def _give_back(self) -> None:
        _held.turns = None
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._free += 1


@contextmanager
def waiting() -> Iterator[None]:
    """Give this thread's turn to another call for the block, and take one again after it,
    ahead of the calls that have not started: this call was admitted once, and it may now
    hold its space's write lock, which the calls queued on that space are waiting for."""
    turns: Turns | None = getattr(_held, "turns", None)
    if turns is None:
        yield
        return
    turns._give_back()
    try:
        yield
    finally:
        turns._take(first=True)


def holding() -> bool:
    """Whether this thread holds a turn now."""
    return getattr(_held, "turns", None) is not None


_process: Turns | None = None


def configure(turns: int | None) -> None:
    """Set this process's turns (a server does at start); None: calls take no turn."""
    global _process
    _process = Turns(turns) if turns is not None else None


def run(fn: Callable[[], T]) -> T:
    """`fn()` under one of this process's turns, if it has any."""
    turns = _process
    return fn() if turns is None else turns.run(fn)
