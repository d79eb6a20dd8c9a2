"""recall_related: start entities, bounded multi-hop paths, the facts behind each edge."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from neo4j import ManagedTransaction
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.errors import InvalidInput, NotFound
from graphmem.recall import related_answer
from graphmem.recall.related import Bounds, Related, lucene_query
from graphmem.runtime import Runtime

from support.llm_server import LLMServer

pytestmark = pytest.mark.races


def rel(head: str, relation: str, tail: str, **kw: Any) -> dict[str, Any]:
    return {"head": head, "relation": relation, "tail": tail, "confidence": 0.9,
            "cardinality": "many", **kw}


def services(mem: GraphMem) -> None:
    """Alice owns Billing and Auth, Bob owns Ledger; Ledger and Checkout call Billing."""
    for name in ("Billing", "Ledger", "Checkout", "Auth"):
        mem.entities.create("service", name)
    mem.remember_facts([rel("Alice", "owns", "Billing", head_type="person"),
                        rel("Alice", "owns", "Auth", head_type="person"),
                        rel("Bob", "owns", "Ledger", head_type="person"),
                        rel("Ledger", "calls", "Billing"),
                        rel("Checkout", "calls", "Billing"),
                        rel("Billing", "calls", "Auth")],
                       source="catalog", source_ref="https://wiki/services")


def names(result: Related) -> list[list[str]]:
    return sorted([result.entities[k].name for k in p.keys] for p in result.paths)


def test_question_names_the_start_entities_case_insensitively(mem: GraphMem) -> None:
    services(mem)
    result = mem.recall_related("WHO OWNS THE SERVICES THAT CALL BILLING?")
    assert [e.key for e in result.start] == ["service:billing"]
    assert result.matched_by == "name" and result.answer is None
    best = result.paths[0]
    assert result.render(best) == (
        "Billing (service) <-[CALLS]- Ledger (service) <-[OWNS]- Bob (person)")
    assert best.matched == ("call", "owns") and result.answers == ("person:bob",)
    assert [p.score for p in result.paths] == sorted(
        (p.score for p in result.paths), reverse=True)
    assert str(result).startswith("Answer: Bob (person)\n")
    assert not result.truncated


def test_without_a_question_the_neighbourhood_is_walked_unranked(mem: GraphMem) -> None:
    services(mem)
    result = mem.recall_related(entities=[("service", "Billing")])
    assert names(result) == [
        ["Billing", "Alice"], ["Billing", "Auth"], ["Billing", "Checkout"],
        ["Billing", "Ledger", "Bob"]]
    assert result.hops == 2 and not result.ranked and result.answers == ()


def test_each_edge_comes_with_its_fact_and_provenance(mem: GraphMem) -> None:
    services(mem)
    result = mem.recall_related(entities=[("service", "Ledger")], hops=1)
    by_fact = {e.fact_id: e for e in result.edges}
    assert set(by_fact) == set(result.facts)
    for fact_id, edge in by_fact.items():
        fact = result.facts[fact_id]
        assert (fact.source, fact.source_ref) == ("catalog", "https://wiki/services")
        assert fact.tail is not None and edge.relation == fact.relation
    assert "(catalog, since " in str(result) and "https://wiki/services" in str(result)


def test_hops_bound_the_depth(mem: GraphMem) -> None:
    services(mem)
    one = mem.recall_related(entities=[("person", "Bob")], hops=1)
    assert names(one) == [["Bob", "Ledger"]]
    three = mem.recall_related(entities=[("person", "Bob")], hops=3)
    assert ["Bob", "Ledger", "Billing", "Alice"] in names(three)
    assert ["Bob", "Ledger", "Billing", "Checkout"] in names(three)
    for hops in (0, 5):
        with pytest.raises(InvalidInput, match="hops must be between 1 and 4"):
            mem.recall_related(entities=[("person", "Bob")], hops=hops)


def test_every_shortest_path_is_kept_and_no_longer_one(mem: GraphMem) -> None:
    services(mem)
    mem.remember_facts([rel("Bob", "owns", "Checkout", head_type="person")])
    both = mem.recall_related(entities=[("person", "Bob")], hops=2)
    assert names(both) == [["Bob", "Checkout", "Billing"], ["Bob", "Ledger", "Billing"]]
    result = mem.recall_related(entities=[("person", "Alice")], hops=2)
    assert ["Alice", "Billing", "Auth"] not in names(result), "Auth is one hop from Alice"
    assert ["Alice", "Auth"] in names(result) and ["Alice", "Billing", "Ledger"] in names(result)


def test_retired_edges_are_not_traversed(mem: GraphMem) -> None:
    services(mem)
    mem.forget(facts=[rel("Ledger", "calls", "Billing")])
    result = mem.recall_related(entities=[("person", "Bob")], hops=3)
    assert names(result) == [["Bob", "Ledger"]]


def test_a_bare_name_starts_from_every_entity_of_that_name(mem: GraphMem) -> None:
    services(mem)
    mem.entities.create("concept", "billing")
    result = mem.recall_related(entities=["billing"], hops=1)
    assert sorted(e.key for e in result.start) == ["concept:billing", "service:billing"]
    with pytest.raises(NotFound):
        mem.recall_related(entities=["nobody"])
    with pytest.raises(NotFound):
        mem.recall_related(entities=[("person", "nobody")])


def test_a_question_about_nothing_known_says_so(mem: GraphMem) -> None:
    services(mem)
    result = mem.recall_related("what about the weather in Paris?")
    assert result.paths == () and result.matched_by == "fulltext" and result.start == ()
    assert str(result) == "No entity of the question is known in this space."
    assert mem.recall_related("???").start == ()
    with pytest.raises(InvalidInput, match="needs a question or a list of entities"):
        mem.recall_related()


def test_question_text_is_never_lucene_syntax() -> None:
    assert lucene_query('billing AND "x" OR title:(*) ~2 \\') == "billing and x or title 2"
    assert lucene_query("¿¡!!") == ""


def test_other_spaces_are_invisible(make_mem: Callable[..., GraphMem]) -> None:
    mine, theirs = make_mem(), make_mem()
    services(theirs)
    mine.entities.create("service", "Billing")
    result = mine.recall_related("who calls billing?")
    assert [e.key for e in result.start] == ["service:billing"] and result.paths == ()


def test_hub_entity_truncation_is_flagged(mem: GraphMem) -> None:
    mem.entities.create("service", "Hub")
    mem.remember_facts([rel(f"client {i}", "calls", "Hub", head_type="service")
                        for i in range(130)])
    fanned = mem.recall_related(entities=[("service", "hub")], hops=1, limit=500)
    assert fanned.truncated and len(fanned.paths) == Bounds().fanout
    capped = mem.recall_related(entities=[("service", "hub")], hops=1, limit=10)
    assert capped.truncated and len(capped.paths) == 10
    whole = mem.entities.neighbourhood("service", "client 7", hops=1)
    assert not whole.truncated and names(whole) == [["client 7", "Hub"]]
    deep = mem.entities.neighbourhood("service", "client 7", hops=2, limit=500)
    assert deep.truncated and Bounds().fanout - 1 <= len(deep.paths) <= Bounds().fanout


# ---- the answer, when an LLM is configured -----------------------------------------------------
@pytest.fixture
def with_llm(runtime: Runtime) -> Iterator[tuple[LLMServer, Runtime]]:
    server = LLMServer()
    settings = runtime.settings.model_copy(update={
        "llm_base_url": server.url, "llm_model": "test-model",
        "llm_api_key": SecretStr("test-key"), "llm_timeout": 10.0})
    built = Runtime(settings, runtime.graph, runtime.store)
    yield server, built
    built.close_workers()
    server.close()


def test_a_configured_llm_answers_from_the_paths_in_one_call(
        with_llm: tuple[LLMServer, Runtime], make_mem: Callable[..., GraphMem]) -> None:
    server, llm_runtime = with_llm
    plain = make_mem()
    services(plain)
    question = "Who owns the services that call Billing?"
    paths = plain.recall_related(question)
    prompt = related_answer.prompt(question, paths)
    server.script("chat", prompt, "Bob owns Ledger, which calls Billing (#facts).")
    with GraphMem(plain.space.key, runtime=llm_runtime) as mem:
        answered = mem.recall_related(question)
    assert answered.answer == "Bob owns Ledger, which calls Billing (#facts)."
    assert str(answered) == answered.answer and answered.paths == paths.paths
    assert server.count("chat") == 1
    assert server.last("chat").system == related_answer.SYSTEM
    assert all(f"#{fid}" in server.last("chat").user for fid in paths.facts)


def test_no_model_call_without_paths(with_llm: tuple[LLMServer, Runtime],
                                     make_mem: Callable[..., GraphMem]) -> None:
    server, llm_runtime = with_llm
    with GraphMem(make_mem().space.key, runtime=llm_runtime) as mem:
        assert mem.recall_related("who owns billing?").answer is None
    assert server.requests == []


def test_given_entities_are_looked_up_by_the_first_hop(mem: GraphMem,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """(type, name) starts cost no statement of their own: one per hop, one for the facts."""
    services(mem)
    sent: list[str] = []
    original, caller = ManagedTransaction.run, threading.get_ident()

    def spy(tx: ManagedTransaction, text: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() == caller:  # not the mirror's or the embedder's threads
            sent.append(str(text))
        return original(tx, text, *args, **kwargs)

    monkeypatch.setattr(ManagedTransaction, "run", spy)
    result = mem.recall_related(entities=[("person", "Bob"), ("service", "billing")], hops=2)
    assert len(sent) == 3
    assert [e.key for e in result.start] == ["person:bob", "service:billing"]
    assert result.start[0] == mem.entities.get("person", "Bob").entity


def test_a_missing_or_untyped_given_entity_is_refused_in_order(mem: GraphMem) -> None:
    services(mem)
    with pytest.raises(NotFound, match="'nobody' of type person"):
        mem.recall_related(entities=[("service", "Billing"), ("person", "nobody"),
                                     ("person", "ghost")])
    with pytest.raises(NotFound, match="'nobody'"):
        mem.recall_related(entities=[("person", "nobody"), ("", "Billing")])
    with pytest.raises(InvalidInput, match="entity type is required"):
        mem.recall_related(entities=[("", "Billing"), ("person", "nobody")])
