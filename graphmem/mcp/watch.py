"""Change notifications for the space resources, by polling the spaces' write counters.

Every write transaction of a space bumps the counter on its Space node under the space's
lock (whatever process wrote: this server, another worker, the CLI, the Python API). While
at least one client is subscribed to a space's resource, the watcher reads the counters of
the watched spaces in one query every GRAPHMEM_MCP_POLL_SECONDS and notifies the subscribers
of every space whose counter moved: `notifications/resources/updated` for a client that
called `resources/subscribe` (protocol versions up to 2025-11-25), and a `ResourceUpdated`
event on the SDK's subscription bus for `subscriptions/listen` streams (2026-07-28). The
baseline is read when the subscription is made, so a write right after it is not missed.
Nothing is polled while nobody is subscribed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.subscriptions import ResourceUpdated, SubscriptionBus

from graphmem.runtime import Runtime
from graphmem.service.write_counts import write_counts

log = logging.getLogger("graphmem.mcp.watch")

MAX_PER_CONNECTION = 100


@dataclass
class Watched:
    space: str
    streams: int = 0  # open subscriptions/listen streams naming the URI
    sessions: dict[int, Any] = field(default_factory=dict)  # connection → its ServerSession


class Watcher:
    def __init__(self, runtime: Runtime, bus: SubscriptionBus, interval: float) -> None:
        self.runtime = runtime
        self.bus = bus
        self.interval = interval
        self._uris: dict[str, Watched] = {}
        self._seen: dict[str, int] = {}
        self._per_connection: dict[int, set[str]] = {}

    @property
    def spaces(self) -> set[str]:
        return {w.space for w in self._uris.values()}

    async def _baseline(self, space: str) -> None:
        if space not in self._seen:
            counts = await anyio.to_thread.run_sync(write_counts, self.runtime, [space])
            self._seen.setdefault(space, counts.get(space, 0))

    async def watch(self, uri: str, space: str) -> Callable[[], None]:
        """A listen stream names `uri` until the returned release is called."""
        await self._baseline(space)
        watched = self._uris.setdefault(uri, Watched(space))
        watched.streams += 1

        def release() -> None:
            watched.streams -= 1
            self._forget_if_idle(uri)

        return release

    async def subscribe(self, connection: int, session: Any, uri: str, space: str) -> None:
        """A `resources/subscribe` of one connection (idempotent)."""
        uris = self._per_connection.setdefault(connection, set())
        if uri not in uris and len(uris) >= MAX_PER_CONNECTION:
            raise ValueError(f"at most {MAX_PER_CONNECTION} resource subscriptions per"
                             " connection")
        await self._baseline(space)
        self._uris.setdefault(uri, Watched(space)).sessions[connection] = session
        uris.add(uri)

    def knows(self, connection: int) -> bool:
        return connection in self._per_connection

    def unsubscribe(self, connection: int, uri: str) -> None:
        watched = self._uris.get(uri)
        if watched is not None:
            watched.sessions.pop(connection, None)
            self._forget_if_idle(uri)
        self._per_connection.get(connection, set()).discard(uri)

    def drop_connection(self, connection: int) -> None:
        for uri in self._per_connection.pop(connection, set()):
            self.unsubscribe(connection, uri)

    def _forget_if_idle(self, uri: str) -> None:
        watched = self._uris.get(uri)
        if watched is not None and watched.streams <= 0 and not watched.sessions:
            del self._uris[uri]
            if watched.space not in self.spaces:
                self._seen.pop(watched.space, None)

    async def run(self) -> None:
        while True:
            await anyio.sleep(self.interval)
            try:
                await self.poll()
            except Exception as e:  # a store outage must not end the watcher
                log.warning("polling the watched spaces failed: %s: %s", type(e).__name__, e)

    async def poll(self) -> None:
        """One round: read the counters, notify the subscribers of the spaces that moved."""
        spaces = self.spaces
        if not spaces:
            return
        counts = await anyio.to_thread.run_sync(write_counts, self.runtime, spaces)
        moved = {s for s in spaces if counts.get(s, 0) != self._seen.get(s)}
        self._seen.update({s: counts.get(s, 0) for s in spaces})
        for uri, watched in list(self._uris.items()):
            if watched.space not in moved:
                continue
            if watched.streams > 0:
                await self.bus.publish(ResourceUpdated(uri=uri))
            for session in list(watched.sessions.values()):
                await session.send_resource_updated(uri)
