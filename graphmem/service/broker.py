"""An in-process publish/subscribe broker for GraphQL subscriptions.

Mutations publish after they succeed; each subscriber has a bounded queue, and a subscriber
too slow to keep up loses its oldest events rather than stalling writers. It lives on the
app state, so with several workers a subscriber sees the changes made through its worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

Topic = tuple[str, str]


class Broker:
    def __init__(self, queue_size: int = 256) -> None:
        self.queue_size = queue_size
        self._queues: dict[Topic, set[asyncio.Queue[Any]]] = {}

    def publish(self, channel: str, space: str, event: Any) -> int:
        """Deliver to every subscriber of (channel, space); returns how many got it."""
        queues = self._queues.get((channel, space), set())
        for queue in queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)
        return len(queues)

    def subscribers(self, channel: str, space: str) -> int:
        return len(self._queues.get((channel, space), ()))

    async def subscribe(self, channel: str, space: str) -> AsyncGenerator[Any, None]:
        """Events of (channel, space) from now on, until the consumer stops."""
        queue: asyncio.Queue[Any] = asyncio.Queue(self.queue_size)
        topic = (channel, space)
        self._queues.setdefault(topic, set()).add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            subscribers = self._queues.get(topic, set())
            subscribers.discard(queue)
            if not subscribers:
                self._queues.pop(topic, None)
