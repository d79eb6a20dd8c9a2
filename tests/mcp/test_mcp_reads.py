"""The reads an agent needs over MCP: paged listings that walk a space page by page to the
same facts GraphQL lists, one fact or conflict by id, counts, spaces, the entity graph, the
audit log, an inline export, retention and erasure, and the resource templates."""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.model import Space
from graphmem.runtime import Runtime

from support.api_support import Api, new_tenant
from support.mcp_support import McpSession, http, text_of

pytestmark = pytest.mark.races

MORE = re.compile(r'More: call again with cursor="([^"]+)"\.')


def user() -> str:
    return f"u-{uuid.uuid4().hex[:8]}"


def pages(session: McpSession, tool: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """Every item of a listing, following its cursors; each page's text names the next."""
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        result = session.call(tool, {**arguments, **({"cursor": cursor} if cursor else {})})
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        page = result.structured_content
        items += page["items"]
        cursor = page["next_cursor"]
        shown = MORE.search(text_of(result))
        assert (shown.group(1) if shown else None) == cursor
        if cursor is None:
            return items


def seeded(runtime: Runtime, tenant: str, u: str, n: int) -> GraphMem:
    mem = GraphMem(Space(tenant, u), runtime=runtime)
    mem.remember_facts([{"subject": f"s{i}", "value": f"v{i}", "confidence": 0.95}
                        for i in range(n)])
    mem.remember_facts([{"subject": "s0", "value": "changed", "confidence": 0.95}])
    return mem


def test_list_facts_walks_every_page_to_what_graphql_lists(api: Api, runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    seeded(runtime, tenant, u, 23)
    token = api.key("reader", tenant)
    query = ('query($s: String!, $a: String) { facts(space: $s, first: 100, after: $a,'
             ' statuses: [ACTIVE, SUPERSEDED]) { nodes { factId } } }')
    over_graphql = [n["factId"] for n in api.ok(token, query, {"s": u})["facts"]["nodes"]]
    with http(f"{api.base}/mcp", token) as session:
        listed = pages(session, "list_facts", {"user_id": u, "limit": 5,
                                               "statuses": ["ACTIVE", "SUPERSEDED"]})
        assert [f["id"] for f in listed] == over_graphql and len(listed) == 24
        superseded = pages(session, "list_facts", {"user_id": u, "statuses": ["SUPERSEDED"]})
        assert [(f["subject"], f["value"]) for f in superseded] == [("s0", "v0")]
        found = session.text("list_facts", {"user_id": u, "text": "CHANGED"})
        assert found.startswith("#") and "s0 = changed [ACTIVE]" in found
        fact = session.call("get_fact", {"fact_id": listed[0]["id"], "user_id": u})
        assert fact.structured_content is not None
        assert fact.structured_content["id"] == listed[0]["id"]
        first = session.call("list_memories", {"user_id": u, "limit": 10})
        assert first.structured_content is not None
        assert len(first.structured_content["active"]) == 10
        assert first.structured_content["next_cursor"]
        history = session.call("history", {"subject": "s0", "user_id": u, "limit": 1})
        assert "1. v0 [SUPERSEDED]" in text_of(history) and MORE.search(text_of(history))
        then = session.text("recall", {"question": "What held?", "user_id": u,
                                       "valid_at": "2999-01-01T00:00:00+00:00"})
        true_then = GraphMem(Space(tenant, u), runtime=runtime).active(
            valid_at=datetime(2999, 1, 1, tzinfo=UTC))
        assert then.splitlines()[1:] == [f"• #{f.id} {f.subject} = {f.value}" for f in true_then]
        stats = json.loads(session.text("space_stats", {"user_id": u}))
        assert (stats["active"], stats["superseded"]) == (23, 1)


def test_conflicts_and_pending_changes_are_paged_and_fetched_by_id(api: Api,
                                                                   runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    mem = GraphMem(Space(tenant, u), runtime=runtime)
    for i in range(3):
        mem.remember_facts([{"subject": f"db{i}", "value": "MySQL", "confidence": 0.95},
                            {"subject": f"db{i}", "value": "Postgres", "confidence": 0.95}])
    with http(f"{api.base}/mcp", api.key("reader", tenant)) as session:
        listed = pages(session, "list_conflicts", {"user_id": u, "limit": 2,
                                                   "kinds": ["ambiguity"]})
        assert sorted(c["id"] for c in listed) == sorted(c.id for c in mem.review.conflicts())
        assert pages(session, "list_conflicts", {"user_id": u, "kinds": ["policy"]}) == []
        one = session.text("get_conflict", {"conflict_id": listed[0]["id"], "user_id": u})
        assert one.startswith(f"{listed[0]['id']} [open] ambiguity")
        assert session.text("pending_changes", {"user_id": u}) == "No pending changes."
        missing = session.call("get_conflict", {"conflict_id": "no-such", "user_id": u})
        assert missing.is_error and "no-such" in text_of(missing)


def test_the_entity_graph_is_searched_walked_and_read(api: Api, runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    mem = GraphMem(Space(tenant, u), runtime=runtime)
    mem.remember_facts([
        {"head": "Ada", "head_type": "person", "relation": "works_at", "tail": "Acme Corp",
         "tail_type": "organisation", "confidence": 0.95},
        {"head": "Acme Corp", "head_type": "organisation", "relation": "based_in",
         "tail": "Lyon", "tail_type": "place", "confidence": 0.95}])
    with http(f"{api.base}/mcp", api.key("writer", tenant)) as session:
        found = pages(session, "search_entities", {"text": "acme", "user_id": u})
        assert [(e["type"], e["name"]) for e in found] == [("organisation", "Acme Corp")]
        walked = session.text("entity_neighbourhood", {"type": "person", "name": "Ada",
                                                       "hops": 2, "user_id": u})
        assert "Acme Corp" in walked and "Lyon" in walked
        entity = session.text("get_entity", {"type": "person", "name": "Ada", "user_id": u})
        assert entity.startswith("Ada (person)") and "Acme Corp" in entity
        timeline = session.text("entity_history", {"type": "person", "name": "Ada",
                                                   "attribute": "works_at", "user_id": u})
        assert "Acme Corp [ACTIVE]" in timeline
        assert "Acme Corp" in session.text("vocabulary", {"user_id": u})
        session.text("create_entity", {"type": "organisation", "name": "Globex",
                                       "user_id": u})
        assert [e.name for e in mem.entities.all("organisation")] == ["Acme Corp", "Globex"]
        read = session.run(lambda c: c.read_resource(
            f"graphmem://entity/{u}/default/default/person/Ada"))
        assert read.contents[0].text == entity  # type: ignore[union-attr]


def test_resource_templates_read_one_fact_and_one_conflict(api: Api, runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    mem = GraphMem(Space(tenant, u), runtime=runtime)
    [added] = mem.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.95}])
    mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.95},
                        {"subject": "db", "value": "Postgres", "confidence": 0.95}])
    [conflict] = mem.review.conflicts()
    with http(f"{api.base}/mcp", api.key("reader", tenant)) as session:
        fact = session.run(lambda c: c.read_resource(
            f"graphmem://fact/{u}/default/default/{added.fact_id}"))
        assert fact.contents[0].text == (  # type: ignore[union-attr]
            f"#{added.fact_id} plan = Pro [ACTIVE]")
        shown = session.run(lambda c: c.read_resource(
            f"graphmem://conflict/{u}/default/default/{conflict.id}"))
        assert shown.contents[0].text.startswith(f"{conflict.id} [open]")  # type: ignore[union-attr]
    with http(f"{api.base}/mcp", api.key("reader", new_tenant())) as stranger:
        with pytest.raises(Exception, match=added.fact_id):
            stranger.run(lambda c: c.read_resource(
                f"graphmem://fact/{u}/default/default/{added.fact_id}"))


