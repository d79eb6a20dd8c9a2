"""What a frontend needs beyond memory itself, through the real server: who the key is
(`viewer`, read without a denial or an audit row), what the server offers (`serverInfo`), an
inbox without confirm-gate proposals (`excludeKinds`), a lost race told apart from bad input
(`ALREADY_SETTLED`), and a change cursor read before the data so a subscription misses
nothing committed in between."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from graphmem import __version__

from support import loopback
from support.api_support import Api, codes, new_tenant
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer

pytestmark = pytest.mark.races

VIEWER = ("query { viewer { name tenant role capabilities allowedSpaces tenantWide keyId"
          " local } }")
AUDIT = "query { auditLog(limit: 100) { operation outcome caller } }"
REMEMBER = ("mutation($s: String!, $f: [FactInput!]!, $src: String! = \"seed\") {"
            " rememberFacts(space: $s, facts: $f, source: $src) { action factId conflictId } }")
CONFLICTS = ("query($kinds: [ConflictKind!], $exclude: [ConflictKind!]) { conflicts(space:"
             " \"u\", kinds: $kinds, excludeKinds: $exclude) { totalCount nodes { kind"
             " conflictId facts { value status } } } }")
DISMISS = ("mutation($c: ID!) { dismissConflict(space: \"u\", conflictId: $c, note: \"n\")"
           " { message } }")
RESOLVE = ("mutation($c: ID!, $w: ID!) { resolveConflict(space: \"u\", conflictId: $c,"
           " winner: $w) { message } }")
CONFIRM = "mutation($f: ID!) { confirmChange(space: \"u\", factId: $f) { message } }"
REJECT = "mutation($f: ID!) { rejectChange(space: \"u\", factId: $f) { message } }"
FACT_CHANGED = ("subscription($s: String!, $after: String) { factChanged(space: $s, after:"
                " $after) { cursor value } }")


def remember(api: Api, token: str, facts: list[dict[str, Any]], source: str = "seed"
             ) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = api.ok(token, REMEMBER, {"s": "u", "f": facts,
                                                           "src": source})["rememberFacts"]
    return found


def test_viewer_describes_the_key_and_records_no_denial(api: Api) -> None:
    tenant = new_tenant()
    reader = api.key("reader", tenant, ("alice", "bob/bot"))
    seen = api.ok(reader, VIEWER)["viewer"]
    key_id = seen.pop("keyId")
    assert reader.startswith(f"gm_sk_{key_id}_")  # the public part of the key, never its secret
    assert seen == {"name": seen["name"], "tenant": tenant, "role": "reader",
                    "capabilities": ["read"], "allowedSpaces": ["alice", "bob/bot"],
                    "tenantWide": False, "local": False}
    admin = api.key("admin", tenant)
    whole = api.ok(admin, VIEWER)["viewer"]
    assert (whole["role"], whole["allowedSpaces"], whole["tenantWide"]) == ("admin", None, True)
    assert whole["capabilities"] == ["admin", "approve", "backfill", "delete", "read", "verify",
                                     "write"]
    api.flush_audit()
    rows = api.ok(admin, AUDIT)["auditLog"]
    assert [r for r in rows if r["outcome"] == "denied"] == []
    assert [r for r in rows if r["operation"] == "viewer"] == []
    assert api.post(VIEWER).status_code == 401


def test_server_info_says_what_the_server_offers(serve_api: Callable[..., Api],
                                                 llm_server: LLMServer) -> None:
    document = "query { serverInfo { version llmConfigured neo4jBrowserUrl } }"
    plain = serve_api(llm_base_url=None)
    managed = plain.settings.managed_neo4j  # the suite's own server, or one given by URI
    browser = f"http://127.0.0.1:{plain.settings.neo4j_http_port}/browser/" if managed else ""
    info = plain.ok(plain.key("reader"), document)["serverInfo"]
    assert info == {"version": __version__, "llmConfigured": False, "neo4jBrowserUrl": browser}
    if managed:
        assert loopback.get(browser).status_code == 200
    external = serve_api(llm_base_url=None, neo4j_uri=plain.settings.bolt_uri)
    info = external.ok(external.key("reader"), document)["serverInfo"]
    assert info["neo4jBrowserUrl"] == ""  # graphmem cannot know an external server's Browser
    with_model = serve_api(**llm_overrides(llm_server))
    found = with_model.ok(with_model.key("reader", new_tenant(), ("alice",)),
                          "query { serverInfo { llmConfigured } }")
    assert found["serverInfo"]["llmConfigured"] is True


def test_an_inbox_leaves_out_confirm_gate_proposals(serve_api: Callable[..., Api]) -> None:
    api = serve_api(slot_schema="preset:finance")
    token = api.key("writer", new_tenant())
    remember(api, token, [{"subject": "database", "value": "Postgres", "confidence": 0.95}], "crm")
    remember(api, token, [{"subject": "database", "value": "MySQL", "confidence": 0.5}], "chat")
    remember(api, token, [{"subject": "payment_method", "value": "Amex ending 0005"}])
    remember(api, token, [{"subject": "payment_method", "value": "Visa ending 4242",
                           "confidence": 0.95}])
    inbox = api.ok(token, CONFLICTS, {"exclude": ["PENDING"]})["conflicts"]
    assert inbox["totalCount"] == len(inbox["nodes"]) == 1
    assert inbox["nodes"][0]["kind"] != "PENDING"
    assert sorted(f["value"] for f in inbox["nodes"][0]["facts"]) == ["MySQL", "Postgres"]
    pending = api.ok(token, CONFLICTS, {"kinds": ["PENDING"]})["conflicts"]
    assert [n["kind"] for n in pending["nodes"]] == ["PENDING"]
    assert {(f["value"], f["status"]) for f in pending["nodes"][0]["facts"]} == {
        ("Amex ending 0005", "ACTIVE"), ("Visa ending 4242", "FLAGGED_CONFLICT")}
    both = api.ok(token, CONFLICTS, {"kinds": ["PENDING", "AMBIGUITY", "LOW_CONFIDENCE"],
                                     "exclude": ["PENDING"]})["conflicts"]
    assert both["nodes"] == inbox["nodes"]
    assert api.ok(token, CONFLICTS)["conflicts"]["totalCount"] == 2


def test_a_lost_race_answers_already_settled(serve_api: Callable[..., Api]) -> None:
    api = serve_api(slot_schema="preset:finance")
    token = api.key("approver", new_tenant())
    remember(api, token, [{"subject": "database", "value": "Postgres", "confidence": 0.95}], "crm")
    rival = remember(api, token, [{"subject": "database", "value": "MySQL",
                                   "confidence": 0.5}], "chat")[0]
    api.ok(token, DISMISS, {"c": rival["conflictId"]})
    for document, variables in ((DISMISS, {"c": rival["conflictId"]}),
                                (RESOLVE, {"c": rival["conflictId"], "w": rival["factId"]})):
        body = api.gql(token, document, variables)
        assert codes(body) == ["ALREADY_SETTLED"], body
        assert "is already dismissed" in body["errors"][0]["message"]
    remember(api, token, [{"subject": "payment_method", "value": "Amex ending 0005"}])
    proposal = remember(api, token, [{"subject": "payment_method", "value": "Visa ending 4242",
                                      "confidence": 0.95}])[0]
    api.ok(token, CONFIRM, {"f": proposal["factId"]})
    for document in (CONFIRM, REJECT):
        body = api.gql(token, document, {"f": proposal["factId"]})
        assert codes(body) == ["ALREADY_SETTLED"], body
        assert "is already confirmed" in body["errors"][0]["message"]
    proposal = remember(api, token, [{"subject": "payment_method", "value": "ACH",
                                      "confidence": 0.95}])[0]
    api.ok(token, REJECT, {"f": proposal["factId"]})
    body = api.gql(token, CONFIRM, {"f": proposal["factId"]})
    assert codes(body) == ["ALREADY_SETTLED"], body
    assert "is already rejected" in body["errors"][0]["message"]
    assert codes(api.gql(token, CONFIRM, {"f": "no-such-fact"})) == ["NOT_FOUND"]
    assert codes(api.gql(token, DISMISS, {"c": "no-such-conflict"})) == ["NOT_FOUND"]


def test_a_change_cursor_read_before_the_data_misses_nothing(api: Api) -> None:
    token = api.key("writer", new_tenant())
    remember(api, token, [{"subject": "state", "value": "Redux"}])
    cursor = api.ok(token, 'query { changeCursor(space: "u") }')["changeCursor"]
    remember(api, token, [{"subject": "state", "value": "Zustand", "action": "SUPERSEDE"}])

    async def heard() -> list[str]:
        async with websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"]) as ws:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"authorization": f"Bearer {token}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": FACT_CHANGED, "variables": {"s": "u", "after": cursor}}}))
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert message["type"] == "next", message
            return [message["payload"]["data"]["factChanged"]["value"]]

    assert asyncio.run(heard()) == ["Zustand"]  # the write before the cursor is not replayed
    reader_elsewhere = api.key("reader", new_tenant(), ("alice",))
    assert codes(api.gql(reader_elsewhere, 'query { changeCursor(space: "bob") }')) == [
        "FORBIDDEN"]
