"""Read operations: facts of any status, one fact, timelines, conflicts, approvals, counts,
the tenant's spaces. Lists are keyset pages read in Cypher (see graphmem.model.paging)."""

from __future__ import annotations

from datetime import datetime

from graphmem.model import NOW, Conflict, Fact, Policy, When
from graphmem.model.differences import Clock, SlotChange
from graphmem.model.history import HistoryEntry
from graphmem.model.listings import ConflictFilter, FactFilter
from graphmem.model.paging import Page
from graphmem.model.stats import SpaceInfo, SpaceStats
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("facts", "read")
def facts(call: Call, where: FactFilter, when: When = NOW, first: int | None = None,
          after: str | None = None, last: int | None = None, before: str | None = None,
          count: bool = True) -> Page[Fact]:
    return call.mem().records.page(where, when, first=first, after=after, last=last,
                                 before=before, count=count)


@operation("fact", "read")
def fact(call: Call, id: str, as_of: datetime | None = None) -> Fact:
    return call.mem().records.fact(id, as_of)


@operation("history", "read")
def history(call: Call, subject: str, scope: str | None = None, when: When = NOW,
            first: int | None = None, after: str | None = None, last: int | None = None,
            before: str | None = None, count: bool = True) -> Page[HistoryEntry]:
    return call.mem().records.history_page(subject, scope, when, first=first, after=after,
                                           last=last, before=before, count=count)


@operation("changes", "read")
def changes(call: Call, start: datetime, end: datetime | None = None,
            clock: Clock = Clock.RECORDED, subject: str | None = None,
            first: int | None = None, after: str | None = None, last: int | None = None,
            before: str | None = None, count: bool = True) -> Page[SlotChange]:
    return call.mem().records.changes(start, end, clock, subject, first=first, after=after,
                                      last=last, before=before, count=count)


@operation("conflicts", "read")
def conflicts(call: Call, where: ConflictFilter, when: When = NOW, first: int | None = None,
              after: str | None = None, last: int | None = None, before: str | None = None,
              count: bool = True) -> Page[Conflict]:
    return call.mem().review.list_conflicts(where, when, first=first, after=after, last=last,
                                     before=before, count=count)


@operation("pendingChanges", "read")
def pending_changes(call: Call, when: When = NOW, first: int | None = None,
                    after: str | None = None, last: int | None = None,
                    before: str | None = None, count: bool = True) -> Page[Fact]:
    return call.mem().review.pending_changes(when, first=first, after=after, last=last,
                                      before=before, count=count)


@operation("reconcilePolicy", "read")
def reconcile_policy(call: Call) -> Policy:
    return call.mem().review.get_reconcile_policy()


@operation("stats", "read")
def stats(call: Call, when: When = NOW) -> SpaceStats:
    return call.mem().records.stats(when)


@operation("spaces", "read", reach="tenant")
def spaces(call: Call, first: int | None = None, after: str | None = None,
           last: int | None = None, before: str | None = None,
           count: bool = True) -> Page[SpaceInfo]:
    """The spaces of the caller's tenant (a key for the whole tenant)."""
    return call.mem().records.spaces(first=first, after=after, last=last, before=before,
                                     count=count)
