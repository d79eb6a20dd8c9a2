"""The typed projection: written with the fact, retired with it, rebuilt from the facts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import ManagedTransaction

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.graph import projection
from graphmem.graph.identifiers import SAFE_IDENTIFIER
from graphmem.graph.statements import registry
from graphmem.model import Action, Status


def rel(head: str, relation: str, tail: str | None = None, **kw: Any) -> dict[str, Any]:
    fact = {"head": head, "relation": relation, "confidence": 0.9, **kw}
    if tail is not None:
        fact["tail"] = tail
    return fact


def edges(mem: GraphMem) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """(type, head key, tail key) → the edges' properties."""
    found: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for type_, head, tail, props in projection.snapshot(mem.runtime.graph, mem.space.key)[1]:
        found.setdefault((type_, head, tail), []).append(dict(props))
    return found


def statuses(mem: GraphMem) -> dict[tuple[str, str, str], list[str]]:
    return {k: sorted(p["status"] for p in v) for k, v in edges(mem).items()}


# ---- how a relation maps to a slot -----------------------------------------------------------
def test_relation_fact_slot_is_head_relation_and_value_is_tail(mem: GraphMem) -> None:
    [result] = mem.remember_facts([rel("Alice", "works at", "Acme")])
    assert str(result) == "Stored: [ADD] alice_works_at = Acme"
    declared = mem.remember_facts([rel("Alice", "works at", "Acme", subject="employer")])
    assert declared[0].subject == "employer"


