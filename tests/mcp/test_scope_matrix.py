"""Every MCP tool passes the same scope rules as its GraphQL field: called with a key of
another tenant it sees nothing of this tenant's memory (the ids of this tenant's facts and
conflicts are not found there), and called with a key limited to one space on another space
it is denied, as the GraphQL field is; the memory it was aimed at is untouched."""

from __future__ import annotations

import re
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.mcp.registry import TOOLS
from graphmem.model import Space
from graphmem.runtime import Runtime

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

pytestmark = pytest.mark.races

SECRET = "Kilimanjaro-4471"


def seeded(runtime: Runtime) -> tuple[GraphMem, dict[str, Any]]:
    """A tenant's space `u` with a secret fact, a held conflict and a decision receipt."""
    mem = GraphMem(Space(new_tenant(), "u"), runtime=runtime)
    [home] = mem.remember_facts([{"subject": "home", "value": SECRET, "confidence": 0.95}])
    mem.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.95}])
    [held] = mem.remember_facts([{"subject": "plan", "value": "Free", "confidence": 0.3}])
    [conflict] = mem.review.conflicts()
    receipt = mem.records.record_decision("send a letter", ["home"])
    return mem, {"fact": home.fact_id, "held": held.fact_id, "conflict": conflict.id,
                 "receipt": receipt, "event": home.event_id}


def arguments(ids: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Valid arguments for every tool, aimed at space `u` and at the seeded tenant's ids."""
    return {
        "attest": {"subjects": ["home"]},
        "check_before_act": {"subjects": ["home"]},
        "confirm_change": {"fact_id": ids["held"]},
        "delete": {"fact_id": ids["fact"]},
        "delete_all": {},
        "dismiss_conflict": {"conflict_id": ids["conflict"]},
        "export_public_key": {},
        "forget": {"facts": [{"subject": "home", "value": SECRET, "confidence": 0.9}]},
        "get_reconcile_policy": {},
        "history": {"subject": "home"},
        "changes": {"from_time": "2026-01-01T00:00:00+00:00"},
        "undo_event": {"event_id": ids["event"]},
        "list_conflicts": {},
        "list_memories": {},
        "pending_changes": {},
        "purge_expired": {"retention_days": 1},
        "recall": {"question": "Where is home?"},
        "recall_related": {"question": "What is home related to?"},
        "record_decision": {"action": "visit", "subjects": ["home"]},
        "reject_change": {"fact_id": ids["held"]},
        "remember": {"text": "We moved home."},
        "remember_facts": {"facts": [{"subject": "home", "value": "Elsewhere",
                                      "confidence": 0.9}]},
        "resolve_conflict": {"conflict_id": ids["conflict"], "winner": ids["held"]},
        "set_reconcile_policy": {"mode": "AUTHORITY", "authority": {"crm": 1}},
        "verify_audit": {},
        "verify_receipt": {"receipt": ids["receipt"]},
        "list_facts": {"statuses": ["ACTIVE", "SUPERSEDED"]},
        "get_fact": {"fact_id": ids["fact"]},
        "get_conflict": {"conflict_id": ids["conflict"]},
        "space_stats": {},
        "list_spaces": {},
        "search_entities": {"text": "home"},
        "entity_neighbourhood": {"type": "place", "name": "home"},
        "entity_history": {"type": "place", "name": "home", "attribute": "home"},
        "audit_log": {},
        "export_space": {},
        "set_retention": {"days": 30},
        "erase_user": {"user_id": "u"},
        "erase_tenant": {},
        "get_entity": {"type": "place", "name": "home"},
        "vocabulary": {},
        "create_entity": {"type": "place", "name": "elsewhere"},
        "get_receipt": {"receipt_id": ids["receipt"].get("receipt", {}).get("id", "r")},
        "import_space": {"data": "{}"},
        "fsck": {},
        "relations": {},
        "declare_relations": {"relations": [{"label": "lives at", "tail_nouns": ["home"]}]},
        "describe_relations": {},
    }


def in_space(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return {**args, "user_id": "u"} if TOOLS[tool].reach == "space" else args


def untouched(mem: GraphMem, ids: dict[str, Any]) -> None:
    assert [f.value for f in mem.active("home")] == [SECRET]
    assert [c.id for c in mem.review.conflicts()] == [ids["conflict"]]
    assert mem.review.get_reconcile_policy().mode.value == "RECENCY"


def test_every_tool_the_matrix_names_is_a_tool_and_the_reverse(api: Api,
                                                                runtime: Runtime) -> None:
    assert set(arguments({"held": "", "fact": "", "conflict": "", "receipt": {},
                          "event": ""})) == set(TOOLS)


def test_a_key_of_another_tenant_sees_nothing_of_this_one(api: Api, runtime: Runtime) -> None:
    mem, ids = seeded(runtime)
    with http(f"{api.base}/mcp", api.key("admin", new_tenant())) as other:
        for tool, args in arguments(ids).items():
            said = text_of(other.call(tool, in_space(tool, args)))
            assert SECRET not in said and mem.space.tenant not in said, (tool, said)
    untouched(mem, ids)


def test_a_key_of_one_space_is_denied_every_other_space_as_over_graphql(
        api: Api, runtime: Runtime) -> None:
    mem, ids = seeded(runtime)
    scoped = api.key("admin", mem.space.tenant, spaces=("alice",))
    with http(f"{api.base}/mcp", scoped) as alice:
        for tool, args in arguments(ids).items():
            result = alice.call(tool, in_space(tool, args))
            said = text_of(result)
            assert result.is_error, (tool, said)
            if TOOLS[tool].reach == "space":
                assert re.fullmatch(r"Access denied: space 'u/default/default' is outside"
                                    r" 'key-\w+''s allowed spaces", said), (tool, said)
            elif TOOLS[tool].reach == "user":
                assert re.fullmatch(r"Access denied: \w+ acts on every space of user 'u';"
                                    r" 'key-\w+' is not allowed all of them", said), (tool, said)
            else:
                assert said.startswith("Access denied:") and "whole tenant" in said, (tool, said)
    graphql = api.gql(scoped, '{ stats(space: "u") { active } }')
    assert graphql["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert "outside" in graphql["errors"][0]["message"]
    untouched(mem, ids)