def test_audit_export_import_retention_and_erasure_for_the_roles_that_may(
        api: Api, runtime: Runtime) -> None:
    tenant, u, v = new_tenant(), user(), user()
    mem = seeded(runtime, tenant, u, 3)
    with http(f"{api.base}/mcp", api.key("admin", tenant)) as admin:
        rows = pages(admin, "audit_log", {"operation": "remember_facts", "limit": 1})
        assert len(rows) == 2 and all(r["operation"] == "remember_facts" for r in rows)
        exported = admin.text("export_space", {"user_id": u})
        assert exported.startswith("{") and '"graphmem-export"' in exported.splitlines()[0]
        imported = admin.call("import_space", {"data": exported, "mode": "replay",
                                               "user_id": v})
        assert not imported.is_error, text_of(imported)
        copy = GraphMem(Space(tenant, v), runtime=runtime)
        assert sorted(f.value for f in copy.active()) == sorted(f.value for f in mem.active())
        assert "90" in admin.text("set_retention", {"days": 90, "user_id": u})
        checked = admin.call("fsck", {"user_id": u})
        assert not checked.is_error and checked.structured_content is not None
        assert checked.structured_content["checks"] and text_of(checked).startswith("space ")
        erased = json.loads(admin.text("erase_user", {"user_id": v}))
        assert erased["receipt"]["id"]
        again = json.loads(admin.text("get_receipt", {"receipt_id": erased["receipt"]["id"]}))
        assert (again["receipt"], again["signature"]) == (erased["receipt"],
                                                          erased["signature"])
        assert copy.active() == []
    with http(f"{api.base}/mcp", api.key("writer", tenant)) as writer:
        assert "audit_log" not in writer.tools() and "erase_user" not in writer.tools()
        refused = writer.call("set_retention", {"days": 1, "user_id": u})
        assert refused.is_error and text_of(refused).startswith("Access denied:")


