"""The read statements behind as-of, history, a subject's current facts, entity views and
recall_related seek indexes: never a label scan of every Fact or Entity, whatever the size of
the space, planned once on an empty and once on a populated database (`plan_graph`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import query
from graphmem.model import When
from graphmem.model.listings import FactFilter

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
WINDOW = {"subject": None, "from": AT, "to": AT + timedelta(days=1),
          "now": AT + timedelta(days=2)}


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


def _details(plan: Any) -> list[str]:
    found = [str(plan["args"].get("Details", ""))]
    for child in plan.get("children", []):
        found += _details(child)
    return found


@pytest.mark.parametrize("name", ["facts/page", "facts/page_back"])
def test_a_page_of_facts_comes_in_index_order_without_sorting_the_space(
        plan_graph: GraphDriver, name: str) -> None:
    """A listing's page reads the facts in recording order from the (space, recorded_at)
    index and stops at its limit: no sort of every fact of the space, whatever its size."""
    params = {"space": "s", **FactFilter().params(When()), "after": None, "before": None,
              "backward": name.endswith("back"), "limit": 51}
    with plan_graph.session() as session:
        plan = session.run("EXPLAIN " + query(name), params).consume().plan
    assert plan is not None
    ops = _operators(plan)
    assert "NodeIndexSeek" in ops or "NodeIndexSeekByRange" in ops, ops
    assert any("Fact(space, recorded_at)" in d for d in _details(plan)), [
        d for d in _details(plan) if "INDEX" in d]
    assert not ops & {"Sort", "Top", "NodeByLabelScan", "AllNodesScan"}, ops


@pytest.mark.parametrize(("name", "indexes"), [
    ("changes/recorded", ("held_from", "retired_at", "refined_at")),
    ("changes/valid", ("valid_from", "valid_to")),
])
def test_changes_between_two_instants_seek_the_indexes_on_their_times(
        plan_graph: GraphDriver, name: str, indexes: tuple[str, ...]) -> None:
    """Each arm of the window's union is a range seek on (space, time): the read touches
    the facts whose times fall in the window, whatever the size of the space."""
    with plan_graph.session() as session:
        plan = session.run("EXPLAIN " + query(name), {"space": "s", **WINDOW}).consume().plan
    assert plan is not None
    ops = _operators(plan)
    indexed = [d for d in _details(plan) if "INDEX" in d]
    assert not ops & {"NodeByLabelScan", "AllNodesScan", "NodeIndexScan"}, (ops, indexed)
    details = " ".join(_details(plan))
    for index in indexes:
        assert f"Fact(space, {index})" in details, details
