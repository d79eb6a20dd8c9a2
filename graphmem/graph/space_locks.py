"""One in-process lock per space, held around every transaction of this process that takes the
space's Space-node lock (a write, an erasure).

Neo4j serialises them on the Space node anyway; doing it here first means two transactions
of one process never wait for each other inside Neo4j, where its deadlock detector (which
tracks waits by lock client, and a client outlives its transaction) can report two of them
as a cycle and abort one. Writers of other processes still queue on the Space node.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from graphmem import admission


class _Entry:
    """A space's lock and how many threads hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.users = 0


class SpaceLocks:
    """The locks of the spaces in use: a space's entry lives while some thread holds or waits
    for its lock, so a long-running process that touches many spaces keeps none it is not
    using."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, _Entry] = {}

    @contextmanager
    def held(self, space: str) -> Iterator[None]:
        """Hold `space`'s lock for the block (re-entrant in one thread); a call waiting for
        it gives its turn to another (`graphmem.admission`)."""
        with self._guard:
            entry = self._locks.get(space)
            if entry is None:
                entry = self._locks[space] = _Entry()
            entry.users += 1
        try:
            with admission.waiting():
                entry.lock.acquire()
            try:
                yield
            finally:
                entry.lock.release()
        finally:
            with self._guard:
                entry.users -= 1
                if entry.users == 0:
                    del self._locks[space]

    def in_use(self) -> int:
        """How many spaces have a lock now (held or waited for)."""
        with self._guard:
            return len(self._locks)
