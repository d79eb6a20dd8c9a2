"""Denials are recorded: a row in the audit chain (outcome `denied`) and a log line, both
with who, what and where, under the request id. Neither keeps what the caller typed: a
space that is not a plain name, and quoted input in the reason, become fingerprints
(`graphmem.mirror.audit.named` / `reason`), since an audit row can never be erased."""

from __future__ import annotations

import logging

from graphmem.mirror.audit import AuditEntry, named, reason
from graphmem.resolvers.context import RequestContext

log = logging.getLogger("graphmem.api.denials")


def record_denial(ctx: RequestContext, operation: str, space: str | None, text: str) -> None:
    principal = ctx.principal
    who = f"{principal.name}@{principal.tenant}" if principal else "anonymous"
    where, why = named(space or ""), reason(text)
    log.warning("denied %s on %r for %s: %s rid=%s", operation, where, who, why,
                ctx.request_id)
    if principal is None:
        return
    detail = {"reason": why, "request_id": ctx.request_id, "key_id": principal.key_id}
    ctx.runtime.mirror.audit(AuditEntry(where if space else "", principal.name, operation,
                                        "denied", detail, tenant=principal.tenant))
