"""The change feed: subscriptions fed from the durable change log, for every writer.

Every graph write commits its outbox entries with it (`graphmem.graph.outbox`), in the
space's commit order. A process that has subscribers follows the spaces they watch: one
statement per poll reads, for every followed space, the entries committed since the last
one seen (`outbox/follow`), every GRAPHMEM_CHANGE_POLL_SECONDS, and at once after a write
this process committed. New events go into a bounded buffer per space that every subscriber
of the space reads from, so a write made anywhere (another worker, another host, the CLI,
the Python API) reaches every subscriber of every process, in commit order.

A subscriber names where to start: `after` a cursor (an event's key), or now. Behind the
buffer (a reconnecting client, a slow one) it reads the log itself from its cursor: the
graph's outbox while it keeps the entries, the mirror's `events` table for older ones (the
graph prunes applied entries after GRAPHMEM_OUTBOX_KEEP_SECONDS, and an erasure removes the
applied entries of its space and rewrites the rest without what it erased; the mirror keeps
every applied entry, rewritten the same way). Nothing is missed or repeated.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import AsyncGenerator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from graphmem.graph import outbox
from graphmem.graph.outbox import OutboxEntry
from graphmem.mirror.listings import events_from
from graphmem.runtime import Runtime
from graphmem.service.changes import END, Change, EventKey, events

log = logging.getLogger(__name__)
T = TypeVar("T")
BATCH = 500  # entries read per space per statement
BUFFER = 2000  # events kept per followed space


@dataclass
class _Tail:
    """One followed space in this process: events after `start` up to `position` are all in
    `buffer`; `changed` is set (and replaced) whenever more arrive."""

    position: tuple[int, str] | None = None
    start: EventKey | None = None
    placed: float = 0.0  # monotonic time the tail was placed (its first poll)
    buffer: deque[Change] = field(default_factory=lambda: deque(maxlen=BUFFER))
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    subscribers: int = 0

    def add(self, found: Iterable[Change]) -> None:
        for change in found:
            if len(self.buffer) == self.buffer.maxlen:
                self.start = self.buffer[0].key  # the oldest leaves: read it from the log
            self.buffer.append(change)

    def notify(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


class ChangeLog:
    """One space's log read from a cursor on: the graph's outbox, and below the floor (what
    pruning or an erasure removed from the graph) the mirror's copy."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def after(self, space: str, cursor: EventKey, limit: int = BATCH
              ) -> tuple[list[Change], EventKey, bool]:
        """(the events after `cursor`, the key read up to, whether more may follow)."""
        seq, ident, _ = cursor
        floor, entries = outbox.since(self.runtime.graph, space, seq, ident, limit)
        capped = [entries[-1]] if len(entries) >= limit else []
        if seq < floor:
            older = self._mirrored(space, seq, ident, limit)
            if len(older) >= limit:
                capped.append(older[-1])
            entries = list({e.id: e for e in [*older, *entries]}.values())
        bound = min(((e.seq or 0, e.id) for e in capped), default=None)
        entries = sorted((e for e in entries if bound is None or (e.seq or 0, e.id) <= bound),
                         key=lambda e: (e.seq or 0, e.id))
        found = [c for e in entries for c in events(e) if c.key > cursor]
        reached = (entries[-1].seq or 0, entries[-1].id, END) if entries else cursor
        return found, max(reached, cursor), bool(capped)

    def _mirrored(self, space: str, seq: int, ident: str, limit: int) -> list[OutboxEntry]:
        mirror = self.runtime.mirror
        return [OutboxEntry(e.id, space, e.kind, e.payload,
                            datetime.fromisoformat(e.created_at), e.seq)
                for e in events_from(self.runtime.store, mirror.cipher, space, seq, ident,
                                     limit)]

    def since(self, space: str, at: datetime, limit: int = BATCH
              ) -> tuple[list[Change], EventKey]:
        """Where a subscriber that names no cursor starts: the events of entries created at or
        after `at` and committed by now, and the key after them."""
        head, entries = outbox.since_time(self.runtime.graph, space, at, limit)
        found = [c for e in entries for c in events(e)]
        if len(entries) >= limit:
            return found, (entries[-1].seq or 0, entries[-1].id, END)
        return found, (*head, END)


