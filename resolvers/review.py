"""Human review: confirm or reject pending changes, resolve or dismiss conflicts."""

from __future__ import annotations

from graphmem.model import Result
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("confirmChange", "approve")
def confirm_change(call: Call, fact_id: str) -> Result:
    return call.mem().review.confirm(fact_id)


@operation("rejectChange", "approve")
def reject_change(call: Call, fact_id: str) -> Result:
    return call.mem().review.reject(fact_id)


@operation("resolveConflict", "approve")
def resolve_conflict(call: Call, conflict_id: str, winner: str, note: str = "") -> Result:
    return call.mem().review.resolve_conflict(conflict_id, winner, note)


@operation("dismissConflict", "approve")
def dismiss_conflict(call: Call, conflict_id: str, note: str = "") -> Result:
    return call.mem().review.dismiss_conflict(conflict_id, note)
