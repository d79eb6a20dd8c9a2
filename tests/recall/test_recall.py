"""recall(question) on a real Neo4j with the real local embedding model and the test LLM:
small spaces skip ranking, larger ones are fused by RRF, critical facts always go in, the
answer is one call, provenance is deterministic, and ranking degrades to full-text loudly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import BudgetExceeded, InvalidInput
from graphmem.model.recall import NO_FACTS, NO_MODEL
from graphmem.recall.retrieve import FUSED, HOT_STATUSES, LEXICAL, VECTOR, Pool

from support.llm_server import LLMServer, closed_port_url
from support.query_cache import without_clearing


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


def crowd(mem: GraphMem, n: int = 60) -> None:
    """A space larger than GRAPHMEM_RECALL_CONTEXT (40), so recall has to rank."""
    mem.remember_facts([fact(f"service_{i}_owner", f"team {i}") for i in range(n)])


def shown(llm: LLMServer) -> list[str]:
    return [ln for ln in llm.last("answer").user.splitlines() if ln.startswith("#")]


def test_small_space_sends_every_fact_and_embeds_no_question(llm_mem: GraphMem,
                                                             llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro"), fact("region", "eu"), fact("seats", "5")])
    llm_mem.records.wait_for_embeddings()
    calls = llm_mem.runtime.embedder.calls
    result = llm_mem.recall("what plan are we on?")
    assert result.method == "all"
    assert str(result) == "Answer from 3 facts."
    assert llm_mem.runtime.embedder.calls == calls
    assert llm.count("answer") == 1


def test_large_space_is_fused_and_cut_to_the_recall_context(llm_mem: GraphMem,
                                                            llm: LLMServer) -> None:
    crowd(llm_mem)
    llm_mem.remember_facts([fact("primary_database", "Postgres")])
    llm_mem.records.wait_for_embeddings()
    calls = llm_mem.runtime.embedder.calls
    result = llm_mem.recall("what is our primary database?")
    assert result.method == "fused"
    assert len(result.facts) == 40
    assert result.facts[0].fact.subject == "primary_database"
    assert len(shown(llm)) == 40 and shown(llm)[0].endswith("primary_database = Postgres"
                                                            " [conf 0.95]")
    assert llm_mem.runtime.embedder.calls == calls + 1
    assert llm.count("answer") == 1


def test_query_embeddings_are_cached_by_exact_text(llm_mem: GraphMem,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    crowd(llm_mem, 45)
    llm_mem.records.wait_for_embeddings()
    embedder = llm_mem.runtime.embedder

    tried = iter(range(7, 100))

    def cached_by_exact_text() -> bool:
        service = next(tried)  # a question not asked before
        calls = embedder.calls
        llm_mem.recall(f"who owns service {service}?")
        llm_mem.recall(f"who owns service {service}?")
        once = embedder.calls == calls + 1
        llm_mem.recall(f"who owns service {service} ?")
        return once and embedder.calls == calls + 2

    assert without_clearing(embedder, monkeypatch, cached_by_exact_text)


def test_vector_ranking_uses_the_real_model_for_meaning(llm_mem: GraphMem) -> None:
    crowd(llm_mem)
    llm_mem.remember_facts([fact("primary_database", "Postgres"),
                            fact("favourite_fruit", "mango")])
    ranker, key, pool = llm_mem._ctx.ranked(), llm_mem.space.key, Pool(HOT_STATUSES)
    question = "Which RDBMS runs in production?"  # shares no word with any fact
    assert ranker.rank(key, question, pool, LEXICAL, 5).ids == ()
    top = ranker.rank(key, question, pool, VECTOR, 3).ids
    assert top[0] == llm_mem.active("primary_database")[0].id


def test_fused_ranking_keeps_what_either_ranker_found(llm_mem: GraphMem) -> None:
    crowd(llm_mem)
    llm_mem.remember_facts([fact("primary_database", "Postgres"), fact("zx_code", "q7")])
    ranker, key, pool = llm_mem._ctx.ranked(), llm_mem.space.key, Pool(HOT_STATUSES)
    fused = ranker.rank(key, "which RDBMS runs prod, and what is the zx code", pool, FUSED, 5)
    assert {llm_mem.active("primary_database")[0].id, llm_mem.active("zx_code")[0].id} <= set(
        fused.ids)


def test_explain_lists_the_exact_facts_with_provenance(llm_mem: GraphMem,
                                                       llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("state", "Redux")], source="crm")
    llm_mem.remember_facts([fact("state", "Zustand")], source="crm")
    old = llm_mem.history("state").entries[0].fact
    new = llm_mem.active("state")[0]
    result = llm_mem.recall("what state library do we use?", explain=True)
    assert str(result) == (
        "Answer from 1 facts.\n\nBased on these facts:\n"
        f"• #{new.id} state = Zustand [conf 0.95, from crm, supersedes #{old.id}]")
    assert shown(llm) == [f"#{new.id} state = Zustand [conf 0.95, from crm, supersedes"
                          f" #{old.id}]"]


def test_superseded_value_never_comes_back_as_current(llm_mem: GraphMem,
                                                      llm: LLMServer) -> None:
    crowd(llm_mem)
    llm_mem.remember_facts([fact("state", "Redux")])
    llm_mem.remember_facts([fact("state", "Zustand")])
    result = llm_mem.recall("which state library do we use?")
    assert "Redux" not in llm.last("answer").user
    assert [f.fact.value for f in result.facts if f.fact.subject == "state"] == ["Zustand"]


def test_include_history_adds_retired_facts_tagged_history(llm_mem: GraphMem,
                                                           llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("monitoring", "Sentry"), fact("state", "Redux")])
    llm_mem.remember_facts([fact("state", "Zustand")])
    llm_mem.forget(facts=[fact("monitoring", "Sentry")])
    result = llm_mem.recall("what did we use before?", include_history=True, explain=True)
    tagged = {(f.fact.value, f.history) for f in result.facts}
    assert tagged == {("Redux", True), ("Zustand", False), ("Sentry", True),
                      ("(retracted: Sentry)", True)}
    assert any(ln.startswith("• #") and "state = Redux (history)" in ln
               for ln in str(result).splitlines())
    assert any("(retracted: Sentry) (history) [conf 1.00, retracts #" in ln or
               "(retracted: Sentry) (history)" in ln for ln in shown(llm))


def test_as_of_recalls_what_memory_held_then(llm_mem: GraphMem, llm: LLMServer) -> None:
    before = datetime.now(UTC)
    llm_mem.remember_facts([fact("state", "Redux")])
    between = datetime.now(UTC)
    llm_mem.remember_facts([fact("state", "Zustand")])
    then = llm_mem.recall("what state library?", as_of=between)
    assert [(f.fact.value, f.history) for f in then.facts] == [("Redux", False)]
    now = llm_mem.recall("what state library?")
    assert [f.fact.value for f in now.facts] == ["Zustand"]
    both = llm_mem.recall("what state library?", as_of=datetime.now(UTC),
                          include_history=True)
    assert {(f.fact.value, f.history) for f in both.facts} == {("Redux", True),
                                                             ("Zustand", False)}
    assert str(llm_mem.recall("what state library?", as_of=before)) == NO_FACTS
    assert llm.count("answer") == 3  # nothing to answer from: no call


def test_as_of_without_a_timezone_is_invalid(llm_mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="timezone"):
        llm_mem.recall("what?", as_of=datetime(2026, 1, 1))
    with pytest.raises(InvalidInput, match="empty"):
        llm_mem.recall("  ")


def test_open_conflicts_touching_retrieved_facts_add_a_warning(llm_mem: GraphMem,
                                                               llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro", confidence=0.95)], source="crm")
    out = llm_mem.remember_facts([fact("plan", "Free", confidence=0.8)], source="crm")
    assert [str(r) for r in out] == ["Stored: [FLAG] plan = Free"]
    pro, free = llm_mem.active("plan")[0], llm_mem.review.flagged()[0]
    result = llm_mem.recall("what plan are we on?")
    text = str(result)
    assert "⚠ OPEN CONFLICTS" in text
    assert f"#{pro.id} Pro [ACTIVE] vs #{free.id} Free [FLAGGED_CONFLICT]" in text
    assert "Open conflicts:" in llm.last("answer").user
    assert f"#{free.id} plan = Free (flagged)" in llm.last("answer").user


def test_critical_facts_always_go_in(llm_mem: GraphMem, llm: LLMServer) -> None:
    crowd(llm_mem)
    llm_mem.remember_facts([fact("allergy", "penicillin", category="critical"),
                            fact("escalation", "page the CFO", category="safety")])
    result = llm_mem.recall("who owns service 3?", critical_categories=["safety"])
    subjects = [f.fact.subject for f in result.facts]
    assert set(subjects[:2]) == {"allergy", "escalation"}
    assert len(subjects) == 42  # the two critical facts plus the ranked top 40
    plain = llm_mem.recall("who owns service 3?")
    assert "allergy" in [f.fact.subject for f in plain.facts]
    assert "escalation" not in [f.fact.subject for f in plain.facts][:1]


def test_past_the_critical_budget_recall_fails_instead_of_truncating(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer) -> None:
    mem = make_llm_mem(settings={"critical_budget": 2})
    mem.remember_facts([fact(f"allergy_{i}", f"drug {i}", category="critical")
                        for i in range(3)])
    with pytest.raises(BudgetExceeded, match="more than 2 facts are in critical categories"):
        mem.recall("any allergies?")
    assert llm.count("answer") == 0


def test_without_an_llm_recall_returns_the_ranked_facts_and_says_so(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem()
    crowd(mem)
    mem.remember_facts([fact("primary_database", "Postgres")])
    result = mem.recall("what is the primary database?")
    assert result.answer is None and not result.model_answered
    text = str(result).splitlines()
    assert text[0] == NO_MODEL
    assert text[1].startswith("• #") and "primary_database = Postgres" in text[1]
    assert len(text) == 41


def test_embedder_down_falls_back_to_full_text_and_says_so(
        make_llm_mem: Callable[..., GraphMem], caplog: pytest.LogCaptureFixture) -> None:
    mem = make_llm_mem(settings={"embedding_base_url": closed_port_url(),
                                 "embedding_model": "test-embed", "llm_max_retries": 0})
    crowd(mem)
    assert mem.records.wait_for_embeddings()
    assert "stored without vectors (still found by full-text" in caplog.text
    mem.remember_facts([fact("primary_database", "Postgres")])
    result = mem.recall("what is our primary database?")
    assert result.method == "lexical"
    assert "vector ranking unavailable" in result.note
    assert result.facts[0].fact.subject == "primary_database"
    assert "recall: vector ranking unavailable (embeddings endpoint" in caplog.text


def test_dimension_mismatch_falls_back_to_full_text_and_says_so(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer,
        caplog: pytest.LogCaptureFixture) -> None:
    llm.embedding_dims(8)
    mem = make_llm_mem(settings={"embedding_base_url": llm.url, "embedding_model": "tiny"})
    crowd(mem)
    mem.remember_facts([fact("primary_database", "Postgres")])
    assert mem.records.wait_for_embeddings()
    assert "gives 8 dimensions but the fact_vector index holds 384" in caplog.text
    result = mem.recall("what is our primary database?")
    assert result.method == "lexical"
    assert result.facts[0].fact.subject == "primary_database"
    assert "recall: vector ranking unavailable" in caplog.text


def test_remote_embeddings_endpoint_is_used_when_configured(
        make_llm_mem: Callable[..., GraphMem], llm: LLMServer) -> None:
    mem = make_llm_mem(settings={"embedding_base_url": llm.url, "embedding_model": "remote"})
    crowd(mem)
    assert mem.records.wait_for_embeddings()
    assert llm.count("embeddings") == 1  # one batched call for the 60 new facts
    result = mem.recall("who owns service 12?")
    assert result.method == "fused"
    assert llm.count("embeddings") == 2
    assert llm.requests[0].body["model"] == "remote"


def test_history_listing_and_checks_make_no_model_calls(llm_mem: GraphMem,
                                                        llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro")])
    llm_mem.remember_facts([fact("plan", "Team")])
    llm_mem.records.wait_for_embeddings()
    calls = llm_mem.runtime.embedder.calls
    llm_mem.history("plan")
    llm_mem.records.list_memories()
    llm_mem.records.check_before_act(["plan"])
    llm_mem.review.conflicts()
    assert llm.requests == []
    assert llm_mem.runtime.embedder.calls == calls


def test_each_recall_is_one_answer_call(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro")])
    llm.script("answer", "what plan?", "You are on Pro.")
    assert str(llm_mem.recall("what plan?")) == "You are on Pro."
    assert str(llm_mem.recall("what plan?", explain=True)).startswith("You are on Pro.\n\n")
    assert llm.count("answer") == 2 and llm.count("extract") == 0


def test_answer_model_failure_is_one_clear_line(llm_mem: GraphMem, llm: LLMServer) -> None:
    llm_mem.remember_facts([fact("plan", "Pro")])
    llm.fail("chat", 500, times=5)
    with pytest.raises(Exception, match="answered 500 after 2 retries") as info:
        llm_mem.recall("what plan?")
    assert "\n" not in str(info.value)


def test_writes_that_change_nothing_are_not_reembedded(llm_mem: GraphMem) -> None:
    llm_mem.remember_facts([fact("plan", "Pro")])
    llm_mem.records.wait_for_embeddings()
    calls = llm_mem.runtime.embedder.calls
    llm_mem.remember_facts([fact("plan", "Pro")])  # DEDUP
    assert llm_mem.records.wait_for_embeddings()
    assert llm_mem.runtime.embedder.calls == calls


def test_recall_only_reads_its_own_space(make_llm_mem: Callable[..., GraphMem]) -> None:
    one, other = make_llm_mem(), make_llm_mem()
    crowd(one)
    crowd(other)
    other.remember_facts([fact("primary_database", "Oracle")])
    one.remember_facts([fact("primary_database", "Postgres")])
    result = one.recall("what is our primary database?")
    assert {f.fact.space for f in result.facts} == {one.space.key}
    assert result.facts[0].fact.value == "Postgres"


def test_as_of_is_before_the_change_window(llm_mem: GraphMem) -> None:
    llm_mem.remember_facts([fact("plan", "Pro")])
    at = datetime.now(UTC) - timedelta(days=1)
    assert llm_mem.recall("plan?", as_of=at).facts == ()


def test_warming_questions_embeds_them_in_one_call_and_caches_them(llm_mem: GraphMem) -> None:
    embeddings = llm_mem.runtime.embedder
    llm_mem.records.wait_for_embeddings()
    calls = embeddings.calls
    embeddings.warm(["who owns service 1?", "who owns service 2?"])
    assert embeddings.calls == calls + 1
    embeddings.query("who owns service 2?")
    assert embeddings.calls == calls + 1
