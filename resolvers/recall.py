"""Recall: answers from current facts, and the safety check before an agent acts."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.model import NOW, When
from graphmem.model.recall import ActCheck, Recall
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("recall", "read")
def recall(call: Call, question: str, explain: bool = False, include_history: bool = False,
           when: When = NOW, critical_categories: Sequence[str] | None = None) -> Recall:
    return call.mem().recall(question, explain=explain, include_history=include_history,
                             as_of=when.as_of, critical_categories=critical_categories,
                             valid_at=when.valid_at)


@operation("checkBeforeAct", "read")
def check_before_act(call: Call, subjects: Sequence[str], max_age_seconds: float | None = None,
                     when: When = NOW) -> ActCheck:
    return call.mem().records.check_before_act(subjects, max_age_seconds, as_of=when.as_of,
                                       valid_at=when.valid_at)
