"""The core reads of `GraphMem`: current facts, a subject's history, recall with its
answer; and the page of facts that `mem.records` and `mem.review` both read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime

from graphmem.graph import listings, reads
from graphmem.model import Fact, When
from graphmem.model.history import History
from graphmem.model.listings import FactFilter
from graphmem.model.paging import Page, Window
from graphmem.model.recall import Recall
from graphmem.recall.pipeline import RecallRequest, recall
from graphmem.service.context import SpaceContext


def fact_page(ctx: SpaceContext, where: FactFilter, when: When, window: Window) -> Page[Fact]:
    """Facts filtered (the subject on its declared slot, the scope normalised), a page."""
    ctx.require("read")
    where = replace(where, subject=ctx.subject(where.subject), scope=ctx.scope(where.scope))
    return listings.fact_page(ctx.graph, ctx.key, where, when, window)


class Reads:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def active(self, subject: str | None = None, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> list[Fact]:
        self.ctx.require("read")
        return reads.facts(self.ctx.graph, self.ctx.key, self.ctx.subject(subject),
                           as_of=as_of, valid_at=valid_at)

    def history(self, subject: str, scope: str | None = None,
                as_of: datetime | None = None) -> History:
        self.ctx.require("read")
        return reads.history(self.ctx.graph, self.ctx.key, self.ctx.subject(subject) or "",
                             scope, as_of)

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
