"""The hot path reads through indexes: never a label scan of the space (planned on an empty and
on a populated database, `plan_graph`), never retired rows."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import query
from graphmem.remember import pipeline
from graphmem.remember.write import Batch


def _operators(plan: Any) -> set[str]:
    ops = {plan["operatorType"].split("@")[0]}
    for child in plan.get("children", []):
        ops |= _operators(child)
    return ops


def _explain(graph: GraphDriver, name: str, **params: Any) -> set[str]:
    with graph.session() as session:
        summary = session.run("EXPLAIN " + query(name), params).consume()
    assert summary.plan is not None
    return _operators(summary.plan)


@pytest.mark.parametrize("name, params", [
    ("remember/lock_and_load", {"slots": [{"subject": "db", "scope": "global"}],
                                "past": [{"subject": "db", "scope": "global"}],
                                "coexist": [{"subject": "db", "scope": "global"}]}),
    ("facts/hot", {"subject": None, "statuses": ["ACTIVE", "FLAGGED_CONFLICT"]}),
    ("remember/message_facts", {"message_key": "k"}),
])
def test_hot_path_statements_seek_indexes(plan_graph: GraphDriver, name: str,
                                          params: dict[str, Any]) -> None:
    ops = _operators_for(plan_graph, name, params)
    assert any("IndexSeek" in op for op in ops), ops
    assert not ops & {"NodeByLabelScan", "AllNodesScan"}, ops


def _operators_for(graph: GraphDriver, name: str, params: dict[str, Any]) -> set[str]:
    return _explain(graph, name, space="s", now=datetime.now(UTC), **params)


def test_reconcile_never_loads_retired_rows(mem: GraphMem, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    for value in ("COO", "CEO", "CTO"):
        mem.remember_facts([{"subject": "role", "value": value, "confidence": 0.9}])
    seen: list[int] = []
    original = pipeline.load_states

    def spy(tx: Any, space: str, proposals: Any, now: Any) -> Any:
        policy, states = original(tx, space, proposals, now)
        seen.extend(len(s.facts) for s in states.values())
        return policy, states

    monkeypatch.setattr(pipeline, "load_states", spy)
    mem.remember_facts([{"subject": "role", "value": "CFO", "confidence": 0.9}])
    assert seen == [1]


def test_one_call_is_one_transaction(mem: GraphMem, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Batch.apply

    def fail(self: Batch, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        raise RuntimeError("crash after the graph writes, before commit")

    monkeypatch.setattr(Batch, "apply", fail)
    with pytest.raises(RuntimeError):
        mem.remember_facts([{"subject": "db", "value": "MySQL"},
                            {"subject": "cache", "value": "Redis"}])
    assert mem.active() == [] and len(mem.history("db")) == 0
