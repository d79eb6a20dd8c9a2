"""The audit chain, decisions, erasure and retention: verify, list, record, delete, purge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.mirror.audit import AuditRow, ChainReport
from graphmem.model import Space
from graphmem.resolvers import events
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


def _erased(space: Space, arguments: dict[str, Any], receipt: Any) -> list[tuple[str, Any]]:
    body = receipt.get("receipt", receipt) if isinstance(receipt, dict) else {}
    count = body.get("facts", 0) if isinstance(body, dict) else 0
    return events.settled("erased", space, f"erased {count} fact(s)",
                          arguments.get("fact_id"))


@operation("verifyAudit", "verify", reach="tenant")
def verify_audit(call: Call, deep: bool = False, receipt: Any = None) -> ChainReport:
    """The deployment's one chain, reported for the caller's tenant: its rows' signatures
    when deep, other tenants' problems only counted (the answer holds no other tenant's
    data); `receipt` anchors it."""
    return call.mem().verify_audit(deep, receipt=receipt, tenant=call.tenant)


@operation("auditLog", "verify", reach="tenant")
def audit_log(call: Call, limit: int = 50, before: int | None = None,
              operation: str | None = None) -> list[AuditRow]:
    """This tenant's rows, newest first."""
    return call.mem().audit_log(limit, before, operation)


@operation("recordDecision", "write")
def record_decision(call: Call, action: str, subjects: Sequence[str]) -> dict[str, Any]:
    return call.mem().record_decision(action, subjects)


@operation("delete", "delete", events=_erased)
def delete(call: Call, fact_id: str | None = None, subject: str | None = None) -> dict[str, Any]:
    return call.mem().delete(fact_id=fact_id, subject=subject)


@operation("deleteAll", "delete", events=_erased)
def delete_all(call: Call) -> dict[str, Any]:
    return call.mem().delete_all()


@operation("purge", "delete", events=_erased)
def purge(call: Call, retention_days: float | None = None) -> dict[str, Any]:
    """Erase retired history older than the retention period."""
    return call.mem().purge_expired(retention_days)


def _subtree_erased(space: Space, arguments: dict[str, Any],
                    receipt: Any) -> list[tuple[str, Any]]:
    """One factChanged for each space the subtree erasure emptied."""
    body = receipt.get("receipt", {}) if isinstance(receipt, dict) else {}
    return [(events.FACT_CHANGED, events.FactChange(key, "erased", "the space was erased"))
            for key in body.get("spaces", ())]


@operation("eraseUser", "delete", reach="user", events=_subtree_erased)
def erase_user(call: Call) -> dict[str, Any]:
    """Every space of one user, from both stores; one signed receipt."""
    return call.mem().erase_subtree("user")


@operation("eraseTenant", "delete", reach="tenant", events=_subtree_erased)
def erase_tenant(call: Call) -> dict[str, Any]:
    """Every space of the caller's tenant, from both stores; one signed receipt."""
    return call.mem().erase_subtree("tenant")


@operation("setRetention", "admin")
def set_retention(call: Call, days: float | None = None) -> str:
    """The space's retention period for purge (None: back to the default)."""
    return call.mem().set_retention(days)
