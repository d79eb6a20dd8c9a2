"""Keyless local mode (GRAPHMEM_AUTH_REQUIRED=off) against the real server: a web page open
in a browser on the same machine gets nothing, and the keyless caller stays in the `default`
tenant."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

import pytest
import websockets

from support import isolation
from support.api_support import Api, codes, new_tenant, start

pytestmark = pytest.mark.races

STATS = "query($s: String!) { stats(space: $s) { space active } }"
# keyless calls land in the `default` tenant: a user of the session's own keeps them apart
KEYLESS = isolation.user("keyless")
ERASE_TENANT = "mutation($t: String!) { eraseTenant(tenant: $t) { scope } }"


@pytest.fixture
def local(serve_api: Callable[..., Api]) -> Api:
    return serve_api(auth_required=False, allowed_origins=("http://localhost:5173",))


def test_keyless_access_is_bound_to_the_default_tenant(local: Api) -> None:
    other = new_tenant()
    writer = local.key("writer", other)
    local.ok(writer, 'mutation { rememberFacts(space: "u", facts: [{subject: "s", value: "v"}])'
                     " { action } }")
    assert local.ok(None, STATS, {"s": KEYLESS})["stats"]["space"] == (
        f"default/{KEYLESS}/default/default")
    for query, variables in ((STATS, {"s": f"{other}/u/default/default"}),
                             (ERASE_TENANT, {"t": other})):
        body = local.gql(None, query, variables)
        assert codes(body) == ["FORBIDDEN"], body
    assert local.ok(writer, STATS, {"s": "u"})["stats"]["active"] == 1  # nothing erased


async def _keyless_socket(api: Api, origin: str | None) -> str:
    """What a page of `origin` gets when it opens a keyless socket and asks for stats."""
    try:
        async with websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"],
                                      origin=origin) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if ack["type"] != "connection_ack":
                return ack["type"]
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                "query": STATS, "variables": {"s": KEYLESS}}}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return "answered" if reply["type"] == "next" else reply["type"]
    except websockets.InvalidStatus as e:
        return f"refused {e.response.status_code}"
    except websockets.ConnectionClosed as e:
        return f"closed {e.rcvd.code if e.rcvd else '-'}"


def test_a_web_page_on_the_host_cannot_reach_the_keyless_admin(local: Api) -> None:
    async def scenario() -> list[str]:
        return [await _keyless_socket(local, origin) for origin in (
            "http://evil.example", "http://localhost:9999", "null", None,
            "http://localhost:5173", local.base)]

    assert asyncio.run(scenario()) == [
        "refused 403",    # another origin: not even a handshake
        "refused 403",    # another port on this machine is another origin
        "refused 403",    # a sandboxed frame or a file: page
        "answered",       # no Origin: a program on this machine, not a browser page
        "answered",       # listed in GRAPHMEM_ALLOWED_ORIGINS
        "answered",       # the server's own page (GraphiQL)
    ]


def test_browser_requests_over_http_get_no_keyless_access(local: Api) -> None:
    for origin in ("http://evil.example", "http://localhost:9999"):
        response = local.post(STATS, {"s": KEYLESS}, headers={"Origin": origin})
        assert response.status_code == 401, origin
        assert "browser pages of other origins" in response.json()["errors"][0]["message"]
    assert local.post(STATS, {"s": KEYLESS},
                      headers={"Origin": local.base}).status_code == 200


def test_dns_rebinding_gets_nothing(local: Api) -> None:
    """A page of evil.example whose name now points at 127.0.0.1 is same-origin to the
    browser, but names its own host."""
    port = local.base.rsplit(":", 1)[1]
    rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    response = local.post(STATS, {"s": KEYLESS}, headers=rebound)
    assert response.status_code == 401
    assert "loopback Host" in response.json()["errors"][0]["message"]

    async def socket() -> str:
        try:
            # the URI's host names evil.example; the connection goes to 127.0.0.1
            async with websockets.connect(f"ws://{rebound['Host']}/graphql", host="127.0.0.1",
                                          port=int(port), subprotocols=["graphql-transport-ws"],
                                          origin=rebound["Origin"]) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
                return str(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
        except websockets.ConnectionClosed as e:
            return f"closed {e.rcvd.code if e.rcvd else '-'}"

    assert asyncio.run(socket()) == "closed 4403"


def test_local_mode_warns_at_start(settings: object, caplog: pytest.LogCaptureFixture,
                                   serve_api: Callable[..., Api]) -> None:
    base = serve_api().settings  # the session's test settings (pepper, limits)
    caplog.set_level(logging.WARNING, logger="graphmem.api")
    server, thread, _ = start(base.model_copy(update={"auth_required": False}))
    try:
        warnings = [r.getMessage() for r in caplog.records if r.name == "graphmem.api"
                    and r.levelno == logging.WARNING]
        assert any("GRAPHMEM_AUTH_REQUIRED=off" in w and "`default` tenant" in w
                   for w in warnings), warnings
    finally:
        server.should_exit = True
        thread.join(30)
