"""WebSockets against the real server: a revoked key stops working on a socket that is
already open, every operation on a socket draws on the same rate limits as HTTP, a socket
runs a bounded number of operations at once, and browser pages of other origins cannot
open one."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from graphmem.auth import KeyStore
from graphmem.auth.pepper import load_pepper

from support import loopback
from support.api_support import Api, codes, fresh_address, new_tenant

pytestmark = pytest.mark.races

REMEMBER = ("mutation($s: String!, $v: String!) { rememberFacts(space: $s, facts:"
            " [{subject: \"cache\", value: $v}]) { action } }")
FACTS = "query($s: String!) { facts(space: $s) { totalCount } }"
STATS = 'query { stats(space: "u") { active } }'
FACT_CHANGED = "subscription($s: String!) { factChanged(space: $s) { subject value } }"


class Socket:
    """A graphql-transport-ws client: one operation at a time, or subscriptions held open."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.next_id = 0

    @classmethod
    async def open(cls, api: Api, token: str | None,
                   headers: dict[str, str] | None = None) -> Socket:
        ws = await websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"],
                                      additional_headers=headers or {})
        payload = {"authorization": f"Bearer {token}"} if token else {}
        await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        return cls(ws)

    async def send(self, query: str, variables: dict[str, Any] | None = None) -> str:
        self.next_id += 1
        op = f"op{self.next_id}"
        await self.ws.send(json.dumps({"id": op, "type": "subscribe", "payload": {
            "query": query, "variables": variables or {}}}))
        return op

    async def reply(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
        return message

    async def run(self, query: str, variables: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
        """One query or mutation: its `next` (then its `complete`), or its `error`."""
        op = await self.send(query, variables)
        first = await self.reply()
        assert first.get("id") == op, first
        if first["type"] == "next":
            assert (await self.reply())["type"] == "complete"
        return first

    async def closed_with(self, within: float) -> int:
        """Wait for the server to close the socket; the close code."""
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), within))
                assert message["type"] != "next", f"delivered after revocation: {message}"
        assert closed.value.rcvd is not None
        return int(closed.value.rcvd.code)


def error_codes(reply: dict[str, Any]) -> list[str]:
    if reply["type"] == "error":
        return [e["extensions"]["code"] for e in reply["payload"]]
    return codes(reply["payload"])


def test_a_revoked_keys_next_mutation_on_an_open_socket_is_refused(api: Api) -> None:
    tenant = new_tenant()
    issued = api.keys.create(tenant, "writer")
    admin = api.key("admin", tenant)

    async def scenario() -> tuple[dict[str, Any], int]:
        socket = await Socket.open(api, issued.token)
        first = await socket.run(REMEMBER, {"s": "u", "v": "Redis"})
        assert first["type"] == "next" and "errors" not in first["payload"], first
        api.keys.revoke(issued.key_id)
        refused = await socket.run(REMEMBER, {"s": "u", "v": "Memcached"})
        return refused, await socket.closed_with(10)

    refused, code = asyncio.run(scenario())
    assert error_codes(refused) == ["UNAUTHENTICATED"], refused
    assert code == 4403
    assert api.ok(admin, FACTS, {"s": "u"})["facts"]["totalCount"] == 1  # Redis only


def test_a_listening_socket_of_a_revoked_key_is_closed(api: Api) -> None:
    issued = api.keys.create(new_tenant(), "reader")

    async def scenario() -> int:
        before = await asyncio.to_thread(api.open_subscriptions)
        socket = await Socket.open(api, issued.token)
        await socket.send(FACT_CHANGED, {"s": "u"})
        await api.subscriptions_reach(before + 1)  # listening
        api.keys.revoke(issued.key_id)
        return await socket.closed_with(10)

    assert asyncio.run(scenario()) == 4403


def test_a_key_revoked_on_another_host_closes_its_socket(
        serve_api: Callable[..., Api]) -> None:
    short = serve_api(api_key_cache_seconds=0.5)
    issued = short.keys.create(new_tenant(), "reader")
    elsewhere = KeyStore(short.keys.store, load_pepper(short.settings))  # no shared stamp

    async def scenario() -> int:
        socket = await Socket.open(short, issued.token)
        assert (await socket.run(STATS))["type"] == "next"
        elsewhere.revoke(issued.key_id)  # this server learns it when its cached entry expires
        return await socket.closed_with(30)

    assert asyncio.run(scenario()) == 4403


