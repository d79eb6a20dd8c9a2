"""Entities by exact composite key (seed 001): type vocabulary, names, placeholders, sweep."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import entity_reads, projection
from graphmem.graph.entities import (
    VOCABULARY,
    entity_key,
    fold_type,
    normalise_name,
    resolve,
)


def rel(head: str, relation: str, tail: str, **kw: Any) -> dict[str, Any]:
    return {"head": head, "relation": relation, "tail": tail, "confidence": 0.9, **kw}


def keys(mem: GraphMem) -> list[str]:
    return [e.key for e in mem.entities.all()]


# ---- pure rules ------------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "folded"), [
    ("company", "organisation"), ("Org", "organisation"), ("organization", "organisation"),
    ("Companies", "organisation"), ("PERSON", "person"), ("people", "person"),
    ("micro-service", "other"), ("microservice", "service"), ("API", "service"),
    ("City", "location"), ("job title", "concept"), ("unknown", "unknown"),
    ("spaceship", "other"), ("   ", None), (None, None),
])
def test_types_fold_into_the_closed_vocabulary(raw: str | None, folded: str | None) -> None:
    assert fold_type(raw) == folded
    assert folded is None or folded in (*VOCABULARY, "unknown")


def test_names_normalise_exactly_never_fuzzily() -> None:
    assert normalise_name("  Matthew   Cauldwell ") == "matthew cauldwell"
    assert normalise_name("ＩＢＭ") == "ibm"
    assert normalise_name("Matt") != normalise_name("Matthew")
    with pytest.raises(InvalidInput):
        normalise_name("   ")


def test_an_untyped_name_resolves_only_to_a_single_typed_entity() -> None:
    assert resolve("acme", ["organisation:acme"]) == ("organisation", "organisation:acme")
    two = ["organisation:acme", "product:acme"]
    assert resolve("acme", two) == ("unknown", entity_key("unknown", "acme"))
    assert resolve("acme", ["unknown:acme"]) == ("unknown", "unknown:acme")


# ---- on the graph ----------------------------------------------------------------------------
def test_synonym_types_land_on_one_entity(mem: GraphMem) -> None:
    mem.remember_facts([rel("Alice", "works at", "Acme", head_type="person",
                            tail_type="company"),
                        rel("Bob", "works at", "ACME", head_type="person", tail_type="org")])
    assert keys(mem) == ["organisation:acme", "person:alice", "person:bob"]
    assert mem.entities.get("organization", "acme").entity.name == "Acme"


def test_same_name_under_two_types_is_two_entities(mem: GraphMem) -> None:
    mem.entities.create("organisation", "Apple")
    mem.entities.create("concept", "apple")
    assert keys(mem) == ["concept:apple", "organisation:apple"]


def test_seeded_entity_catches_later_untyped_mentions(mem: GraphMem) -> None:
    seeded = mem.entities.create("person", "Matthew Cauldwell")
    assert mem.entities.create("person", "matthew  cauldwell") == seeded  # idempotent
    mem.remember_facts([rel("matthew cauldwell", "works at", "IBM", tail_type="company"),
                        rel("Matt", "works at", "International Business Machines",
                            tail_type="company")])
    assert keys(mem) == ["organisation:ibm", "organisation:international business machines",
                         "person:matthew cauldwell", "unknown:matt"]
    view = mem.entities.get("person", "Matthew Cauldwell")
    assert view.value("works_at") == "IBM"


def test_unresolvable_relation_object_becomes_a_placeholder(mem: GraphMem) -> None:
    mem.remember_facts([rel("Billing", "calls", "Auth", head_type="service")])
    assert keys(mem) == ["service:billing", "unknown:auth"]
    fact = mem.active("billing_calls")[0]
    assert fact.tail == "Auth"
    assert mem.entities.get("unknown", "auth").links[0].fact.id == fact.id


def test_sweep_attaches_a_placeholder_to_the_one_typed_entity(mem: GraphMem) -> None:
    mem.remember_facts([rel("Billing", "calls", "Auth", head_type="service"),
                        rel("Auth", "owned by", "Alice", tail_type="person")])
    assert "unknown:auth" in keys(mem)
    mem.entities.create("service", "Auth")
    assert "unknown:auth" in keys(mem), "placeholders never auto-merge on the write path"
    result = mem.entities.sweep_placeholders()
    assert result.attached == (("unknown:auth", "service:auth"),)
    assert keys(mem) == ["person:alice", "service:auth", "service:billing"]
    auth = mem.entities.get("service", "auth")
    assert sorted(str(link) for link in auth.links) == [
        "-[owned by]-> Alice (person)", "<-[calls]- Billing (service)"]
    about, edges = projection.snapshot(mem.runtime.graph, mem.space.key)
    assert {e[2] for e in edges if e[0] == "CALLS"} == {"service:auth"}
    mem.entities.rebuild_projection()
    assert projection.snapshot(mem.runtime.graph, mem.space.key) == (about, edges)
    assert mem.records.fsck().ok


def test_sweep_leaves_a_placeholder_with_two_typed_candidates(mem: GraphMem) -> None:
    mem.remember_facts([rel("Alice", "likes", "Jaguar", head_type="person")])
    mem.entities.create("product", "Jaguar")
    mem.entities.create("concept", "jaguar")
    result = mem.entities.sweep_placeholders()
    assert result.attached == () and result.left == ("unknown:jaguar",)
    assert "unknown:jaguar" in keys(mem)


def test_create_entity_refuses_placeholder_type_and_empty_names(mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="pick one of"):
        mem.entities.create("unknown", "x")
    with pytest.raises(InvalidInput):
        mem.entities.create("person", "  ")
    assert mem.entities.all() == []


def test_unknown_entity_is_not_found(mem: GraphMem) -> None:
    with pytest.raises(NotFound, match="no entity"):
        mem.entities.get("person", "nobody")


def test_entities_filter_by_type_and_as_of(mem: GraphMem) -> None:
    mem.entities.create("person", "Alice")
    between = datetime.now(UTC)
    mem.entities.create("company", "Acme")
    assert [e.key for e in mem.entities.all("org")] == ["organisation:acme"]
    assert [e.key for e in mem.entities.all(as_of=between)] == ["person:alice"]


def test_vocabulary_offers_known_names_and_relation_labels(mem: GraphMem) -> None:
    mem.entities.create("person", "Matthew Cauldwell")
    mem.remember_facts([rel("Alice", "works at", "Acme"), rel("Alice", "Reports-To", "Bob")])
    vocab = mem.entities.vocabulary()
    assert vocab.entities[0].name == "Matthew Cauldwell"  # seeded names first
    assert "unknown:acme" not in {e.key for e in vocab.entities}
    assert vocab.relations == ("works_at", "reports_to")


def test_spaces_never_share_entities(make_mem: Any) -> None:
    a, b = make_mem(), make_mem()
    a.entities.create("person", "Alice")
    assert b.entities.all() == []
    with pytest.raises(NotFound):
        b.entities.get("person", "Alice")


def test_an_entity_view_holds_its_newest_facts_and_says_when_there_are_more(
        mem: GraphMem) -> None:
    mem.remember_facts([{"head": "Billing", "head_type": "service", "relation": "calls",
                         "tail": f"Service {i}", "tail_type": "service",
                         "cardinality": "many", "confidence": 0.9} for i in range(5)])
    billing = mem.entities.get("service", "Billing").entity
    whole = entity_reads.view(mem.runtime.graph, mem.space.key, billing)
    assert not whole.truncated and len(whole.links) == 5
    newest = entity_reads.view(mem.runtime.graph, mem.space.key, billing, limit=3)
    assert newest.truncated
    assert [link.fact.id for link in newest.links] == [link.fact.id for link in whole.links][2:]
