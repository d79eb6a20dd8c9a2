"""What a request carries into the resolvers: the long-lived clients and who is calling."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphmem.model import Space
from graphmem.model.principals import Authenticator, Principal
from graphmem.runtime import Runtime
from graphmem.service.feed import ChangeFeed
from graphmem.service.metrics import Metrics
from graphmem.service.rates import RateLimiter


@dataclass
class RequestContext:
    runtime: Runtime
    keys: Authenticator
    feed: ChangeFeed
    metrics: Metrics
    principal: Principal | None
    request_id: str
    client: str = "-"
    connection_params: dict[str, Any] | None = field(default=None)
    credential: str | None = None  # the `Authorization` value, checked again on WebSockets
    limiter: RateLimiter | None = None
    loaders: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    # the space the guard admitted for each (root field, space argument), parsed once
    admitted: dict[tuple[str, str | None], Space | None] = field(default_factory=dict)
    consistency: str | None = None  # the `Graphmem-Consistency` header: reads wait for it
    retry_after: int | None = None  # seconds: a store the request needed was unreachable
