"""Fact clustering by entity overlap (seed 002): collisions on the remember result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem import GraphMem
from graphmem.graph.clusters import MAX_COLLISIONS
from graphmem.model import Action
from graphmem.runtime import Runtime


def rel(head: str, relation: str, tail: str, **kw: Any) -> dict[str, Any]:
    return {"head": head, "relation": relation, "tail": tail, "confidence": 0.9,
            "head_type": "person", **kw}


def test_overlapping_entity_sets_are_reported_as_collisions(mem: GraphMem) -> None:
    [first] = mem.remember_facts([rel("Alice", "works at", "Acme", tail_type="company")])
    assert first.collisions == ()
    [second] = mem.remember_facts([rel("Alice", "employed by", "Acme", tail_type="org")])
    assert second.action == Action.ADD, "different slots: reconcile does not relate them"
    assert second.collisions == ({
        "fact_id": first.fact_id, "subject": "alice_works_at", "value": "Acme",
        "shared": ["organisation:acme", "person:alice"], "jaccard": 1.0},)
    assert str(second) == "Stored: [ADD] alice_employed_by = Acme"
    assert {f.id for f in mem.active()} == {first.fact_id, second.fact_id}, "nothing decided"


def test_facts_reconciliation_already_related_are_not_collisions(mem: GraphMem) -> None:
    mem.remember_facts([rel("Alice", "works at", "Acme", tail_type="company")])
    [moved] = mem.remember_facts([rel("Alice", "works at", "Acme Corp", tail_type="company")])
    assert moved.action == Action.SUPERSEDE and moved.collisions == ()
    mem.remember_facts([rel("Bob", "knows", "Carol", cardinality="many", tail_type="person")])
    [item] = mem.remember_facts([rel("Bob", "knows", "Dan", cardinality="many",
                                     tail_type="person")])
    assert item.collisions == (), "same list slot: reconciliation already considered it"


def test_below_the_threshold_is_no_collision_and_the_threshold_is_configurable(
        runtime: Runtime, make_mem: Callable[..., GraphMem]) -> None:
    facts = [rel("Alice", "knows", "Bob", tail_type="person"),
             rel("Alice", "mentors", "Carol", tail_type="person")]
    default = make_mem()
    assert [r.collisions for r in default.remember_facts(facts)] == [(), ()]  # 1/3 < 0.5
    loose = runtime.settings.model_copy(update={"cluster_jaccard": 0.3})
    lenient = make_mem(settings=loose)
    first, second = lenient.remember_facts(facts)
    assert [c["fact_id"] for c in second.collisions] == [first.fact_id]
    assert second.collisions[0]["jaccard"] == round(1 / 3, 4)


def test_a_hub_reports_at_most_the_cap(mem: GraphMem) -> None:
    mem.remember_facts([{"head": "Acme", "head_type": "company", "relation": f"fact {i}",
                         "value": str(i), "confidence": 0.9} for i in range(MAX_COLLISIONS + 5)])
    [new] = mem.remember_facts([{"head": "Acme", "head_type": "company", "relation": "motto",
                                 "value": "ship it", "confidence": 0.9}])
    assert len(new.collisions) == MAX_COLLISIONS
    assert all(c["jaccard"] == 1.0 for c in new.collisions)


def test_flagged_newcomers_report_collisions_too(mem: GraphMem) -> None:
    [employed] = mem.remember_facts([rel("Alice", "employed by", "Acme", tail_type="company")])
    mem.remember_facts([rel("Alice", "works at", "Globex", tail_type="company")])
    [held] = mem.remember_facts([rel("Alice", "works at", "Acme", tail_type="company",
                                     confidence=0.4)])
    assert held.action == Action.FLAG
    assert [c["fact_id"] for c in held.collisions] == [employed.fact_id], (
        "the flagged rival on its own slot is already related; the other slot collides")