def test_changes_between_two_times_match_graphql(api: Api, runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    mem = GraphMem(Space(tenant, u), runtime=runtime)
    mem.remember_facts([{"subject": "city", "value": "Paris", "confidence": 0.95}])
    start = datetime.now(UTC)
    mem.remember_facts([{"subject": "city", "value": "Berlin", "confidence": 0.95}] + [
        {"subject": f"t{i}", "value": f"v{i}", "confidence": 0.95} for i in range(4)])
    token = api.key("reader", tenant)
    query = ('query($s: String!, $f: DateTime!) { changes(space: $s, from: $f, first: 100)'
             ' { nodes { subject kind causes { event } } } }')
    over_graphql = api.ok(token, query, {"s": u, "f": start.isoformat()})["changes"]["nodes"]
    with http(f"{api.base}/mcp", token) as session:
        listed = pages(session, "changes", {"user_id": u, "from_time": start.isoformat(),
                                            "limit": 2})
        assert [(c["subject"], c["kind"]) for c in listed] == [
            (n["subject"], n["kind"]) for n in over_graphql]
        assert [c["subject"] for c in listed] == ["city", "t0", "t1", "t2", "t3"]
        first = session.text("changes", {"user_id": u, "from_time": start.isoformat(), "limit": 1})
        event = over_graphql[0]["causes"][0]["event"]
        assert first.startswith(f"city: Paris → Berlin [CHANGED] by {event}")
        valid = session.text("changes", {"user_id": u,
                                         "from_time": "2000-01-01T00:00:00+00:00",
                                         "to_time": "2000-02-01T00:00:00+00:00",
                                         "clock": "VALID"})
        assert valid == "Nothing changed between those times."
        naive = session.call("changes", {"user_id": u, "from_time": "2026-01-01T00:00:00"})
        assert naive.is_error


def test_undo_event_and_redo_over_mcp(api: Api, runtime: Runtime) -> None:
    tenant, u = new_tenant(), user()
    token = api.key("approver", tenant)
    with http(f"{api.base}/mcp", token) as session:
        first = session.call("remember_facts", {"user_id": u, "facts": [
            {"subject": "city", "value": "Paris", "confidence": 0.95}]})
        moved = session.call("remember_facts", {"user_id": u, "facts": [
            {"subject": "city", "value": "Berlin", "confidence": 0.95}]})
        assert not first.is_error and moved.structured_content is not None
        event = moved.structured_content["result"][0]["event_id"]
        undone = session.call("undo_event", {"user_id": u, "event_id": event})
        assert not undone.is_error, text_of(undone)
        said = text_of(undone)
        assert said.startswith(f"Undid event {event} (as event ")
        assert "Restored city = Paris" in said
        mem = GraphMem(Space(tenant, u), runtime=runtime)
        assert [f.value for f in mem.active("city")] == ["Paris"]
        assert undone.structured_content is not None
        redo = session.call("undo_event", {"user_id": u,
                                           "event_id": undone.structured_content["event_id"]})
        assert not redo.is_error and [f.value for f in mem.active("city")] == ["Berlin"]
        again = session.call("undo_event", {"user_id": u, "event_id": event})
        assert again.is_error and "already undone" in text_of(again)


def test_a_write_over_mcp_is_redacted_and_says_so(api: Api) -> None:
    with http(f"{api.base}/mcp", api.key("writer", new_tenant())) as session:
        done = session.call("remember_facts", {"user_id": user(), "facts": [
            {"subject": "billing", "value": "IBAN GB82 WEST 1234 5698 7654 32",
             "confidence": 0.95}]})
        assert done.structured_content is not None, text_of(done)
        line = done.structured_content["result"][0]
        assert line["redacted"] == ["iban"] and line["value"] == "IBAN [REDACTED:iban]"
