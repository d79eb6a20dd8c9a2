"""Denials are recorded: a row in the audit chain (outcome `denied`) and a log line, both
with who, what and where, under the request id (graphmem.service.guard writes them, keeping
none of what the caller typed)."""

from __future__ import annotations

from graphmem.resolvers.context import RequestContext
from graphmem.service import guard


def record_denial(ctx: RequestContext, operation: str, space: str | None, reason: str) -> None:
    guard.record_denial(ctx.runtime, ctx.principal, operation, space, reason, ctx.request_id)
