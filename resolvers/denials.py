"""Denials are recorded: a log line with who, what and where, under the request id."""

from __future__ import annotations

import logging

from graphmem.resolvers.context import RequestContext

log = logging.getLogger("graphmem.api.denials")


def record_denial(ctx: RequestContext, operation: str, space: str | None, reason: str) -> None:
    principal = ctx.principal
    who = f"{principal.name}@{principal.tenant}" if principal else "anonymous"
    log.warning("denied %s on %r for %s: %s rid=%s", operation, space, who, reason,
                ctx.request_id)
