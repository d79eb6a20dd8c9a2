"""Read operations: current and past facts, history, conflicts, approvals, counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from graphmem.errors import InvalidInput
from graphmem.graph.reads import History
from graphmem.model import Conflict, ConflictKind, Fact, Policy, Status
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation
from graphmem.slots import normalise_subject


@dataclass(frozen=True)
class SpaceStats:
    space: str
    active: int
    flagged: int
    open_conflicts: int
    pending_changes: int
    recently_retired: int


@operation("facts", "read")
def facts(call: Call, subject: str | None = None, scope: str | None = None,
          status: Status = Status.ACTIVE, as_of: datetime | None = None,
          valid_at: datetime | None = None) -> list[Fact]:
    mem = call.mem()
    if status == Status.ACTIVE:
        found = mem.active(subject, as_of=as_of, valid_at=valid_at)
    elif status == Status.FLAGGED_CONFLICT and as_of is None and valid_at is None:
        wanted = None if subject is None else _canonical(mem.schema.canonical, subject)
        found = [f for f in mem.flagged() if wanted is None or f.subject == wanted]
    else:
        raise InvalidInput("facts reads ACTIVE facts (optionally asOf or validAt) or"
                           " FLAGGED_CONFLICT ones; retired facts are read with history")
    if scope is not None:
        wanted_scope = _canonical(normalise_subject, scope)
        found = [f for f in found if f.scope == wanted_scope]
    return found


def _canonical(fold: Callable[[str], str], name: str) -> str:
    try:
        return fold(name)
    except ValueError as e:
        raise InvalidInput(str(e)) from None


@operation("fact", "read")
def fact(call: Call, id: str) -> Fact:
    return call.mem().fact(id)


@operation("history", "read")
def history(call: Call, subject: str, scope: str | None = None,
            as_of: datetime | None = None) -> History:
    return call.mem().history(subject, scope, as_of)


@operation("conflicts", "read")
def conflicts(call: Call, status: str | None = "open") -> list[Conflict]:
    return call.mem().conflicts(status)


@operation("pendingChanges", "read")
def pending_changes(call: Call) -> list[Fact]:
    return call.mem().pending()


@operation("reconcilePolicy", "read")
def reconcile_policy(call: Call) -> Policy:
    return call.mem().get_reconcile_policy()


@operation("stats", "read")
def stats(call: Call) -> SpaceStats:
    mem = call.mem()
    listing = mem.list_memories()
    open_conflicts = mem.conflicts("open")
    pending = sum(1 for c in open_conflicts if c.kind == ConflictKind.PENDING)
    return SpaceStats(mem.key, len(listing.active), len(listing.flagged), len(open_conflicts),
                      pending, len(listing.retired))
