"""Human review: confirm or reject pending changes, resolve or dismiss conflicts."""

from __future__ import annotations

from typing import Any

from graphmem.model import Result, Space
from graphmem.resolvers import events
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


def _settled(change: str, fact_argument: str | None) -> Any:
    def make(space: Space, arguments: dict[str, Any], message: Any) -> list[tuple[str, Any]]:
        fact_id = arguments.get(fact_argument) if fact_argument else None
        return events.settled(change, space, str(message), fact_id)

    return make


@operation("confirmChange", "approve", events=_settled("confirmed", "fact_id"))
def confirm_change(call: Call, fact_id: str) -> Result:
    return call.mem().confirm(fact_id)


@operation("rejectChange", "approve", events=_settled("rejected", "fact_id"))
def reject_change(call: Call, fact_id: str) -> Result:
    return call.mem().reject(fact_id)


@operation("resolveConflict", "approve", events=_settled("resolved", "winner"))
def resolve_conflict(call: Call, conflict_id: str, winner: str, note: str = "") -> Result:
    return call.mem().resolve_conflict(conflict_id, winner, note)


@operation("dismissConflict", "approve", events=_settled("dismissed", None))
def dismiss_conflict(call: Call, conflict_id: str, note: str = "") -> Result:
    return call.mem().dismiss_conflict(conflict_id, note)
