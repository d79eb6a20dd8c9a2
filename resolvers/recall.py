"""Recall: answers from current facts, and the safety check before an agent acts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graphmem.recall.answer import Recall
from graphmem.recall.check import ActCheck
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("recall", "read")
def recall(call: Call, question: str, explain: bool = False, include_history: bool = False,
           as_of: datetime | None = None,
           critical_categories: Sequence[str] | None = None) -> Recall:
    return call.mem().recall(question, explain=explain, include_history=include_history,
                             as_of=as_of, critical_categories=critical_categories)


@operation("checkBeforeAct", "read")
def check_before_act(call: Call, subjects: Sequence[str],
                     max_age_seconds: float | None = None) -> ActCheck:
    return call.mem().check_before_act(subjects, max_age_seconds)
