"""The model calls a key may make a minute (GRAPHMEM_API_MODEL_CALLS_PER_MIN), one budget
per process that every transport draws from: a key cannot spend its GraphQL budget and then
as much again over MCP. Of GRAPHMEM_HOSTS hosts behind one balancer, each holds its share."""

from __future__ import annotations

import math

from graphmem.errors import RateLimited
from graphmem.service.rates import RateLimiter, host_share


def payer(key_id: str | None, otherwise: str) -> str:
    """Whose budget a call draws from: its key's, the same on every transport, else
    `otherwise` (a client address, the local caller)."""
    return f"key:{key_id}" if key_id else otherwise


class ModelBudget:
    def __init__(self, per_minute: int, hosts: int = 1) -> None:
        self.per_minute = per_minute
        self._limiter = RateLimiter(host_share(per_minute, hosts))

    def refusal(self, who: str, calls: int) -> str | None:
        """None when `calls` are taken from `who`'s budget (a key id, or without one the
        client); else why not, and when to retry."""
        if calls <= 0:
            return None
        wait = self._limiter.take(who, cost=calls)
        if not wait:
            return None
        retry = ("more than a minute's budget: make fewer calls at once"
                 if wait == float("inf") else f"retry in {math.ceil(wait)}s")
        return (f"model-call budget: at most {self.per_minute} model calls a minute per key"
                f" (GRAPHMEM_API_MODEL_CALLS_PER_MIN); this call makes {calls}; {retry}")

    def charge(self, who: str, calls: int) -> None:
        """Take `calls` from `who`'s budget, or raise RateLimited."""
        found = self.refusal(who, calls)
        if found is not None:
            raise RateLimited(found)
