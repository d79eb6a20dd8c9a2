"""Subscriptions: the broker's events for one space, admitted by the same guard."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from graphmem.resolvers import events
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("factChanged", "read", stream=True)
def fact_changed(call: Call) -> AsyncGenerator[Any, None]:
    assert call.space is not None
    return call.context.broker.subscribe(events.FACT_CHANGED, call.space.key)


@operation("conflictOpened", "read", stream=True)
def conflict_opened(call: Call) -> AsyncGenerator[Any, None]:
    assert call.space is not None
    return call.context.broker.subscribe(events.CONFLICT_OPENED, call.space.key)
