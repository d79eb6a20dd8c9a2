"""`/mcp` in `graphmem serve`, driven by the SDK's streamable-HTTP client: the same
authentication, capabilities, scopes, audit and metrics as `/graphql`."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from typing import Any

import httpx
import pytest

from graphmem import GraphMem
from graphmem.mirror import audit
from graphmem.model import Space
from graphmem.model.recall import NO_FACTS
from graphmem.runtime import Runtime

from support import loopback
from support.api_support import Api, new_tenant
from support.mcp_support import http, messages, text_of

pytestmark = pytest.mark.races

WRITE_TOOLS = {"remember", "remember_facts", "forget", "record_decision"}
PROTOCOL = "2025-06-18"
ACCEPT = "application/json, text/event-stream"


def url(api: Api) -> str:
    return f"{api.base}/mcp"


def fact(subject: str, value: str, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": 0.95, **extra}


def initialize(api: Api, token: str) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}}
    return loopback.post(url(api), json=body, timeout=30, headers={
        "Authorization": f"Bearer {token}", "Accept": ACCEPT})


def test_no_key_is_refused_with_401(api: Api) -> None:
    response = loopback.post(url(api), json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                             headers={"Accept": ACCEPT}, timeout=30)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "Bearer gm_sk_" in response.json()["errors"][0]["message"]
    for token in (None, "gm_sk_not-a-key"):
        with pytest.raises(Exception) as refused:
            http(url(api), token).close()
        assert "MCPError: Server returned an error response" in messages(refused.value)


def test_a_reader_sees_no_write_tools_and_is_denied_and_audited(
        api: Api, runtime: Runtime) -> None:
    tenant = new_tenant()
    with http(url(api), api.key("reader", tenant)) as reader:
        listed = set(reader.tools())
        assert "recall" in listed and "list_memories" in listed
        assert not listed & (WRITE_TOOLS | {"delete", "confirm_change", "verify_audit",
                                            "set_reconcile_policy"})
        denied = reader.call("remember_facts", {"facts": [fact("plan", "Pro")],
                                                "user_id": "alice"})
        assert denied.is_error
        assert re.fullmatch(r"Access denied: 'key-\w+' \(role reader\) lacks the write"
                            r" capability that remember_facts needs", text_of(denied))
        assert reader.text("list_memories", {"user_id": "alice"}) == "No memories stored."
    with http(url(api), api.key("admin", tenant)) as admin:
        assert set(admin.tools()) >= WRITE_TOOLS | {"delete_all", "verify_audit"}
    api.flush_audit()
    rows = audit.listing(runtime.store, tenant, operation="remember_facts")
    assert [(r.outcome, r.space) for r in rows] == [("denied", "alice/default/default")]
    detail = json.loads(rows[0].detail)
    assert detail["transport"] == "mcp" and "lacks the write capability" in detail["reason"]


def test_a_key_of_tenant_a_cannot_read_tenant_b(api: Api, runtime: Runtime) -> None:
    tenant_a, tenant_b = new_tenant(), new_tenant()
    with http(url(api), api.key("writer", tenant_a)) as a:
        assert a.text("remember_facts", {"facts": [fact("plan", "Pro")], "user_id": "u"}) == (
            "Stored: [ADD] plan = Pro")
        assert "plan = Pro" in a.text("list_memories", {"user_id": "u"})
    assert [f.value for f in GraphMem(Space(tenant_a, "u"), runtime=runtime).active()] == ["Pro"]
    with http(url(api), api.key("admin", tenant_b)) as b:
        assert b.text("list_memories", {"user_id": "u"}) == "No memories stored."
        assert b.text("recall", {"question": "Which plan?", "user_id": "u"}) == NO_FACTS
        read = b.run(lambda c: c.read_resource("graphmem://facts/u/default/default"))
        assert read.contents[0].text == "No memories stored."  # type: ignore[union-attr]
        named = b.call("list_memories", {"user_id": f"{tenant_a}/u"})
        assert named.is_error and "user_id\n  String should match pattern" in text_of(named)
    scoped = api.key("reader", tenant_a, spaces=("alice",))
    with http(url(api), scoped) as alice:
        outside = alice.call("recall", {"question": "Which plan?", "user_id": "u"})
        assert re.fullmatch(r"Access denied: space 'u/default/default' is outside"
                            r" 'key-\w+''s allowed spaces", text_of(outside))
        assert "verify_receipt" not in alice.tools()


def test_revoking_a_key_stops_an_open_session(api: Api) -> None:
    issued = api.keys.create(new_tenant(), "writer")
    with http(url(api), issued.token, mode="legacy") as session:
        assert session.text("list_memories", {}) == "No memories stored."
        api.keys.revoke(issued.key_id)
        with pytest.raises(Exception) as refused:
            session.call("list_memories", {}, timeout=30)
        assert "MCPError: Server returned an error response" in messages(refused.value)


def test_a_session_answers_only_its_key_and_its_stream_ends_when_the_key_is_revoked(
        api: Api) -> None:
    tenant = new_tenant()
    owner, other = api.keys.create(tenant, "reader"), api.keys.create(tenant, "reader")
    opened = initialize(api, owner.token)
    assert opened.status_code == 200, opened.text
    session_id = opened.headers["mcp-session-id"]

    def headers(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}", "mcp-session-id": session_id,
                "mcp-protocol-version": PROTOCOL, "Accept": ACCEPT}

    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert loopback.post(url(api), json=ready, headers=headers(owner.token),
                         timeout=30).status_code == 202
    stolen = loopback.post(url(api), json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                           headers=headers(other.token), timeout=30)
    assert stolen.status_code == 404

    ended: dict[str, float] = {}

    def listen() -> None:
        with httpx.stream("GET", url(api), headers={**headers(owner.token),
                                                     "Accept": "text/event-stream"},
                          timeout=httpx.Timeout(30, read=20)) as stream:
            ended["status"] = stream.status_code
            for _ in stream.iter_bytes():
                pass
        ended["at"] = time.monotonic()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    deadline = time.monotonic() + 30
    while "status" not in ended and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listener.is_alive() and ended.get("status") == 200
    api.keys.revoke(owner.key_id)
    listener.join(timeout=30)
    assert not listener.is_alive(), "the notification stream stayed open after revocation"
    assert "at" in ended
    after = loopback.post(url(api), json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                          headers=headers(owner.token), timeout=30)
    assert after.status_code == 401


def test_tool_calls_are_counted_in_the_metrics(api: Api) -> None:
    with http(url(api), api.key("reader", new_tenant())) as reader:
        reader.text("list_memories", {})
        reader.call("delete_all", {})
    metrics = loopback.get(f"{api.base}/metrics", timeout=30).text
    assert 'graphmem_operations_total{operation="list_memories",outcome="ok"}' in metrics
    assert 'graphmem_operations_total{operation="delete_all",outcome="FORBIDDEN"}' in metrics
    assert 'graphmem_http_requests_total{route="/mcp",status="200"}' in metrics


def test_space_resources_notify_subscribers_when_the_space_changes(
        api: Api, runtime: Runtime) -> None:
    tenant, user = new_tenant(), f"u-{uuid.uuid4().hex[:8]}"
    mem = GraphMem(Space(tenant, user), runtime=runtime)
    uri = f"graphmem://facts/{user}/default/default"
    with http(url(api), api.key("reader", tenant)) as reader:
        templates = reader.run(lambda c: c.list_resource_templates()).resource_templates
        assert {t.uri_template for t in templates} == {
            "graphmem://facts/{user_id}/{agent_id}/{run_id}",
            "graphmem://conflicts/{user_id}/{agent_id}/{run_id}",
            "graphmem://fact/{user_id}/{agent_id}/{run_id}/{fact_id}",
            "graphmem://conflict/{user_id}/{agent_id}/{run_id}/{conflict_id}",
            "graphmem://entity/{user_id}/{agent_id}/{run_id}/{type}/{name}"}

        async def changed(client: Any) -> Any:
            import anyio

            async with client.listen(resource_subscriptions=[uri]) as subscription:
                await anyio.to_thread.run_sync(
                    lambda: mem.remember_facts([fact("plan", "Pro")]))
                with anyio.fail_after(15):
                    return await subscription.__anext__()

        event = reader.run(changed)
        assert getattr(event, "uri", None) == uri
        read = reader.run(lambda c: c.read_resource(uri))
        assert read.contents[0].text == f"#{mem.active()[0].id} plan = Pro"  # type: ignore[union-attr]
        conflicts = reader.run(lambda c: c.read_resource(
            f"graphmem://conflicts/{user}/default/default"))
        assert conflicts.contents[0].text == "No open conflicts."  # type: ignore[union-attr]
    scoped = api.key("reader", tenant, spaces=("someone-else",))
    with http(url(api), scoped) as outsider:
        with pytest.raises(Exception) as denied:
            outsider.run(lambda c: c.read_resource(uri))
        assert "Access denied" in messages(denied.value)

        async def refused(client: Any) -> Any:
            async with client.listen(resource_subscriptions=[uri]):
                return None

        with pytest.raises(Exception) as denied:
            outsider.run(refused)
        assert "Access denied" in messages(denied.value)


def test_the_prompt_tells_an_agent_how_to_use_memory(api: Api) -> None:
    with http(url(api), api.key("reader", new_tenant())) as reader:
        prompts = reader.run(lambda c: c.list_prompts()).prompts
        assert [p.name for p in prompts] == ["use_memory"]
        got = reader.run(lambda c: c.get_prompt("use_memory", {"user_id": "alice"}))
        text = got.messages[0].content.text  # type: ignore[union-attr]
        assert "call `recall`" in text and "call `remember`" in text and "'alice'" in text


def test_a_dead_neo4j_is_a_clear_tool_error(serve_mcp: Any) -> None:
    dead = serve_mcp(neo4j_uri="bolt://127.0.0.1:9")  # nothing listens on the discard port
    with http(url(dead), dead.key("admin", new_tenant())) as admin:
        failed = admin.call("list_memories", {})
        assert failed.is_error
        assert text_of(failed) == ("graphmem couldn't complete list_memories: the graph store"
                                   " (Neo4j) is unreachable; retry in a few seconds")
        assert "bolt://" not in text_of(failed)
        assert "recall" in admin.tools()


def test_mcp_pays_its_model_calls_from_the_budget_graphql_draws_from(serve_mcp: Any) -> None:
    api = serve_mcp(api_model_calls_per_min=2)
    key = api.key("writer", new_tenant())
    api.gql(key, '{ recall(space: "u", question: "Which plan?") { answer } }')
    with http(url(api), key) as mcp:
        assert mcp.text("recall", {"question": "Which plan?", "user_id": "u"}) == NO_FACTS
        refused = mcp.call("recall", {"question": "Which plan?", "user_id": "u"})
        assert refused.is_error, text_of(refused)
        assert "model-call budget: at most 2 model calls a minute per key" in text_of(refused)
        assert mcp.text("remember_facts", {"facts": [fact("plan", "Pro")], "user_id": "u"}) == (
            "Stored: [ADD] plan = Pro"), "a tool that calls no model is not budgeted"
    other = api.key("writer", new_tenant())
    with http(url(api), other) as mcp:
        assert mcp.text("recall", {"question": "Which plan?", "user_id": "u"}) == NO_FACTS


def test_verify_audit_reports_only_the_keys_own_tenant(api: Api, runtime: Runtime) -> None:
    busy = new_tenant()
    GraphMem(Space(busy, "u"), runtime=runtime).remember_facts([fact("plan", "Pro")])
    with http(url(api), api.key("auditor", new_tenant())) as auditor:
        said = auditor.text("verify_audit", {"deep": True})
    assert re.fullmatch(r"audit chain OK: 0 rows, hashes, .* verified", said), said
    with http(url(api), api.key("auditor", busy)) as own:
        said = own.text("verify_audit", {})
    rows = int(re.fullmatch(r"audit chain OK: (\d+) rows.*", said, re.S).group(1))  # type: ignore[union-attr]
    assert rows >= 1, said
