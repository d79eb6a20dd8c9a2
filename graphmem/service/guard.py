"""The one guard every transport's call passes: authenticated? capable? in scope?

GraphQL root fields and MCP tools name an operation with one required capability and a
reach (one space it names, every space of one user, or the caller's whole tenant). `admit`
checks a principal against that rule and fails closed: a missing principal raises
Unauthenticated; a missing capability, another tenant's space or a space outside the key's
allowed spaces raises `AccessDenied` (`Access denied: …`). `record_denial` writes the denial
to the audit chain (outcome `denied`) and the log, with who, what and where, under the
request id; `deny` also counts it in the metrics. The transports only find the principal and
the space argument, and say where the work runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from graphmem.errors import AccessDenied, Unauthenticated
from graphmem.mirror.audit import AuditEntry, named, reason
from graphmem.model import Space
from graphmem.model.principals import Principal
from graphmem.runtime import Runtime
from graphmem.service.context import Caller
from graphmem.service.memory import GraphMem
from graphmem.service.metrics import Metrics

log = logging.getLogger("graphmem.guard")

UNAUTHENTICATED = "authentication required: send `Authorization: Bearer gm_sk_…`"


class Rule(Protocol):
    """What an operation needs: `capability`, and its `reach` (`space`, `user` or
    `tenant`)."""

    @property
    def name(self) -> str: ...

    @property
    def capability(self) -> str: ...

    @property
    def reach(self) -> str: ...


@dataclass(frozen=True)
class Admitted:
    """An admitted call: who, on which space (None for a tenant-wide operation that named no
    tenant)."""

    principal: Principal
    space: Space | None

    @property
    def tenant(self) -> str:
        return self.space.tenant if self.space else self.principal.tenant

    def memory(self, runtime: Runtime) -> GraphMem:
        """The service layer for this call with the principal's capabilities (tenant-wide
        operations get the tenant's default space)."""
        p = self.principal
        caller = Caller(p.name, p.capabilities, p.sources, p.source or "", p.tenant)
        space = self.space or Space(tenant=self.principal.tenant)
        return GraphMem(space=space, runtime=runtime, caller=caller)


def admit(principal: Principal | None, rule: Rule, raw_space: str | None) -> Admitted:
    """Check one call against its rule; raise Unauthenticated or AccessDenied."""
    if principal is None:
        raise Unauthenticated(UNAUTHENTICATED)
    name = rule.name
    if not principal.can(rule.capability):
        raise AccessDenied(f"{principal.name!r} (role {principal.role}) lacks the"
                           f" {rule.capability} capability that {name} needs")
    if rule.reach == "caller":  # about the caller itself (viewer): no space, no tenant reach
        return Admitted(principal, None)
    if rule.reach == "tenant":
        if not principal.tenant_wide:
            raise AccessDenied(f"{name} acts on the whole tenant; {principal.name!r} is limited"
                               " to some spaces")
        named = None if raw_space is None else principal.tenant_space(raw_space)
        return Admitted(principal, named)
    if rule.reach == "user":
        space = principal.user_space(raw_space or "")
        if not principal.holds_user(space):
            raise AccessDenied(f"{name} acts on every space of user {space.user!r};"
                               f" {principal.name!r} is not allowed all of them")
        return Admitted(principal, space)
    if rule.reach != "space":
        raise AccessDenied(f"{name} has an unknown reach {rule.reach!r}")
    space = principal.space(raw_space)
    if not principal.admits(space):
        raise AccessDenied(f"space {raw_space or ''!r} is outside {principal.name!r}'s allowed"
                           " spaces")
    return Admitted(principal, space)


def record_denial(runtime: Runtime, principal: Principal | None, operation: str,
                  space: str | None, text: str, request_id: str,
                  transport: str | None = None, repeated: int = 0) -> None:
    """A denial's log line and, for a known principal, its audit row. Neither keeps what the
    caller typed: a space that is not a plain name, and quoted input in the reason, become
    fingerprints (`named` / `reason`), since an audit row can never be erased."""
    who = f"{principal.name}@{principal.tenant}" if principal else "anonymous"
    where, why = named(space or ""), reason(text)
    log.warning("denied %s on %r for %s: %s rid=%s", operation, where, who, why, request_id)
    if principal is None:
        return
    detail: dict[str, object] = {"reason": why, "request_id": request_id,
                                 "key_id": principal.key_id}
    if transport is not None:
        detail["transport"] = transport
    if repeated:
        detail["repeated"] = repeated  # this key's denials of it since its last row
    runtime.mirror.audit(AuditEntry(where if space else "", principal.name, operation,
                                    "denied", detail, tenant=principal.tenant))


def deny(runtime: Runtime, metrics: Metrics, principal: Principal | None, operation: str,
         space: str | None, error: AccessDenied | Unauthenticated, request_id: str,
         transport: str | None = None) -> None:
    """Count a refusal; record an access denial, the first of a key's denials of an
    operation within a minute as a row and the rest folded into its next one
    (graphmem.service.denials). An unauthenticated call has no one to audit."""
    if isinstance(error, Unauthenticated):
        metrics.observe_operation(operation, "UNAUTHENTICATED", 0.0)
        return
    metrics.observe_operation(operation, "FORBIDDEN", 0.0)
    who = principal.key_id or principal.name if principal is not None else "-"
    repeated = metrics.denials.row(who, operation)
    if repeated is not None:
        record_denial(runtime, principal, operation, space, str(error), request_id, transport,
                      repeated)
