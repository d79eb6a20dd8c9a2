"""remember(text) and forget(text) against the test LLM server and a real Neo4j: the flow of
DESIGN.md, seed 003's model calls per operation, retries, salvage and clear failures."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput, LLMUnavailable
from graphmem.recall.retrieve import ACTIVE_POOL, VECTOR
from graphmem.remember.extract import VERBATIM
from graphmem.remember.results import NO_FACTS, NOTHING_TO_RETRACT

from support.llm_server import LLMServer, Reply, closed_port_url, facts_reply

MOVED = "We moved to Postgres and dropped Redis"


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


def lines(results: list[Any]) -> list[str]:
    return [str(r) for r in results]


def values(mem: GraphMem) -> dict[str, str]:
    return {f.subject: f.value for f in mem.active()}


def test_moved_to_postgres_and_dropped_redis_is_supersede_and_retract(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("database", "MySQL"), fact("cache", "Redis")])
    llm.extraction(MOVED, fact("database", "Postgres", action="SUPERSEDE"),
                   fact("cache", "Redis", action="RETRACT"))
    out = llm_mem.remember(MOVED)
    assert lines(out) == ["Stored: [SUPERSEDE] database = Postgres",
                          "Stored: [RETRACT] cache = Redis"]
    assert values(llm_mem) == {"database": "Postgres"}
    assert llm.count("extract") == 1
    assert llm.last("extract").input == MOVED


def test_prefilter_hit_makes_no_model_call(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.extraction("We use Zustand", fact("state", "Zustand"))
    assert lines(llm_mem.remember("We use Zustand")) == ["Stored: [ADD] state = Zustand"]
    again = llm_mem.remember("  we use   ZUSTAND ")
    assert lines(again) == ["Stored: [DEDUP] state = Zustand"]
    assert llm.count("extract") == 1


def test_prefilter_misses_once_a_fact_of_the_message_changed(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.extraction("We use Zustand", fact("state", "Zustand"))
    llm_mem.remember("We use Zustand")
    llm_mem.remember_facts([fact("state", "Jotai")])
    llm_mem.remember("We use Zustand")
    assert llm.count("extract") == 2


def test_unparseable_json_is_retried_then_stored(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.script("extract", "Our plan is Pro", "Sure! Here you go", '{"facts": [{"subj',
               facts_reply(fact("plan", "Pro")))
    assert lines(llm_mem.remember("Our plan is Pro")) == ["Stored: [ADD] plan = Pro"]
    assert llm.count("extract") == 3


def test_unparseable_json_past_the_retries_fails_and_stores_nothing(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer) -> None:
    mem = make_llm_mem(settings={"extract_retries": 1})
    llm.script("extract", "Our plan is Pro", "not json at all")
    with pytest.raises(LLMUnavailable, match="no usable JSON in 2 attempts; nothing was stored"):
        mem.remember("Our plan is Pro")
    assert llm.count("extract") == 2
    assert mem.active() == []


def test_malformed_array_keeps_its_well_formed_facts(llm_mem: GraphMem, llm: LLMServer) -> None:
    good = json.dumps([fact("plan", "Pro"), fact("region", "eu-west")])[:-1]
    llm.script("extract", "Plan Pro in eu-west, seats 5", '{"facts": ' + good +
               ', {"subject": "seats", "value": 5, "conf')
    out = llm_mem.remember("Plan Pro in eu-west, seats 5")
    assert lines(out) == ["Stored: [ADD] plan = Pro", "Stored: [ADD] region = eu-west"]
    assert llm.count("extract") == 1


def test_invalid_facts_are_dropped_and_the_rest_kept(llm_mem: GraphMem, llm: LLMServer,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    llm.extraction("Plan Pro, tier gold", fact("plan", "Pro"), fact("tier", "gold", confidence=7),
                   {"value": "no subject"}, fact("!!!", "x"))
    assert lines(llm_mem.remember("Plan Pro, tier gold")) == ["Stored: [ADD] plan = Pro"]
    assert caplog.text.count("dropped") == 3


def test_chatter_reports_no_durable_fact(llm_mem: GraphMem, llm: LLMServer) -> None:
    assert lines(llm_mem.remember("hi there, how are you?")) == [NO_FACTS]
    assert llm.count("extract") == 1
    assert llm_mem.active() == []


def test_rate_limit_and_server_errors_are_retried_by_the_client(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.fail("chat", 429)
    llm.fail("chat", 503)
    llm.extraction("Our plan is Pro", fact("plan", "Pro"))
    assert lines(llm_mem.remember("Our plan is Pro")) == ["Stored: [ADD] plan = Pro"]
    assert llm.count("extract") == 3  # two transport retries inside the client, one success
    model = llm_mem.runtime.llm
    assert model is not None and model.calls == 1  # one call, as seed 003 counts it


def test_persistent_server_error_is_one_clear_line_and_stores_nothing(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.fail("chat", 503, times=10)
    with pytest.raises(LLMUnavailable) as info:
        llm_mem.remember("Our plan is Pro")
    assert "answered 503 after 2 retries" in str(info.value)
    assert "\n" not in str(info.value)
    assert llm.count("extract") == 3
    assert llm_mem.active() == []


def test_dead_endpoint_is_one_clear_line_and_stores_nothing(
        make_llm_mem: Callable[..., GraphMem]) -> None:
    mem = make_llm_mem(settings={"llm_base_url": closed_port_url(), "llm_max_retries": 0})
    with pytest.raises(LLMUnavailable, match="is unreachable: check GRAPHMEM_LLM_BASE_URL"):
        mem.remember("Our plan is Pro")
    assert mem.active() == []


def test_without_an_llm_remember_text_says_one_is_needed(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem()
    with pytest.raises(LLMUnavailable, match="need an LLM: set GRAPHMEM_LLM_BASE_URL"):
        mem.remember("Our plan is Pro")
    assert lines(mem.remember_facts([fact("plan", "Pro")])) == ["Stored: [ADD] plan = Pro"]


def test_empty_message_is_invalid_input(llm_mem: GraphMem, llm: LLMServer) -> None:
    with pytest.raises(InvalidInput, match="empty"):
        llm_mem.remember("   ")
    assert llm.count("extract") == 0


def test_structured_output_falls_back_to_json_mode(llm_mem: GraphMem, llm: LLMServer,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    llm.without_json_schema()
    llm.extraction("Our plan is Pro", fact("plan", "Pro"))
    llm.extraction("Our region is eu", fact("region", "eu"))
    assert lines(llm_mem.remember("Our plan is Pro")) == ["Stored: [ADD] plan = Pro"]
    assert lines(llm_mem.remember("Our region is eu")) == ["Stored: [ADD] region = eu"]
    formats = [r.response_format for r in llm.requests if r.kind == "extract"]
    assert formats == ["json_schema", "json_object", "json_object"]
    assert "rejected response_format json_schema" in caplog.text


def test_structured_output_sends_a_strict_schema(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm_mem.remember("hello")
    fmt = llm.last("extract").body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    item = fmt["json_schema"]["schema"]["$defs"]["ExtractedFact"]
    assert item["additionalProperties"] is False
    assert set(item["required"]) == set(item["properties"]) >= {
        "subject", "value", "scope", "kind", "time_ref", "action", "confidence", "head",
        "relation", "tail", "reason"}


def test_extractor_sees_declared_slots_and_the_verbatim_instruction(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer) -> None:
    mem = make_llm_mem(slot_schema={"slots": [
        {"name": "active_medication", "description": "drugs taken now, with dose",
         "multi": True, "verbatim": True, "aliases": ["meds"]},
        {"name": "plan", "description": "the billing plan"}]})
    mem.remember("I take Warfarin 5mg")
    user = llm.last("extract").user
    assert ("- active_medication (also called meds): drugs taken now, with dose"
            " [list; verbatim]") in user
    assert "- plan: the billing plan" in user
    assert VERBATIM in user
    assert user.endswith("Message:\n<<<\nI take Warfarin 5mg\n>>>")


def test_extractor_sees_at_most_reconcile_context_facts_most_relevant_first(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer) -> None:
    mem = make_llm_mem(settings={"reconcile_context": 10})
    mem.remember_facts([fact(f"service_{i}_owner", f"team {i}") for i in range(30)]
                       + [fact("primary_database", "MySQL")])
    mem.records.wait_for_embeddings()
    calls = mem.runtime.embedder.calls
    mem.remember("The primary database is Postgres now")
    shown = [ln for ln in llm.last("extract").user.splitlines() if ln.startswith("#")]
    assert len(shown) == 10
    assert shown[0].endswith("primary_database = MySQL")
    assert mem.runtime.embedder.calls == calls + 1  # the message, to rank the context


def test_small_space_shows_every_active_fact_without_embedding_the_message(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro"), fact("region", "eu")])
    llm_mem.records.wait_for_embeddings()
    calls = llm_mem.runtime.embedder.calls
    llm_mem.remember("hello")
    shown = [ln for ln in llm.last("extract").user.splitlines() if ln.startswith("#")]
    assert sorted(s.split(" ", 1)[1] for s in shown) == ["plan = Pro", "region = eu"]
    assert llm_mem.runtime.embedder.calls == calls


def test_new_facts_are_embedded_in_one_batched_call(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.extraction("Plan Pro in eu, 5 seats", fact("plan", "Pro"), fact("region", "eu"),
                   fact("seats", "5"))
    llm_mem.records.wait_for_embeddings()
    before = llm_mem.runtime.embedder.calls
    llm_mem.remember("Plan Pro in eu, 5 seats")
    assert llm_mem.records.wait_for_embeddings()
    assert llm_mem.runtime.embedder.calls == before + 1
    ranked = llm_mem._ctx.ranked().rank(llm_mem.space.key, "how many seats", ACTIVE_POOL, VECTOR, 3)
    assert ranked.method == "vector" and len(ranked.ids) == 3  # every fact has its vector
    seats = [f.id for f in llm_mem.active("seats")]
    assert ranked.ids[0] in seats


def test_forget_forces_retract_and_skips_the_prefilter(llm_mem: GraphMem,
                                                       llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("monitoring", "Sentry")])
    llm.extraction("forget Sentry", fact("monitoring", "Sentry", action="ADD"))
    assert lines(llm_mem.forget("forget Sentry")) == ["Stored: [RETRACT] monitoring = Sentry"]
    assert lines(llm_mem.forget("forget Sentry")) == [NOTHING_TO_RETRACT]
    assert llm.count("extract") == 2
    assert "RETRACT of that value" in llm.last("extract").user
    assert llm_mem.active("monitoring") == []


def test_forget_with_nothing_extracted_says_nothing_matched(llm_mem: GraphMem,
                                                            llm: LLMServer) -> None:
    assert lines(llm_mem.forget("forget the thing")) == [NOTHING_TO_RETRACT]
    assert llm.count("extract") == 1


def test_transport_retry_counts_separately_from_json_retries(
        llm_mem: GraphMem, llm: LLMServer) -> None:
    llm.fail("chat", 500)
    llm.script("extract", "Our plan is Pro", Reply("oops"), Reply(facts_reply(fact("plan", "Pro"))))
    assert lines(llm_mem.remember("Our plan is Pro")) == ["Stored: [ADD] plan = Pro"]
    assert llm.count("extract") == 3
