"""Denials are recorded: a row in the audit chain (outcome `denied`) and a log line, both
with who, what and where, under the request id."""

from __future__ import annotations

import logging

from graphmem.mirror.audit import AuditEntry
from graphmem.resolvers.context import RequestContext

log = logging.getLogger("graphmem.api.denials")


def record_denial(ctx: RequestContext, operation: str, space: str | None, reason: str) -> None:
    principal = ctx.principal
    who = f"{principal.name}@{principal.tenant}" if principal else "anonymous"
    log.warning("denied %s on %r for %s: %s rid=%s", operation, space, who, reason,
                ctx.request_id)
    if principal is None:
        return
    detail = {"reason": reason, "request_id": ctx.request_id, "key_id": principal.key_id}
    ctx.runtime.mirror.audit(AuditEntry((space or "")[:600], principal.name, operation,
                                        "denied", detail, tenant=principal.tenant))
