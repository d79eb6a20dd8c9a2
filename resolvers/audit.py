"""The audit chain, decisions, erasure and retention: verify, list, record, delete, purge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.model.audit import AuditRow, ChainReport
from graphmem.model.paging import Page
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("verifyAudit", "verify", reach="tenant")
def verify_audit(call: Call, deep: bool = False, receipt: Any = None) -> ChainReport:
    """The deployment's one chain, reported for the caller's tenant: its rows' signatures
    when deep, other tenants' problems only counted (the answer holds no other tenant's
    data); `receipt` anchors it."""
    return call.mem().records.verify_audit(deep, receipt=receipt, tenant=call.tenant)


@operation("auditLog", "verify", reach="tenant")
def audit_log(call: Call, limit: int = 50, before: int | None = None,
              operation: str | None = None) -> list[AuditRow]:
    """This tenant's rows, newest first."""
    return call.mem().records.audit_log(limit, before, operation)


@operation("auditEntries", "verify", reach="tenant")
def audit_entries(call: Call, first: int | None = None, after: str | None = None,
                  operation: str | None = None, count: bool = True) -> Page[AuditRow]:
    """This tenant's rows, newest first, a keyset page at a time."""
    return call.mem().records.audit_page(first=first, after=after, operation=operation, count=count)


@operation("recordDecision", "write")
def record_decision(call: Call, action: str, subjects: Sequence[str]) -> dict[str, Any]:
    return call.mem().records.record_decision(action, subjects)


@operation("delete", "delete")
def delete(call: Call, fact_id: str | None = None, subject: str | None = None) -> dict[str, Any]:
    return call.mem().erasure.delete(fact_id=fact_id, subject=subject)


@operation("deleteAll", "delete")
def delete_all(call: Call) -> dict[str, Any]:
    return call.mem().erasure.delete_all()


@operation("purge", "delete")
def purge(call: Call, retention_days: float | None = None) -> dict[str, Any]:
    """Erase retired history older than the retention period."""
    return call.mem().erasure.purge_expired(retention_days)


@operation("eraseUser", "delete", reach="user")
def erase_user(call: Call) -> dict[str, Any]:
    """Every space of one user, from both stores; one signed receipt."""
    return call.mem().erasure.erase_subtree("user")


@operation("eraseTenant", "delete", reach="tenant")
def erase_tenant(call: Call) -> dict[str, Any]:
    """Every space of the caller's tenant, from both stores; one signed receipt."""
    return call.mem().erasure.erase_subtree("tenant")


@operation("setRetention", "admin")
def set_retention(call: Call, days: float | None = None) -> str:
    """The space's retention period for purge (None: back to the default)."""
    return call.mem().erasure.set_retention(days)
