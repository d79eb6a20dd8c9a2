"""Reads: current facts, history, conflicts and listings, recall with its answer, and the
check before an action."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import differences, listings, reads, timelines
from graphmem.graph.stats import space_info, space_page, stats
from graphmem.model import NOW, Conflict, ConflictKind, Fact, Status, When
from graphmem.model.differences import Clock, SlotChange
from graphmem.model.history import History, HistoryEntry
from graphmem.model.listings import ConflictFilter, FactFilter
from graphmem.model.paging import Page, Window
from graphmem.model.recall import ActCheck, Recall
from graphmem.model.stats import SpaceInfo, SpaceStats
from graphmem.recall.check import check_before_act
from graphmem.recall.pipeline import RecallRequest, recall
from graphmem.service.context import SpaceContext, now


@dataclass(frozen=True)
class Listing:
    """`list_memories`: active facts, flagged ones marked ⚠, the 20 most recent retired."""

    active: tuple[Fact, ...]
    flagged: tuple[Fact, ...]
    retired: tuple[Fact, ...]
    next_cursor: str | None = None

    def __str__(self) -> str:
        lines = [f"#{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.active]
        lines += [f"⚠ #{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.flagged]
        if self.retired:
            lines.append("Recently retired:")
            lines += [f"  #{f.id} {f.subject} = {f.value} [{f.status.value}]"
                      for f in self.retired]
        if self.next_cursor:
            lines.append(f'More: call again with cursor="{self.next_cursor}".')
        return "\n".join(lines) if lines else "No memories stored."


def _scope(f: Fact) -> str:
    return "" if f.scope == "global" else f" ({f.scope})"


HOT = (Status.ACTIVE, Status.FLAGGED_CONFLICT)


def _between(start: datetime, end: datetime | None, clock: Clock | str
             ) -> tuple[datetime, datetime, Clock]:
    """Two instants of a clock, checked: each with a timezone, the first before the second."""
    try:
        chosen = Clock(str(clock).upper())
    except ValueError:
        raise InvalidInput(f"clock {clock!r}: use RECORDED or VALID") from None
    first = reads.aware(start, "from")
    last = reads.aware(end, "to") or now()
    if first is None or first >= last:
        raise InvalidInput("from must come before to")
    return first, last, chosen


class Reads:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def active(self, subject: str | None = None, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> list[Fact]:
        self.ctx.require("read")
        return reads.facts(self.ctx.graph, self.ctx.key, self.ctx.subject(subject),
                           as_of=as_of, valid_at=valid_at)

    def flagged(self) -> list[Fact]:
        self.ctx.require("read")
        return reads.facts(self.ctx.graph, self.ctx.key,
                           statuses=(Status.FLAGGED_CONFLICT.value,))

    def pending(self) -> list[Fact]:
        pending_ids = {fid for c in self.conflicts("open") if c.kind == ConflictKind.PENDING
                       for fid in c.fact_ids}
        return [f for f in self.flagged() if f.id in pending_ids]

    def fact(self, fact_id: str, as_of: datetime | None = None) -> Fact:
        self.ctx.require("read")
        if as_of is None:
            return reads.get(self.ctx.graph, self.ctx.key, fact_id)[0]
        found = self.facts_by_id([fact_id], as_of)
        if fact_id not in found:
            raise NotFound(f"no fact {fact_id!r} in this space at {as_of.isoformat()}")
        return found[fact_id]

    def history(self, subject: str, scope: str | None = None,
                as_of: datetime | None = None) -> History:
        self.ctx.require("read")
        return reads.history(self.ctx.graph, self.ctx.key, self.ctx.subject(subject) or "",
                             scope, as_of)

    def list_memories(self, window: Window | None = None) -> Listing:
        """Every active and flagged fact, or with `window` one page of them (the retired
        ones on the first page only)."""
        self.ctx.require("read")
        graph, key = self.ctx.graph, self.ctx.key
        if window is not None:
            page = self.facts_page(FactFilter(statuses=HOT), NOW, window)
            retired = () if window.after else tuple(reads.recent_retired(graph, key, 20))
            return Listing(tuple(f for f in page.items if f.status == Status.ACTIVE),
                           tuple(f for f in page.items if f.status == Status.FLAGGED_CONFLICT),
                           retired, page.next_cursor)
        hot = reads.hot(graph, key)
        return Listing(tuple(f for f in hot if f.status == Status.ACTIVE),
                       tuple(f for f in hot if f.status == Status.FLAGGED_CONFLICT),
                       tuple(reads.recent_retired(graph, key, 20)))

    def conflicts(self, status: str | None = "open") -> list[Conflict]:
        self.ctx.require("read")
        return reads.conflicts(self.ctx.graph, self.ctx.key, status)

    def recall(self, question: str, explain: bool = False, include_history: bool = False,
               as_of: datetime | None = None,
               critical_categories: Iterable[str] | None = None,
               valid_at: datetime | None = None, answer: bool = True) -> Recall:
        self.ctx.require("read")
        settings = self.ctx.settings
        categories = tuple(dict.fromkeys([*settings.critical_categories,
                                          *(critical_categories or ())]))
        req = RecallRequest(question, explain, include_history, as_of, categories,
                            valid_at=valid_at, ranked=not answer)
        return recall(self.ctx.ranked(), self.ctx.runtime.llm if answer else None, self.ctx.key,
                      req, settings.recall_context, settings.critical_budget)

    def check_before_act(self, subjects: Iterable[str],
                         max_age: timedelta | float | None = None,
                         when: When = NOW) -> ActCheck:
        self.ctx.require("read")
        return check_before_act(self.ctx.graph, self.ctx.key, self.ctx.subjects(subjects),
                                max_age, self.ctx.settings.change_window_seconds, now(),
                                when.as_of, when.valid_at)

    # ---- paged reads (keyset in Cypher, counts by aggregation) -------------------------
    def _fact_filter(self, where: FactFilter) -> FactFilter:
        """The filter with the subject on its declared slot and the scope normalised."""
        return replace(where, subject=self.ctx.subject(where.subject),
                       scope=self.ctx.scope(where.scope))

    def facts_page(self, where: FactFilter, when: When, window: Window) -> Page[Fact]:
        self.ctx.require("read")
        return listings.fact_page(self.ctx.graph, self.ctx.key, self._fact_filter(where), when,
                                  window)

    def pending_page(self, when: When, window: Window) -> Page[Fact]:
        """Confirm-gate proposals waiting (then) for someone with the approve capability."""
        where = FactFilter(statuses=(Status.FLAGGED_CONFLICT,), pending=True)
        return self.facts_page(where, when, window)

    def history_page(self, subject: str, scope: str | None, when: When,
                     window: Window) -> Page[HistoryEntry]:
        self.ctx.require("read")
        return timelines.history_page(self.ctx.graph, self.ctx.key,
                                      self.ctx.subject(subject) or "", scope, when, window)

    def changes(self, start: datetime, end: datetime | None, clock: Clock | str,
                subject: str | None, window: Window) -> Page[SlotChange]:
        """The slots whose current facts differ between `start` and `end` (now when None) on
        one clock, a page of slots at a time in (subject, scope) order."""
        self.ctx.require("read")
        start, end, clock = _between(start, end, clock)
        found = differences.changes(self.ctx.graph, self.ctx.key, start, end, clock,
                                    self.ctx.subject(subject))
        inside = [c for c in found if (window.after is None or c.key > window.after)
                  and (window.before is None or c.key < window.before)]
        reading = inside[::-1] if window.backward else inside
        return window.page(reading[:window.size + 1], lambda c: c.key,
                           len(found) if window.count else None)

    def conflicts_page(self, where: ConflictFilter, when: When,
                       window: Window) -> Page[Conflict]:
        self.ctx.require("read")
        where = replace(where, subject=self.ctx.subject(where.subject),
                        scope=self.ctx.scope(where.scope))
        return listings.conflict_page(self.ctx.graph, self.ctx.key, where, when, window)

    def conflict(self, conflict_id: str) -> Conflict:
        self.ctx.require("read")
        return reads.conflict(self.ctx.graph, self.ctx.key, conflict_id)[0]

    def facts_by_id(self, ids: Iterable[str], as_of: datetime | None = None
                    ) -> dict[str, Fact]:
        self.ctx.require("read")
        return listings.by_ids(self.ctx.graph, self.ctx.key, list(ids),
                               When(as_of=as_of).as_of)

    def superseded_by(self, ids: Iterable[str], as_of: datetime | None = None
                      ) -> dict[str, Fact]:
        self.ctx.require("read")
        return listings.superseded_by(self.ctx.graph, self.ctx.key, list(ids),
                                      When(as_of=as_of).as_of)

    def stats(self, when: When = NOW) -> SpaceStats:
        self.ctx.require("read")
        found = stats(self.ctx.graph, [self.ctx.key], when)
        return found.get(self.ctx.key) or SpaceStats(self.ctx.key)

    # ---- the tenant's spaces --------------------------------------------------------------
    def spaces_page(self, window: Window) -> Page[SpaceInfo]:
        """The spaces of this space's tenant that something wrote to, in key order."""
        self.ctx.require("read")
        return space_page(self.ctx.graph, self._tenant_prefix(), window)

    def spaces_stats(self, keys: Iterable[str], when: When = NOW) -> dict[str, SpaceStats]:
        """Counts of several spaces of this tenant in one statement."""
        self.ctx.require("read")
        wanted = list(dict.fromkeys(keys))
        prefix = self._tenant_prefix()
        outside = [k for k in wanted if not k.startswith(prefix)]
        if outside:
            raise InvalidInput(f"space {outside[0]!r} is not in tenant {self.ctx.space.tenant!r}")
        found = stats(self.ctx.graph, wanted, when)
        return {k: found.get(k) or SpaceStats(k) for k in wanted}

    def space_info(self) -> SpaceInfo:
        self.ctx.require("read")
        found = space_info(self.ctx.graph, self.ctx.key)
        if found is None:
            raise NotFound(f"no space {self.ctx.key!r}: nothing was written to it")
        return found

    def _tenant_prefix(self) -> str:
        return f"{self.ctx.space.tenant}/"
