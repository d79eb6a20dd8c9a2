"""`graphmem mcp` over stdio, driven by the SDK's client: the tools, and sequences whose
results match the Python API's exactly (the same text, the same structured result)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pydantic_core
import pytest
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.model import Space
from graphmem.runtime import Runtime

from support.mcp_support import McpSession, stdio, text_of

TOOLS = sorted([
    "remember", "remember_facts", "recall", "recall_related", "forget", "history",
    "list_memories", "check_before_act", "record_decision", "pending_changes",
    "confirm_change", "reject_change", "list_conflicts", "resolve_conflict",
    "dismiss_conflict", "get_reconcile_policy", "set_reconcile_policy", "attest",
    "export_public_key", "verify_receipt", "verify_audit", "delete", "delete_all",
    "purge_expired", "list_facts", "get_fact", "get_conflict", "space_stats", "list_spaces",
    "search_entities", "entity_neighbourhood", "entity_history", "audit_log", "export_space",
    "set_retention", "erase_user", "erase_tenant", "get_entity", "vocabulary", "create_entity",
    "get_receipt", "import_space", "fsck", "changes", "undo_event", "relations",
    "declare_relations", "describe_relations"])


@pytest.fixture(scope="module")
def session(mcp_env: dict[str, str]) -> Iterator[McpSession]:
    with stdio({**mcp_env, "GRAPHMEM_SLOT_SCHEMA": "preset:clinical"}) as opened:
        yield opened


def user() -> str:
    return f"u-{uuid.uuid4().hex[:12]}"


def mem_of(runtime: Runtime, user_id: str) -> GraphMem:
    """The Python API on the space the local stdio caller writes (tenant `default`)."""
    return GraphMem(Space("default", user_id), runtime=runtime, slot_schema="preset:clinical")


def jsonable(value: Any) -> Any:
    return pydantic_core.to_jsonable_python(value, fallback=str)


def fact(subject: str, value: str, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, **extra}


def test_every_tool_is_listed_with_a_schema_from_its_signature(session: McpSession) -> None:
    listed = session.run(lambda c: c.list_tools()).tools
    assert sorted(t.name for t in listed) == TOOLS
    by_name = {t.name: t for t in listed}
    facts = by_name["remember_facts"].input_schema
    assert facts["required"] == ["facts"]
    item = facts["$defs"]["FactIn"]
    assert "subject" in item["properties"] and item["additionalProperties"] is False
    assert set(item["properties"]["action"]["anyOf"][0]["enum"]) >= {"ADD", "SUPERSEDE"}
    assert by_name["recall"].annotations.read_only_hint is True
    assert by_name["delete_all"].annotations.destructive_hint is True
    assert set(by_name["verify_audit"].input_schema["properties"]) == {"deep"}


def test_remember_recall_history_forget_history_match_the_python_api(
        session: McpSession, runtime: Runtime) -> None:
    u, twin = user(), mem_of(runtime, user())
    mem = mem_of(runtime, u)
    steps = [fact("state", "Redux"), fact("state", "Zustand", action="SUPERSEDE",
                                          confidence=0.95)]
    for step in steps:
        shown = session.call("remember_facts", {"facts": [step], "user_id": u})
        expected = twin.remember_facts([step])
        assert text_of(shown) == "\n".join(str(r) for r in expected)
        assert shown.structured_content is not None
        assert [r["message"] for r in shown.structured_content["result"]] == [
            r.message for r in expected]
    assert text_of(session.call("remember_facts", {"facts": [steps[1]], "user_id": u})) == (
        "Stored: [DEDUP] state = Zustand")

    question = {"question": "Which state library do we use?", "user_id": u}
    recalled = session.call("recall", question)
    expected_recall = mem.recall("Which state library do we use?")
    assert text_of(recalled) == str(expected_recall)
    assert recalled.structured_content == jsonable(expected_recall)
    assert "state = Zustand" in text_of(recalled) and "Redux" not in text_of(recalled)

    before = session.call("history", {"subject": "state", "user_id": u})
    assert text_of(before) == str(mem.history("state")) == (
        "History for 'state' (oldest → newest):\n  1. Redux [SUPERSEDED]\n  2. Zustand [ACTIVE]")
    assert before.structured_content is not None
    assert before.structured_content["history"] == jsonable(mem.history("state"))
    assert before.structured_content["next_cursor"] is None

    gone = fact("state", "Zustand", confidence=0.95)
    forgot = session.text("forget", {"facts": [gone], "user_id": u})
    assert forgot == "Stored: [RETRACT] state = Zustand"
    assert session.text("forget", {"facts": [gone], "user_id": u}) == (
        "Nothing matching to retract (that fact isn't currently stored).")
    after = session.text("history", {"subject": "state", "user_id": u})
    assert after == str(mem.history("state"))
    assert after.splitlines()[-2:] == ["  2. Zustand [SUPERSEDED]",
                                       "  3. (retracted: Zustand) [HISTORICAL]"]
    assert session.text("list_memories", {"user_id": u}) == str(mem.records.list_memories())


def test_confirm_gate_round_trip(session: McpSession, runtime: Runtime) -> None:
    u, twin = user(), mem_of(runtime, user())
    mem = mem_of(runtime, u)
    first, change = fact("active_medication", "Warfarin 5mg"), fact(
        "active_medication", "Warfarin 7.5mg", action="SUPERSEDE")
    assert session.text("remember_facts", {"facts": [first], "user_id": u}) == (
        "Stored: [ADD] active_medication = Warfarin 5mg")
    held = session.text("remember_facts", {"facts": [change], "user_id": u})
    twin.remember_facts([first])
    assert held == str(twin.remember_facts([change])[0]) == (
        "Stored: [FLAG] active_medication = Warfarin 7.5mg")

    check = session.text("check_before_act", {"subjects": ["active_medication"], "user_id": u})
    assert check == str(mem.records.check_before_act(["active_medication"]))
    assert check.startswith("Refused: ")
    pending = mem.review.pending()
    listed = session.text("pending_changes", {"user_id": u})
    assert listed == f"#{pending[0].id} active_medication = Warfarin 7.5mg (proposed SUPERSEDE)"

    applied = session.call("confirm_change", {"fact_id": pending[0].id, "user_id": u})
    twin_applied = twin.review.confirm(twin.review.pending()[0].id)
    assert text_of(applied) == str(twin_applied) == (
        "Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg")
    assert applied.structured_content is not None
    assert applied.structured_content["fact_id"] == pending[0].id
    assert [f.value for f in mem.active("active_medication")] == ["Warfarin 7.5mg"]
    assert session.text("pending_changes", {"user_id": u}) == "No pending changes."

    again = session.call("confirm_change", {"fact_id": pending[0].id, "user_id": u})
    assert again.is_error and "Traceback" not in text_of(again)

    session.text("remember_facts", {"facts": [fact("active_medication", "Warfarin 10mg",
                                                   action="SUPERSEDE")], "user_id": u})
    rejected = session.text("reject_change", {"fact_id": mem.review.pending()[0].id, "user_id": u})
    assert rejected == "Rejected: [SUPERSEDE] active_medication = Warfarin 10mg"
    assert [f.value for f in mem.active("active_medication")] == ["Warfarin 7.5mg"]


def rel(head: str, relation: str, tail: str, **extra: Any) -> dict[str, Any]:
    return {"head": head, "relation": relation, "tail": tail, "confidence": 0.9,
            "cardinality": "many", **extra}


def test_recall_related_over_three_hops(session: McpSession, runtime: Runtime,
                                        make_runtime: Callable[..., Runtime],
                                        mcp_env: dict[str, str]) -> None:
    u = user()
    # the same embeddings as the stdio server's: a question's paths are ranked by them
    mem = mem_of(make_runtime(
        embedding_base_url=mcp_env["GRAPHMEM_EMBEDDING_BASE_URL"],
        embedding_api_key=SecretStr(mcp_env["GRAPHMEM_EMBEDDING_API_KEY"])), u)
    facts = [rel("Bob", "owns", "Ledger", head_type="person", tail_type="service"),
             rel("Ledger", "calls", "Billing", head_type="service", tail_type="service"),
             rel("Alice", "owns", "Billing", head_type="person", tail_type="service")]
    session.text("remember_facts", {"facts": facts, "source": "catalog", "user_id": u})
    three = session.call("recall_related", {"entities": [{"type": "person", "name": "Bob"}],
                                            "hops": 3, "user_id": u})
    expected = mem.recall_related(entities=[("person", "Bob")], hops=3)
    assert text_of(three) == str(expected)
    assert "Bob (person) -[OWNS]-> Ledger (service) -[CALLS]-> Billing (service)" \
        " <-[OWNS]- Alice (person)" in text_of(three)
    one = session.text("recall_related", {"entities": [{"type": "person", "name": "Bob"}],
                                          "hops": 1, "user_id": u})
    assert "Alice" not in one.split("Facts:")[0]
    by_question = session.text("recall_related", {"question": "Who owns what Ledger calls?",
                                                  "hops": 2, "user_id": u})
    assert by_question == str(mem.recall_related("Who owns what Ledger calls?", hops=2))


def test_remember_text_without_a_model_says_what_to_do(session: McpSession) -> None:
    result = session.call("remember", {"text": "We moved from Redux to Zustand",
                                       "user_id": user()})
    assert result.is_error
    assert "remember_facts" in text_of(result) and "GRAPHMEM_LLM_" in text_of(result)


def test_conflicts_are_listed_resolved_and_dismissed_as_the_python_api_does(
        session: McpSession, runtime: Runtime) -> None:
    both = [fact("db", "MySQL", confidence=0.95), fact("db", "Postgres", confidence=0.95)]
    for settle in ("resolve", "dismiss"):
        u, twin_user = user(), user()
        mem, twin = mem_of(runtime, u), mem_of(runtime, twin_user)
        written = session.text("remember_facts", {"facts": both, "user_id": u})
        assert written == "\n".join(str(r) for r in twin.remember_facts(both))
        conflict, twin_conflict = mem.review.conflicts("open")[0], twin.review.conflicts("open")[0]
        listed = session.text("list_conflicts", {"user_id": u})
        facts = ", ".join(f"#{f}" for f in sorted(conflict.fact_ids))
        assert listed == (f"{conflict.id} [open] ambiguity ({conflict.severity}): {facts}"
                          f" — {conflict.note}")
        if settle == "resolve":
            winner = next(f for f in mem.review.flagged() if f.value == "Postgres").id
            twin_winner = next(f for f in twin.review.flagged() if f.value == "Postgres").id
            shown = session.text("resolve_conflict", {"conflict_id": conflict.id,
                                                      "winner": winner, "user_id": u})
            expected = twin.review.resolve_conflict(twin_conflict.id, twin_winner)
            assert [f.value for f in mem.active("db")] == ["Postgres"]
            assert shown == str(expected) and shown.endswith("] db = Postgres")
        else:
            shown = session.text("dismiss_conflict", {"conflict_id": conflict.id,
                                                      "note": "per region", "user_id": u})
            expected = twin.review.dismiss_conflict(twin_conflict.id, note="per region")
            assert sorted(f.value for f in mem.active("db")) == ["MySQL", "Postgres"]
            # which held fact the line names follows the facts' (random) ids
            assert {shown, str(expected)} <= {"Stored: [COEXIST] db = MySQL",
                                              "Stored: [COEXIST] db = Postgres"}
        assert session.text("list_conflicts", {"user_id": u}) == "No open conflicts."
