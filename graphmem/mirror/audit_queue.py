"""The audit queue: rows on their way to the chain, in call order, with bounded memory.

Audit rows never wait on the relational store in the caller's path: an operation puts its
row on this bounded in-memory queue and returns. The mirror's worker writes the queue in call
order, many rows per relational transaction. A full queue makes callers wait (back-pressure)
while the store keeps up; when the store is down, the oldest queued rows are dropped with an
error log instead, so memory stays bounded and the graph goes on.

Writes are not exposed to that loss: an audited call's row is committed with its outbox
entry, in the graph transaction, and whoever applies the entry appends the row in the same
relational transaction (see `drain`). The call itself queues only a `Marker` at its place in
the call order; the worker applies the entry there, so rows keep the order of the calls (a
write's row may come earlier than its marker, never before the call began).

Every item gets a ticket (its place in the queue); `written` retires the items up to a ticket
once they are in the store, so a flush knows when everything queued before it is written.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

from graphmem.mirror.audit import AuditEntry

log = logging.getLogger(__name__)

AUDIT_QUEUE = 10_000  # queued rows and write markers held in memory at most


@dataclass(frozen=True)
class Marker:
    """A write's place in the call order; its row travels in its outbox entries, named here
    as (space, event id)."""

    events: tuple[tuple[str, str], ...]


Item = AuditEntry | Marker


class AuditQueue:
    """Queued items with their tickets. `wake` starts the worker (if need be) and wakes it;
    `in_worker` tells whether the calling thread is that worker, which never waits on itself."""

    def __init__(self, wake: Callable[[], None], in_worker: Callable[[], bool]) -> None:
        self._wake = wake
        self._in_worker = in_worker
        self._cond = threading.Condition()
        self._items: deque[tuple[int, Item]] = deque()
        self._ticket = 0  # the last ticket handed out
        self._done = 0  # every item up to this ticket is written (or was dropped)
        self._failing = False
        self._dropped = 0

    def put(self, item: Item) -> None:
        """Queue `item` behind everything queued before; waits while the queue is full and the
        store keeps up, drops the oldest item while the store fails."""
        with self._cond:
            while len(self._items) >= AUDIT_QUEUE:
                if self._failing or self._in_worker():
                    self._drop_oldest()  # bounded memory while the store is down
                    continue
                self._wake()
                self._cond.wait(timeout=1.0)  # back-pressure while the store keeps up
            self._ticket += 1
            self._items.append((self._ticket, item))
        self._wake()

    def _drop_oldest(self) -> None:
        ticket, _ = self._items.popleft()
        self._done = max(self._done, ticket)
        self._dropped += 1
        if self._dropped % 1000 == 1:
            log.error("audit queue full (%d) while the relational store fails: %d"
                      " read/denial row(s) dropped so far (writes keep theirs in"
                      " the outbox)", AUDIT_QUEUE, self._dropped)

    def last_ticket(self) -> int:
        """The ticket of the item queued last (0 before the first)."""
        with self._cond:
            return self._ticket

    def written_through(self, ticket: int) -> bool:
        """Whether every item up to `ticket` is written (or was dropped)."""
        with self._cond:
            return self._done >= ticket

    def snapshot(self, limit: int) -> tuple[int, list[tuple[int, Item]]]:
        """The last ticket handed out and the first `limit` items, read together."""
        with self._cond:
            return self._ticket, list(islice(self._items, limit))

    def peek(self, limit: int) -> list[tuple[int, Item]]:
        """The first `limit` items, oldest first."""
        with self._cond:
            return list(islice(self._items, limit))

    def written(self, taken: int) -> None:
        """The items up to ticket `taken` are in the store: retire them, wake waiting callers."""
        with self._cond:
            while self._items and self._items[0][0] <= taken:
                self._items.popleft()
            self._done = max(self._done, taken)
            self._cond.notify_all()

    def store_failed(self) -> None:
        """The store failed a pass: waiting callers drop the oldest items instead of waiting."""
        with self._cond:
            self._failing = True
            self._cond.notify_all()

    def store_works(self) -> None:
        """A pass went through: a full queue makes callers wait again."""
        self._failing = False

    @property
    def backlog(self) -> int:
        return len(self._items)

    @property
    def dropped(self) -> int:
        return self._dropped