@pytest.mark.parametrize(("fact", "message"), [
    ({"relation": "works at", "tail": "Acme", "subject": "x"}, "'head' is required"),
    ({"head": "Alice", "tail": "Acme", "subject": "x"}, "'relation' is required"),
    (rel("Alice", "works at", "Acme", value="Globex"), "must equal 'tail'"),
])
def test_malformed_relation_facts_are_refused_and_nothing_is_written(
        mem: GraphMem, fact: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        mem.remember_facts([rel("Bob", "knows", "Carol"), fact])
    assert mem.active() == [] and mem.entities.all() == []


def test_projection_is_written_in_the_fact_write_transaction(mem: GraphMem) -> None:
    mem.remember_facts([rel("Alice", "works at", "Acme", head_type="person",
                            tail_type="company")], source_ref="slack://1")
    [fact] = mem.active()
    [edge] = edges(mem)[("WORKS_AT", "person:alice", "organisation:acme")]
    assert edge["fact_id"] == fact.id and edge["status"] == "ACTIVE"
    assert edge["space"] == mem.space.key and edge["relation"] == "works at"
    assert {"valid_from", "held_from", "recorded_at", "confidence"} <= set(edge)
    about = projection.snapshot(mem.runtime.graph, mem.space.key)[0]
    assert about == {(fact.id, "head", "person:alice"), (fact.id, "tail", "organisation:acme")}
    # a fact whose entity cannot be named fails its whole write: nothing is half-written
    with pytest.raises(InvalidInput):
        mem.remember_facts([rel("Bob", "knows", "Carol"),
                            {"subject": "bad", "value": "x", "head": "\x85"}])
    assert [f.subject for f in mem.active()] == ["alice_works_at"]


def test_attribute_fact_points_at_its_entity_without_an_edge(mem: GraphMem) -> None:
    mem.remember_facts([{"head": "Alice", "head_type": "person", "relation": "role",
                         "value": "CTO", "confidence": 0.9}])
    assert edges(mem) == {}
    assert mem.entities.get("person", "alice").value("role") == "CTO"


# ---- cardinality -----------------------------------------------------------------------------
def test_single_valued_relation_supersedes_its_old_tail_and_retires_the_edge(
        mem: GraphMem) -> None:
    mem.remember_facts([rel("Alice", "works at", "Acme", head_type="person",
                            tail_type="company")])
    [result] = mem.remember_facts([rel("Alice", "works at", "Globex", head_type="person",
                                       tail_type="company")])
    assert result.action == Action.SUPERSEDE
    found = edges(mem)
    [old] = found[("WORKS_AT", "person:alice", "organisation:acme")]
    [new] = found[("WORKS_AT", "person:alice", "organisation:globex")]
    assert (old["status"], new["status"]) == ("SUPERSEDED", "ACTIVE")
    assert old["valid_to"] and old["retired_at"] and "valid_to" not in new
    assert mem.entities.get("person", "Alice").value("works_at") == "Globex"


def test_many_valued_relation_keeps_one_live_edge_per_tail(mem: GraphMem) -> None:
    calls = [rel("Billing", "calls", t, head_type="service", tail_type="service",
                 cardinality="many") for t in ("Auth", "Payments", "Ledger")]
    assert [r.action for r in mem.remember_facts(calls)] == [Action.ADD] * 3
    [removal] = mem.forget(facts=[rel("Billing", "calls", "Payments")])
    assert removal.action == Action.RETRACT
    assert statuses(mem) == {
        ("CALLS", "service:billing", "service:auth"): ["ACTIVE"],
        ("CALLS", "service:billing", "service:ledger"): ["ACTIVE"],
        ("CALLS", "service:billing", "service:payments"): ["SUPERSEDED"],
    }, "the tombstone projects no edge and only the named edge is retired"
    assert sorted(f.value for f in mem.active("billing_calls")) == ["Auth", "Ledger"]


def test_cardinality_defaults_to_one(mem: GraphMem) -> None:
    mem.remember_facts([rel("Billing", "calls", "Auth")])
    mem.remember_facts([rel("Billing", "calls", "Ledger")])
    assert [f.value for f in mem.active("billing_calls")] == ["Ledger"]


def test_declared_slot_decides_cardinality(make_mem: Any) -> None:
    mem = make_mem(slot_schema={"slots": [{"name": "depends_on", "multi": True}]})
    for tail in ("Postgres", "Redis"):
        mem.remember_facts([rel("Billing", "depends on", tail, subject="depends_on",
                                cardinality="one")])
    assert sorted(statuses(mem).values()) == [["ACTIVE"], ["ACTIVE"]]


def test_held_removal_projects_no_edge(mem: GraphMem) -> None:
    mem.remember_facts([rel("Billing", "calls", "Auth", cardinality="many")])
    [held] = mem.forget(facts=[rel("Billing", "calls", "Auth", confidence=0.4)])
    assert held.action == Action.FLAG
    assert statuses(mem) == {("CALLS", "unknown:billing", "unknown:auth"): ["ACTIVE"]}


# ---- approvals move edges with their facts -------------------------------------------------------
def _contested(mem: GraphMem) -> tuple[str, str]:
    mem.remember_facts([rel("Alice", "works at", "Acme")], source="hr")
    [held] = mem.remember_facts([rel("Alice", "works at", "Globex", confidence=0.5)],
                                source="hr")
    assert held.action == Action.FLAG and held.conflict_id and held.fact_id
    return held.conflict_id, held.fact_id


def test_resolving_a_conflict_for_the_newcomer_swaps_the_edges(mem: GraphMem) -> None:
    conflict, newcomer = _contested(mem)
    assert statuses(mem)[("WORKS_AT", "unknown:alice", "unknown:globex")] == [
        "FLAGGED_CONFLICT"]
    mem.review.resolve_conflict(conflict, newcomer)
    assert statuses(mem) == {("WORKS_AT", "unknown:alice", "unknown:acme"): ["SUPERSEDED"],
                             ("WORKS_AT", "unknown:alice", "unknown:globex"): ["ACTIVE"]}


def test_dismissing_a_conflict_keeps_both_edges_active(mem: GraphMem) -> None:
    conflict, _ = _contested(mem)
    mem.review.dismiss_conflict(conflict, note="both true: two part-time jobs")
    assert sorted(statuses(mem).values()) == [["ACTIVE"], ["ACTIVE"]]
    assert mem.records.fsck().ok, "a dismissed conflict's coexisting facts are not a violation"


def test_resolving_for_the_incumbent_retires_the_newcomer_edge(mem: GraphMem) -> None:
    conflict, newcomer = _contested(mem)
    incumbent = next(f.id for f in mem.active() if f.value == "Acme")
    mem.review.resolve_conflict(conflict, incumbent)
    assert statuses(mem) == {("WORKS_AT", "unknown:alice", "unknown:acme"): ["ACTIVE"],
                             ("WORKS_AT", "unknown:alice", "unknown:globex"): ["SUPERSEDED"]}
    assert newcomer not in {f.id for f in mem.active()}


CONFIRM = {"slots": [{"name": "employer", "confirm": True}]}


def _pending(mem: GraphMem) -> str:
    mem.remember_facts([rel("Alice", "works at", "Acme", subject="employer")])
    [held] = mem.remember_facts([rel("Alice", "works at", "Globex", subject="employer")])
    assert held.action == Action.FLAG and held.fact_id
    return held.fact_id


def test_confirming_a_pending_change_moves_the_edge(make_mem: Any) -> None:
    mem = make_mem(slot_schema=CONFIRM)
    mem.review.confirm(_pending(mem))
    assert statuses(mem) == {("WORKS_AT", "unknown:alice", "unknown:acme"): ["SUPERSEDED"],
                             ("WORKS_AT", "unknown:alice", "unknown:globex"): ["ACTIVE"]}


def test_rejecting_a_pending_change_retires_its_edge(make_mem: Any) -> None:
    mem = make_mem(slot_schema=CONFIRM)
    mem.review.reject(_pending(mem))
    assert statuses(mem) == {("WORKS_AT", "unknown:alice", "unknown:acme"): ["ACTIVE"],
                             ("WORKS_AT", "unknown:alice", "unknown:globex"): ["HISTORICAL"]}
    assert mem.records.fsck().ok


# ---- hostile relation strings ----------------------------------------------------------------
HOSTILE = [
    "KNOWS]->(x) DETACH DELETE x//",
    "`) MATCH (n) DETACH DELETE n //",
    "KNOWS {since: 1}]->()",
    "KNOWS\nMATCH (n) DELETE n",
    "KNOWS' OR 1=1 --",
    "$(\"x\") MATCH (n) SET n.pwned = true",
    "a`b",
    "日本語",
]


@pytest.fixture
def cypher_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every query text sent to Neo4j while the test runs (the real driver still runs it)."""
    sent: list[str] = []
    original = ManagedTransaction.run

    def recording(self: ManagedTransaction, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(ManagedTransaction, "run", recording)
    yield sent


def test_hostile_relation_strings_never_reach_cypher_text(
        mem: GraphMem, cypher_texts: list[str]) -> None:
    facts = [rel("Mallory", r, f"Target {i}", cardinality="many") for i, r in enumerate(HOSTILE)]
    mem.remember_facts(facts)
    mem.entities.rebuild_projection()
    mem.entities.sweep_placeholders()
    known = set(registry().values())
    assert cypher_texts and all(text in known for text in cypher_texts)
    assert not any(h in text for h in HOSTILE for text in cypher_texts)
    found = edges(mem)
    assert len(found) == len(HOSTILE)
    assert all(SAFE_IDENTIFIER.match(type_) for type_, _, _ in found)
    assert {p[0]["relation"] for p in found.values()} == set(HOSTILE)
    assert ("RELATED_TO", "unknown:mallory", "unknown:target 7") in found
    assert len(mem.active()) == len(HOSTILE), "no statement deleted or touched other nodes"


# ---- rebuild ---------------------------------------------------------------------------------
def _mixed_history(mem: GraphMem) -> None:
    mem.entities.create("service", "Auth")
    mem.remember_facts([rel("Alice", "works at", "Acme", head_type="person", tail_type="org"),
                        rel("Billing", "calls", "Auth", cardinality="many"),
                        rel("Billing", "calls", "Ledger", cardinality="many"),
                        rel("Billing", "calls", "Ledger API", cardinality="many"),
                        {"head": "Alice", "relation": "role", "value": "CTO",
                         "confidence": 0.9}])
    mem.remember_facts([rel("Alice", "works at", "Globex", head_type="person",
                            tail_type="org")])
    mem.forget(facts=[rel("Billing", "calls", "Ledger")])
    mem.remember_facts([rel("Alice", "works at", "Initech", confidence=0.5)], source="x")
    mem.remember_facts([rel("Bob", "met", "Alice", kind="event", time_ref="past")])
    mem.remember_facts([rel("Carol", "used", "Acme", time_ref="past")])


def test_rebuilt_graph_equals_the_original(mem: GraphMem) -> None:
    _mixed_history(mem)
    original = projection.snapshot(mem.runtime.graph, mem.space.key)
    assert len(original[1]) == 8 and len(original[0]) > 10
    result = mem.entities.rebuild_projection()
    assert result.removed_edges == 8 and result.facts >= 9
    assert projection.snapshot(mem.runtime.graph, mem.space.key) == original
    mem.entities.rebuild_projection()
    again = projection.snapshot(mem.runtime.graph, mem.space.key)
    assert again == original, "rebuild is idempotent"


def test_rebuild_restores_a_damaged_projection(mem: GraphMem) -> None:
    _mixed_history(mem)
    original = projection.snapshot(mem.runtime.graph, mem.space.key)
    mem.runtime.graph.write("projection/unproject_edges", space=mem.space.key, limit=3)
    assert projection.snapshot(mem.runtime.graph, mem.space.key) != original
    assert not mem.records.fsck().ok
    mem.entities.rebuild_projection()
    assert projection.snapshot(mem.runtime.graph, mem.space.key) == original
    assert mem.records.fsck().ok


def test_retired_facts_keep_their_retired_edges(mem: GraphMem) -> None:
    _mixed_history(mem)
    by_status: dict[str, int] = {}
    for props in edges(mem).values():
        for p in props:
            by_status[p["status"]] = by_status.get(p["status"], 0) + 1
    assert by_status == {Status.ACTIVE.value: 4, Status.SUPERSEDED.value: 2,
                         Status.FLAGGED_CONFLICT.value: 1, Status.HISTORICAL.value: 1}
