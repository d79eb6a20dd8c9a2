"""Reads: current facts, history, conflicts and listings, recall with its answer, and the
check before an action."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmem.graph import reads
from graphmem.model import Conflict, ConflictKind, Fact, Status
from graphmem.recall.answer import Recall
from graphmem.recall.check import ActCheck, check_before_act
from graphmem.recall.pipeline import RecallRequest, recall
from graphmem.service.context import SpaceContext, now


@dataclass(frozen=True)
class Listing:
    """`list_memories`: active facts, flagged ones marked ⚠, the 20 most recent retired."""

    active: tuple[Fact, ...]
    flagged: tuple[Fact, ...]
    retired: tuple[Fact, ...]

    def __str__(self) -> str:
        lines = [f"#{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.active]
        lines += [f"⚠ #{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.flagged]
        if self.retired:
            lines.append("Recently retired:")
            lines += [f"  #{f.id} {f.subject} = {f.value} [{f.status.value}]"
                      for f in self.retired]
        return "\n".join(lines) if lines else "No memories stored."


def _scope(f: Fact) -> str:
    return "" if f.scope == "global" else f" ({f.scope})"


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

    def fact(self, fact_id: str) -> Fact:
        self.ctx.require("read")
        return reads.get(self.ctx.graph, self.ctx.key, fact_id)[0]

    def history(self, subject: str, scope: str | None = None,
                as_of: datetime | None = None) -> reads.History:
        self.ctx.require("read")
        return reads.history(self.ctx.graph, self.ctx.key, self.ctx.subject(subject) or "",
                             scope, as_of)

    def list_memories(self) -> Listing:
        self.ctx.require("read")
        graph, key = self.ctx.graph, self.ctx.key
        hot = reads.hot(graph, key)
        return Listing(tuple(f for f in hot if f.status == Status.ACTIVE),
                       tuple(f for f in hot if f.status == Status.FLAGGED_CONFLICT),
                       tuple(reads.recent_retired(graph, key, 20)))

    def conflicts(self, status: str | None = "open") -> list[Conflict]:
        self.ctx.require("read")
        return reads.conflicts(self.ctx.graph, self.ctx.key, status)

    def recall(self, question: str, explain: bool = False, include_history: bool = False,
               as_of: datetime | None = None,
               critical_categories: Iterable[str] | None = None) -> Recall:
        self.ctx.require("read")
        settings = self.ctx.settings
        categories = tuple(dict.fromkeys([*settings.critical_categories,
                                          *(critical_categories or ())]))
        req = RecallRequest(question, explain, include_history, as_of, categories)
        return recall(self.ctx.ranked(), self.ctx.runtime.llm, self.ctx.key, req,
                      settings.recall_context, settings.critical_budget)

    def check_before_act(self, subjects: Iterable[str],
                         max_age: timedelta | float | None = None) -> ActCheck:
        self.ctx.require("read")
        return check_before_act(self.ctx.graph, self.ctx.key, self.ctx.subjects(subjects),
                                max_age, self.ctx.settings.change_window_seconds, now())
