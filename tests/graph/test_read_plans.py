"""The read statements behind as-of, history, a subject's current facts, entity views and
recall_related seek indexes: never a label scan of every Fact or Entity, whatever the size of
the space, planned once on an empty and once on a populated database (`plan_graph`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import query

AT = datetime(2026, 1, 1, tzinfo=UTC)
READS: list[tuple[str, dict[str, Any]]] = [
    ("traversal/subject_as_of", {"subject": "s", "at": AT}),
    ("traversal/subject_valid_at", {"subject": "s", "at": AT}),
    ("facts/history", {"subject": "s", "scope": None}),
    ("entities/facts", {"key": "person:a", "as_of": AT, "valid_at": None}),
    ("entities/history", {"key": "person:a", "attribute": "role"}),
    ("traversal/expand", {"frontier": ["person:a"], "fanout": 101, "budget": 200, "as_of": None,
                      "valid_at": None, "starts": True}),
    ("traversal/facts_by_id", {"ids": ["f1", "f2"]}),
    ("facts/subject_hot", {"subject": "s", "statuses": ["ACTIVE"]}),
]


def _operators(plan: Any) -> set[str]:
    ops = {plan["operatorType"].split("@")[0]}
    for child in plan.get("children", []):
        ops |= _operators(child)
    return ops


@pytest.mark.parametrize("name, params", READS, ids=[name for name, _ in READS])
def test_read_statements_seek_an_index(plan_graph: GraphDriver, name: str,
                                       params: dict[str, Any]) -> None:
    with plan_graph.session() as session:
        plan = session.run("EXPLAIN " + query(name), {"space": "s", **params}).consume().plan
    assert plan is not None
    ops = _operators(plan)
    assert any("IndexSeek" in op for op in ops), ops
    assert not ops & {"NodeByLabelScan", "AllNodesScan"}, ops