class ChangeFeed:
    """The feed of one process (one per app): subscribers of any space, one poll for all."""

    def __init__(self, runtime: Runtime, interval: float) -> None:
        self.runtime = runtime
        self.log = ChangeLog(runtime)
        self.interval = interval
        self._tails: dict[str, _Tail] = {}
        self._wake: asyncio.Event | None = None
        self._poller: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._failing = False
        runtime.commit_listeners.append(self._committed)

    # ---- subscribing -------------------------------------------------------------------
    def subscribe(self, space: str, channels: frozenset[str],
                  after: EventKey | None = None) -> AsyncGenerator[Change, None]:
        """The events of `space` on `channels`: after the cursor `after`, or from now on (the
        instant of this call: a write that begins afterwards is delivered)."""
        return self._events(space, channels, after, datetime.now(UTC))

    async def _events(self, space: str, channels: frozenset[str], after: EventKey | None,
                      started: datetime) -> AsyncGenerator[Change, None]:
        tail = self._join(space)
        try:
            if after is None:
                found, cursor = await self._thread(self.log.since, space, started)
                for change in found:
                    if change.channel in channels:
                        yield change
            else:
                cursor = after
            while True:
                if tail.start is not None and cursor >= tail.start:
                    waiting = tail.changed
                    fresh = [c for c in tail.buffer if c.key > cursor]
                    for change in fresh:
                        cursor = change.key
                        if change.channel in channels:
                            yield change
                    if tail.position is not None:
                        cursor = max(cursor, (*tail.position, END))
                    if not fresh:
                        await waiting.wait()
                    continue
                read_at = time.monotonic()
                waiting = tail.changed
                found, cursor, more = await self._thread(self.log.after, space, cursor)
                for change in found:
                    if change.channel in channels:
                        yield change
                if found or more:
                    continue
                if tail.start is not None and tail.placed <= read_at:
                    cursor = max(cursor, tail.start)  # nothing between: join the buffer
                else:
                    await waiting.wait()
        finally:
            self._leave(space)

    def _join(self, space: str) -> _Tail:
        tail = self._tails.get(space)
        if tail is None:
            tail = self._tails[space] = _Tail()
        tail.subscribers += 1
        self._ensure_poller()
        return tail

    def _leave(self, space: str) -> None:
        tail = self._tails.get(space)
        if tail is not None:
            tail.subscribers -= 1
            if tail.subscribers <= 0:
                del self._tails[space]

    # ---- following --------------------------------------------------------------------------
    def _ensure_poller(self) -> None:
        loop = asyncio.get_running_loop()
        if self._poller is None or self._poller.done():
            self._loop = loop
            self._wake = asyncio.Event()
            self._poller = loop.create_task(self._follow(), name="graphmem-change-feed")
        self.wake()

    def wake(self) -> None:
        """Poll now (thread-safe: writes committed by this process call it)."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                wake.set()
                return
        except RuntimeError:
            pass
        loop.call_soon_threadsafe(wake.set)

    def _committed(self, space: str) -> None:
        if space in self._tails:
            self.wake()

    async def _follow(self) -> None:
        assert self._wake is not None
        while self._tails:
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval)
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                more = await self._poll()
            except Exception as e:  # noqa: BLE001 - the feed retries; subscribers wait
                if not self._failing:
                    log.warning("the change feed could not read the outbox (retrying every"
                                " %.2fs): %s", self.interval, e)
                self._failing = True
                continue
            self._failing = False
            if more:
                self._wake.set()

    async def _poll(self) -> bool:
        tails = dict(self._tails)
        if not tails:
            return False
        positions = [(space, t.position[0] if t.position else None,
                      t.position[1] if t.position else "") for space, t in tails.items()]
        found = await self._thread(outbox.follow, self.runtime.graph, positions, BATCH)
        more = False
        for followed in found:
            tail = tails[followed.space]
            placed = tail.position is None
            if placed:
                assert followed.head is not None
                tail.position = followed.head
                tail.start = (*followed.head, END)
                tail.placed = time.monotonic()
            for entry in followed.entries:
                tail.add(events(entry))
                tail.position = (entry.seq or 0, entry.id)
            more = more or len(followed.entries) >= BATCH
            if placed or followed.entries:
                tail.notify()
        return more

    async def _thread(self, fn: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def close(self) -> None:
        if self._committed in self.runtime.commit_listeners:
            self.runtime.commit_listeners.remove(self._committed)
        poller, self._poller = self._poller, None
        if poller is not None:
            poller.cancel()
            try:
                await poller
            except asyncio.CancelledError:
                pass
