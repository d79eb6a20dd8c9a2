"""What tools run against: the process's runtime and metrics, and who is calling.

A transport supplies `identify`, which turns the request a message arrived with into the
caller (`Who`): over HTTP the principal the authentication middleware bound to the request,
over stdio the local caller or the principal of the key given at start (checked again on
every call, so a revoked key stops working in an open session too).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphmem.model.principals import Principal
from graphmem.runtime import Runtime
from graphmem.service.metrics import Metrics
from graphmem.service.model_budget import ModelBudget

if TYPE_CHECKING:
    from graphmem.mcp.watch import Watcher


@dataclass(frozen=True)
class Who:
    """The caller of one message, and the id its log lines and audit rows carry."""

    principal: Principal | None
    request_id: str
    refusal: str | None = None  # why there is no principal, when the transport knows


Identify = Callable[[Any], Awaitable[Who]]


def new_request_id() -> str:
    return uuid.uuid4().hex[:16]


@dataclass
class Host:
    """One per server process (the lifespan of the MCP server yields it)."""

    runtime: Runtime
    metrics: Metrics
    identify: Identify
    transport: str
    budget: ModelBudget
    watcher: Watcher | None = field(default=None)
