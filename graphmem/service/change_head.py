"""Where a space's change log stands: the key after every change committed so far.

A client reads it before the data it shows and subscribes `after` it, so a change committed
between its reads and its subscription is delivered too (a subscription without a cursor
starts from the instant it is made)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.graph import outbox
from graphmem.runtime import Runtime
from graphmem.service.changes import END, EventKey


def head(runtime: Runtime, space: str) -> EventKey:
    """The key after the last entry of the space's outbox (cypher/fragments/outbox_head):
    what the feed itself uses for "after everything committed"."""
    head, _ = outbox.since_time(runtime.graph, space, datetime.now(UTC), 0)
    return (*head, END)
