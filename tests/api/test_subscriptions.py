"""Subscriptions over WebSocket (graphql-transport-ws): factChanged and conflictOpened carry
a space's changes to its subscribers, and to nobody else."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from support import loopback
from support.api_support import Api, new_tenant

pytestmark = pytest.mark.races

FACT_CHANGED = ("subscription($s: String!) { factChanged(space: $s) { space change action"
                " subject value factId message at } }")
CONFLICT_OPENED = ("subscription($s: String!) { conflictOpened(space: $s) { space conflictId"
                   " factId subject value message } }")
REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action factId conflictId } }")


async def _connect(api: Api, token: str | None) -> Any:
    ws = await websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"])
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
    return ws


async def _subscribed(api: Api, token: str, document: str, space: str) -> Any:
    before = await asyncio.to_thread(api.open_subscriptions)
    ws = await _connect(api, token)
    assert json.loads(await ws.recv())["type"] == "connection_ack"
    await ws.send(json.dumps({"id": "s1", "type": "subscribe",
                              "payload": {"query": document, "variables": {"s": space}}}))
    await api.subscriptions_reach(before + 1)
    return ws


async def _next(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 15))
    assert message["type"] == "next", message
    return message["payload"]  # type: ignore[no-any-return]


async def _remember(api: Api, token: str, space: str, facts: list[dict[str, Any]]) -> Any:
    async with loopback.async_client() as client:
        response = await client.post(f"{api.base}/graphql", timeout=60,
                                     headers={"Authorization": f"Bearer {token}"},
                                     json={"query": REMEMBER, "variables": {"s": space,
                                                                             "f": facts}})
    body = response.json()
    assert "errors" not in body, body
    return body["data"]["rememberFacts"]


def test_fact_changed_delivers_a_spaces_changes(api: Api) -> None:
    tenant = new_tenant()
    token = api.key("writer", tenant)

    async def scenario() -> None:
        ws = await _subscribed(api, token, FACT_CHANGED, "u/a/r")
        try:
            other = api.key("writer", new_tenant())
            await _remember(api, other, "u/a/r", [{"subject": "noise", "value": "x"}])
            await _remember(api, token, "u/a/other-run", [{"subject": "noise", "value": "x"}])
            stored = await _remember(api, token, "u/a/r", [{"subject": "state",
                                                            "value": "Redux"}])
            event = (await _next(ws))["data"]["factChanged"]
            assert event["space"] == f"{tenant}/u/a/r"
            assert (event["change"], event["action"], event["subject"], event["value"]) == (
                "remembered", "ADD", "state", "Redux")
            assert event["factId"] == stored[0]["factId"]
            assert event["message"] == "Stored: [ADD] state = Redux"
        finally:
            await ws.close()

    asyncio.run(scenario())


def test_conflict_opened_delivers_flagged_changes(api: Api) -> None:
    tenant = new_tenant()
    token = api.key("writer", tenant)

    async def scenario() -> None:
        ws = await _subscribed(api, token, CONFLICT_OPENED, "u")
        try:
            await _remember(api, token, "u", [{"subject": "db", "value": "Postgres",
                                               "confidence": 0.9}])
            flagged = await _remember(api, token, "u", [{"subject": "db", "value": "MySQL",
                                                         "action": "SUPERSEDE",
                                                         "confidence": 0.3}])
            assert flagged[0]["action"] == "FLAG"
            event = (await _next(ws))["data"]["conflictOpened"]
            assert event["conflictId"] == flagged[0]["conflictId"]
            assert (event["subject"], event["value"]) == ("db", "MySQL")
        finally:
            await ws.close()

    asyncio.run(scenario())


def test_a_connection_without_a_key_is_refused(api: Api) -> None:
    async def scenario() -> None:
        ws = await _connect(api, None)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        bad = await _connect(api, "gm_sk_0123456789ab_" + "A" * 43)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(bad.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403

    asyncio.run(scenario())


def test_a_key_in_the_handshake_header_also_works(api: Api) -> None:
    token = api.key("reader")

    async def scenario() -> None:
        async with websockets.connect(
                api.ws_url, subprotocols=["graphql-transport-ws"],
                additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"

    asyncio.run(scenario())


def test_closing_the_connection_unsubscribes(api: Api) -> None:
    token = api.key("reader")

    async def scenario() -> None:
        before = await asyncio.to_thread(api.open_subscriptions)
        ws = await _subscribed(api, token, FACT_CHANGED, "u")
        await ws.close()
        await api.subscriptions_reach(before)

    asyncio.run(scenario())


ROLES = ["reader", "writer", "approver", "auditor", "steward", "admin"]


@pytest.mark.parametrize("document", [FACT_CHANGED, CONFLICT_OPENED])
@pytest.mark.parametrize("role", ROLES)
def test_subscription_authorization_matrix(api: Api, role: str, document: str) -> None:
    """Every role may read, so each subscribes to its own space and to no other."""
    tenant, other = new_tenant(), new_tenant()
    token = api.key(role, tenant, ("alice",))

    async def attempt(space: str) -> str:
        before = await asyncio.to_thread(api.open_subscriptions)
        ws = await _connect(api, token)
        try:
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "m", "type": "subscribe", "payload": {
                "query": document, "variables": {"s": space}}}))
            reply_task = asyncio.ensure_future(ws.recv())
            opened = asyncio.ensure_future(api.subscriptions_reach(before + 1))
            done, _ = await asyncio.wait({reply_task, opened}, timeout=15,
                                         return_when=asyncio.FIRST_COMPLETED)
            if opened in done and reply_task not in done:
                reply_task.cancel()
                return "allowed"
            opened.cancel()
            reply = json.loads(reply_task.result())
            errors = reply["payload"] if reply["type"] == "error" else reply["payload"]["errors"]
            assert [e["extensions"]["code"] for e in errors] == ["FORBIDDEN"], reply
            return "denied"
        finally:
            await ws.close()
            await api.subscriptions_reach(before)

    async def scenario() -> list[str]:
        return [await attempt(s) for s in ("alice/bot/r1", "bob/bot/r1", f"{other}/alice")]

    assert asyncio.run(scenario()) == ["allowed", "denied", "denied"]
