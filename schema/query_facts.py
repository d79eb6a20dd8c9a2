"""Query fields over facts: listings of any status, one fact, timelines, conflicts, approvals,
counts, recall and the check before an action; and the tenant's spaces."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from graphmem.errors import InvalidInput
from graphmem.model import ConflictKind, ConflictStatus, Kind, Status
from graphmem.model.differences import Clock
from graphmem.model.listings import ConflictFilter, FactFilter
from graphmem.model.stats import SpaceStats
from graphmem.schema.difference_types import SlotChange
from graphmem.schema.fields import (
    After,
    AsOf,
    Before,
    First,
    GraphInfo,
    Last,
    SpaceArg,
    ValidAt,
    ValidDuring,
    field,
    run,
    when,
)
from graphmem.schema.graph_types import ActCheckResult, RecallResult
from graphmem.schema.relay import Connection, connection, local_id, wants
from graphmem.schema.space_types import Space
from graphmem.schema.types import Conflict, Fact, History, Policy


def _statuses(status: Status | None, statuses: list[Status] | None) -> tuple[Status, ...] | None:
    if status is not None and statuses is not None:
        raise InvalidInput("pass status or statuses, not both")
    if status is not None:
        return (status,)
    return tuple(dict.fromkeys(statuses)) if statuses is not None else None


def _kinds(kinds: list[ConflictKind] | None, exclude: list[ConflictKind] | None
           ) -> tuple[ConflictKind, ...] | None:
    if exclude is None:
        return tuple(kinds) if kinds is not None else None
    return tuple(k for k in kinds or ConflictKind if k not in exclude)


@strawberry.type
class FactQueries:
    @field("Facts of a space, a keyset page at a time, oldest recorded first. Statuses:"
           " ACTIVE by default; under validAt or validDuring, every fact memory held or"
           " archived (what it believed true then). `text` matches a part of the value or"
           " subject, case ignored.")
    async def facts(self, info: GraphInfo, space: SpaceArg, subject: str | None = None,
                    scope: str | None = None, status: Status | None = None,
                    statuses: list[Status] | None = None, source: str | None = None,
                    category: str | None = None, kind: Kind | None = None,
                    text: str | None = None, as_of: AsOf = None, valid_at: ValidAt = None,
                    valid_during: ValidDuring = None, first: First = None,
                    after: After = None, last: Last = None,
                    before: Before = None) -> Connection[Fact]:
        moment = when(as_of, valid_at, valid_during)
        where = FactFilter(subject, scope, _statuses(status, statuses), source, category,
                           kind, text)
        page = await run(info, space, where=where, when=moment, first=first, after=after,
                         last=last, before=before, count=wants(info, "totalCount"))
        return connection(page, lambda f: Fact.from_model(f, as_of))

    @field("One fact by id (its own id or its global id), as memory held it at `asOf`.")
    async def fact(self, info: GraphInfo, space: SpaceArg, id: strawberry.ID,
                   as_of: AsOf = None) -> Fact:
        found = await run(info, space, id=local_id(str(id), "Fact"), as_of=as_of)
        return Fact.from_model(found, as_of)

    @field("A subject's timeline, oldest to newest: every version, tombstone and refinement"
           " (`last`/`before` read it from the newest end).")
    async def history(self, info: GraphInfo, space: SpaceArg, subject: str,
                      scope: str | None = None, as_of: AsOf = None, valid_at: ValidAt = None,
                      valid_during: ValidDuring = None, first: First = None,
                      after: After = None, last: Last = None,
                      before: Before = None) -> History:
        page = await run(info, space, subject=subject, scope=scope,
                         when=when(as_of, valid_at, valid_during), first=first, after=after,
                         last=last, before=before, count=wants(info, "totalCount"))
        return History.from_page(subject, page, as_of)

    @field("What changed between two instants (`to`: now when null) on one clock: each slot"
           " whose current facts at `from` differ from those at `to`, with the events that"
           " did it, a page of slots at a time in (subject, scope) order. Its cost follows"
           " the changes in the window, not the size of the space.")
    async def changes(self, info: GraphInfo, space: SpaceArg, from_: Annotated[
                          datetime, strawberry.argument(name="from")],
                      to: datetime | None = None, clock: Clock = Clock.RECORDED,
                      subject: str | None = None, first: First = None, after: After = None,
                      last: Last = None, before: Before = None) -> Connection[SlotChange]:
        page = await run(info, space, start=from_, end=to, clock=clock, subject=subject,
                         first=first, after=after, last=last, before=before,
                         count=wants(info, "totalCount"))
        return connection(page, SlotChange.from_model)

    @field("Conflicts of a space in the order they opened; open ones by default, any when"
           " status is null. With `asOf`, each has the status it had then. `kinds` keeps"
           " some kinds, `excludeKinds` leaves some out (an inbox without PENDING proposals).")
    async def conflicts(self, info: GraphInfo, space: SpaceArg,
                        status: ConflictStatus | None = ConflictStatus.OPEN,
                        kinds: list[ConflictKind] | None = None, subject: str | None = None,
                        scope: str | None = None, as_of: AsOf = None, valid_at: ValidAt = None,
                        valid_during: ValidDuring = None, first: First = None,
                        after: After = None, last: Last = None,
                        before: Before = None,
                        exclude_kinds: list[ConflictKind] | None = None
                        ) -> Connection[Conflict]:
        where = ConflictFilter(status, _kinds(kinds, exclude_kinds), subject, scope)
        page = await run(info, space, where=where, when=when(as_of, valid_at, valid_during),
                         first=first, after=after, last=last, before=before,
                         count=wants(info, "totalCount"))
        return connection(page, lambda c: Conflict.from_model(c, as_of))

    @field("Confirm-gate proposals waiting for the approve capability (at `asOf`: those"
           " waiting then).")
    async def pending_changes(self, info: GraphInfo, space: SpaceArg, as_of: AsOf = None,
                              valid_at: ValidAt = None, valid_during: ValidDuring = None,
                              first: First = None, after: After = None, last: Last = None,
                              before: Before = None) -> Connection[Fact]:
        page = await run(info, space, when=when(as_of, valid_at, valid_during), first=first,
                         after=after, last=last, before=before,
                         count=wants(info, "totalCount"))
        return connection(page, lambda f: Fact.from_model(f, as_of))

    @field("The space's source policy.")
    async def reconcile_policy(self, info: GraphInfo, space: SpaceArg) -> Policy:
        return Policy.from_model(await run(info, space))

    @field("Counts of the space's facts by status, open conflicts, pending proposals and"
           " entities, by aggregation.")
    async def stats(self, info: GraphInfo, space: SpaceArg, as_of: AsOf = None,
                    valid_at: ValidAt = None,
                    valid_during: ValidDuring = None) -> SpaceStats:
        found: SpaceStats = await run(info, space, when=when(as_of, valid_at, valid_during))
        return found

    @field("The spaces of your tenant that something wrote to, in key order, each with its"
           " counts (a key for the whole tenant).")
    async def spaces(self, info: GraphInfo, first: First = None, after: After = None,
                     last: Last = None, before: Before = None) -> Connection[Space]:
        page = await run(info, None, first=first, after=after, last=last, before=before,
                         count=wants(info, "totalCount"))
        return connection(page, Space.from_model)

    @field("An answer from the space's current facts (one model call when a model is"
           " configured; the fact list otherwise); `asOf`/`validAt` answer from memory as it"
           " stood, or from what was true, then.")
    async def recall(self, info: GraphInfo, space: SpaceArg, question: str,
                     explain: bool = False, include_history: bool = False, as_of: AsOf = None,
                     critical_categories: list[str] | None = None,
                     valid_at: ValidAt = None) -> RecallResult:
        found = await run(info, space, question=question, explain=explain,
                          include_history=include_history, when=when(as_of, valid_at),
                          critical_categories=critical_categories)
        return RecallResult.from_model(found, as_of)

    @field("Refuses, with reasons, when a fact an action depends on is flagged, pending,"
           " stale or recently changed (with `asOf`: as it would have then).")
    async def check_before_act(self, info: GraphInfo, space: SpaceArg, subjects: list[str],
                               max_age_seconds: float | None = None, as_of: AsOf = None,
                               valid_at: ValidAt = None) -> ActCheckResult:
        found = await run(info, space, subjects=subjects, max_age_seconds=max_age_seconds,
                          when=when(as_of, valid_at))
        return ActCheckResult.from_model(found, as_of)