def _count_http(api: Api, token: str, address: str, n: int) -> int:
    allowed = 0
    with loopback.client(timeout=30) as client:
        for _ in range(n):
            response = client.post(f"{api.base}/graphql", json={"query": STATS}, headers={
                "Authorization": f"Bearer {token}", "X-Forwarded-For": address})
            if response.status_code == 200:
                assert "errors" not in response.json(), response.text
                allowed += 1
            else:
                assert response.status_code == 429 and codes(response.json()) == [
                    "RATE_LIMITED"]
    return allowed


def _count_socket(api: Api, token: str, address: str, n: int) -> int:
    async def scenario() -> int:
        socket = await Socket.open(api, token, {"X-Forwarded-For": address})
        allowed = 0
        for _ in range(n):
            reply = await socket.run(STATS)
            if reply["type"] == "next":
                assert "errors" not in reply["payload"], reply
                allowed += 1
            else:
                assert error_codes(reply) == ["RATE_LIMITED"], reply
                assert "GRAPHMEM_RATE_PER_MIN" in reply["payload"][0]["message"]
        await socket.ws.close()
        return allowed

    return asyncio.run(scenario())


def test_500_operations_over_one_socket_hit_the_same_limit_as_over_http(
        serve_api: Callable[..., Api]) -> None:
    limited = serve_api(rate_per_min=60, trusted_proxies=("127.0.0.1",))
    tenant = new_tenant()
    started = time.monotonic()
    over_http = _count_http(limited, limited.key("reader", tenant), fresh_address(), 500)
    over_socket = _count_socket(limited, limited.key("reader", tenant), fresh_address(), 500)
    refilled = int(time.monotonic() - started) + 2  # a token a second while the test runs
    # the handshake itself was one request of the socket's client
    assert 59 <= over_http <= 60 + refilled, over_http
    assert 58 <= over_socket <= 59 + refilled, over_socket


def test_a_keys_budget_is_shared_by_its_sockets_and_its_http_requests(
        serve_api: Callable[..., Api]) -> None:
    limited = serve_api(rate_per_min=20, trusted_proxies=("127.0.0.1",))
    token = limited.key("reader")
    assert _count_socket(limited, token, fresh_address(), 12) == 12
    # another address, the same key: only what the socket left of the key's 20
    assert 8 <= _count_http(limited, token, fresh_address(), 30) <= 10


def test_operations_in_flight_on_one_socket_are_capped(serve_api: Callable[..., Api]) -> None:
    capped = serve_api(ws_max_operations=3)
    token = capped.key("reader")

    # The server handles one socket's messages in order, and an operation holds its place
    # from its `subscribe` to its `complete`: what is in flight is known without waiting.
    async def scenario() -> None:
        socket = await Socket.open(capped, token)
        held = [await socket.send(FACT_CHANGED, {"s": f"u{i}"}) for i in range(3)]
        refused = await socket.send(FACT_CHANGED, {"s": "u9"})
        reply = await socket.reply()
        assert reply["id"] == refused and error_codes(reply) == ["RATE_LIMITED"], reply
        assert "GRAPHMEM_WS_MAX_OPERATIONS" in reply["payload"][0]["message"]
        await socket.ws.send(json.dumps({"id": held[0], "type": "complete"}))
        assert (await socket.run(STATS))["type"] == "next"  # room again
        await socket.ws.close()

    asyncio.run(scenario())


async def _handshake(api: Api, origin: str | None, token: str) -> str:
    try:
        async with websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"],
                                      origin=origin) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"authorization": f"Bearer {token}"}}))
            return str(json.loads(await ws.recv())["type"])
    except websockets.InvalidStatus as e:
        return f"refused {e.response.status_code}"


def test_handshakes_from_other_origins_are_refused(serve_api: Callable[..., Api]) -> None:
    listed = serve_api(allowed_origins=("https://app.example.com",))
    token = listed.key("reader")
    own = listed.base  # the server's own origin, as GraphiQL served here sends it

    async def scenario() -> list[str]:
        return [await _handshake(listed, origin, token) for origin in (
            "https://evil.example", "https://app.example.com", own, None)]

    assert asyncio.run(scenario()) == ["refused 403", "connection_ack", "connection_ack",
                                       "connection_ack"]
