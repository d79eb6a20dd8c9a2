"""Live changes from every writer, through real servers and a real second process: a
subscriber on worker A hears, in commit order, a write made through the Python API in
another process and one made through GraphQL on worker B; a client that disconnects and
comes back `after` its last cursor misses nothing, even once the graph pruned the entries
or an erasure rewrote them (the mirror's copy, scrubbed); and every channel speaks."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from graphmem.graph import outbox

from support.api_support import Api, new_tenant
from support.mirror_support import wait_for

pytestmark = pytest.mark.races

FACT_CHANGED = ("subscription($s: String!, $after: String) { factChanged(space: $s,"
                " after: $after) { cursor change action subject value factId message } }")
CHANNELS = ("subscription($s: String!) { conflictOpened(space: $s) { cursor conflictId kind"
            " factId subject value } }")
CLOSED = ("subscription($s: String!) { conflictClosed(space: $s) { cursor conflictId status"
          " change winner kind } }")
PENDING = ("subscription($s: String!) { pendingChanged(space: $s) { cursor change factId"
           " conflictId subject value } }")
REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action factId conflictId } }")

WRITER = """
import sys
from graphmem import GraphMem
from graphmem.settings import load_settings
with GraphMem(sys.argv[1], settings=load_settings()) as mem:
    for result in mem.remember_facts([{"subject": sys.argv[2], "value": sys.argv[3]}],
                                     source="another-process"):
        print(result.fact_id, flush=True)
"""


def python_api_write(api: Api, space: str, subject: str, value: str) -> str:
    """A write through the Python API in a separate process (same Neo4j and store)."""
    user, password = api.settings.neo4j_auth()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(GRAPHMEM_HOME=str(api.settings.home),
               GRAPHMEM_DATABASE_URL=api.settings.relational_url,
               GRAPHMEM_NEO4J_USER=user, GRAPHMEM_NEO4J_PASSWORD=password,
               GRAPHMEM_NEO4J_BOLT_PORT=str(api.settings.neo4j_bolt_port),  # the suite's server
               GRAPHMEM_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1",  # no model: full-text only
               GRAPHMEM_LLM_MAX_RETRIES="0", GRAPHMEM_LOG_LEVEL="ERROR")
    if api.settings.neo4j_uri:
        env["GRAPHMEM_NEO4J_URI"] = api.settings.neo4j_uri
    done = subprocess.run([sys.executable, "-c", WRITER, space, subject, value], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split()[0]


async def subscribe(api: Api, token: str, document: str, variables: dict[str, Any]) -> Any:
    """A subscription the server has started (it delivers what is written from then on)."""
    before = await asyncio.to_thread(api.open_subscriptions)
    ws = await websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"])
    await ws.send(json.dumps({"type": "connection_init",
                              "payload": {"authorization": f"Bearer {token}"}}))
    assert json.loads(await ws.recv())["type"] == "connection_ack"
    await ws.send(json.dumps({"id": "1", "type": "subscribe",
                              "payload": {"query": document, "variables": variables}}))
    await api.subscriptions_reach(before + 1)
    return ws


async def receive(ws: Any, count: int, timeout: float = 30) -> list[dict[str, Any]]:
    found = []
    for _ in range(count):
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        assert message["type"] == "next", message
        data = message["payload"]["data"]
        found.append(next(iter(data.values())))
    return found


async def nothing_more(ws: Any, wait: float = 1.5) -> None:
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(ws.recv(), wait)


async def graphql_write(api: Api, token: str, space: str, subject: str, value: str,
                        **extra: Any) -> list[dict[str, Any]]:
    fact = {"subject": subject, "value": value, **extra}
    body = await asyncio.to_thread(api.gql, token, REMEMBER, {"s": space, "f": [fact]})
    assert "errors" not in body, body
    found: list[dict[str, Any]] = body["data"]["rememberFacts"]
    return found


def test_a_subscriber_hears_every_writer_in_commit_order_and_resumes_after_its_cursor(
        api: Api, serve_api: Callable[..., Api]) -> None:
    worker_b = serve_api(change_poll_seconds=0.1)  # another server, its own runtime and feed
    tenant = new_tenant()
    token = api.key("writer", tenant)
    space = f"{tenant}/u/a/r"

    async def scenario() -> None:
        ws = await subscribe(api, token, FACT_CHANGED, {"s": "u/a/r"})
        first = await asyncio.to_thread(python_api_write, api, space, "editor", "vim")
        second = (await graphql_write(worker_b, token, "u/a/r", "shell", "zsh"))[0]["factId"]
        heard = await receive(ws, 2)
        assert [(e["factId"], e["value"]) for e in heard] == [(first, "vim"), (second, "zsh")]
        assert heard[0]["message"] == "Stored: [ADD] editor = vim"
        assert heard[0]["cursor"] != heard[1]["cursor"]
        await ws.close()
        # while nobody listens: one write on each side
        third = (await graphql_write(worker_b, token, "u/a/r", "font", "mono"))[0]["factId"]
        fourth = await asyncio.to_thread(python_api_write, api, space, "theme", "dark")
        again = await subscribe(api, token, FACT_CHANGED, {"s": "u/a/r",
                                                           "after": heard[1]["cursor"]})
        caught = await receive(again, 2)
        assert [e["factId"] for e in caught] == [third, fourth]
        fifth = (await graphql_write(api, token, "u/a/r", "pager", "less"))[0]["factId"]
        assert [e["factId"] for e in await receive(again, 1)] == [fifth]
        await nothing_more(again)
        await again.close()

    asyncio.run(scenario())


def test_a_cursor_older_than_the_graphs_outbox_is_served_from_the_mirror(api: Api) -> None:
    """Applied entries leave the graph after GRAPHMEM_OUTBOX_KEEP_SECONDS; an erasure drops
    the space's applied entries and scrubs the mirror's copies. A resuming client still gets
    every change, and never an erased value."""
    tenant = new_tenant()
    admin = api.key("admin", tenant)
    runtime = api.server.config.app.state.runtime
    space = f"{tenant}/u/default/default"

    async def scenario() -> None:
        ws = await subscribe(api, admin, FACT_CHANGED, {"s": "u"})
        await graphql_write(api, admin, "u", "start", "here")
        mark = (await receive(ws, 1))[0]["cursor"]
        await ws.close()
        kept = await graphql_write(api, admin, "u", "kept", "one")
        secret = await graphql_write(api, admin, "u", "secret", "hunter2")
        await graphql_write(api, admin, "u", "kept2", "two")
        await asyncio.to_thread(runtime.mirror.drain, [space])
        # another server of this module may have applied some entries: its marks thread
        # marks them done, and only entries marked done are pruned
        await asyncio.to_thread(wait_for, lambda: not outbox.pending_count(
            runtime.graph, space)[0], 30)
        pruned = await asyncio.to_thread(outbox.prune, runtime.graph, 0, 100_000, [space])
        assert pruned >= 3
        erased = await asyncio.to_thread(
            api.ok, admin, 'mutation($id: ID!) { delete(space: "u", factId: $id)'
                           " { factCount } }", {"id": secret[0]["factId"]})
        assert erased["delete"]["factCount"] == 1
        again = await subscribe(api, admin, FACT_CHANGED, {"s": "u", "after": mark})
        caught = await receive(again, 3)
        await nothing_more(again)
        await again.close()
        assert [e["change"] for e in caught] == ["remembered", "remembered", "erased"]
        assert [e["value"] for e in caught] == ["one", "two", None]
        assert caught[0]["factId"] == kept[0]["factId"]
        assert "hunter2" not in json.dumps(caught) and "secret" not in json.dumps(caught)

    asyncio.run(scenario())


def test_conflicts_and_pending_changes_have_their_own_channels(
        serve_api: Callable[..., Api]) -> None:
    api = serve_api(slot_schema="preset:clinical")
    tenant = new_tenant()
    approver = api.key("approver", tenant)

    async def scenario() -> None:
        opened = await subscribe(api, approver, CHANNELS, {"s": "u"})
        closed = await subscribe(api, approver, CLOSED, {"s": "u"})
        pending = await subscribe(api, approver, PENDING, {"s": "u"})
        await graphql_write(api, approver, "u", "db", "Postgres", confidence=0.9)
        flag = (await graphql_write(api, approver, "u", "db", "MySQL", action="SUPERSEDE",
                                    confidence=0.3))[0]
        await graphql_write(api, approver, "u", "active_medication", "Warfarin 5mg",
                            confidence=0.95)
        proposal = (await graphql_write(api, approver, "u", "active_medication",
                                        "Warfarin 7mg", action="SUPERSEDE",
                                        confidence=0.95))[0]
        heard = await receive(opened, 2)
        assert [(e["conflictId"], e["kind"]) for e in heard] == [
            (flag["conflictId"], "LOW_CONFIDENCE"), (proposal["conflictId"], "PENDING")]
        proposed = (await receive(pending, 1))[0]
        assert (proposed["change"], proposed["factId"], proposed["value"]) == (
            "proposed", proposal["factId"], "Warfarin 7mg")
        await asyncio.to_thread(api.ok, approver, "mutation($f: ID!) { confirmChange(space:"
                                " \"u\", factId: $f) { message } }", {"f": proposal["factId"]})
        await asyncio.to_thread(api.ok, approver, "mutation($c: ID!) { dismissConflict(space:"
                                " \"u\", conflictId: $c) { message } }", {"c": flag["conflictId"]})
        ended = await receive(closed, 2)
        assert [(e["conflictId"], e["change"], e["status"]) for e in ended] == [
            (proposal["conflictId"], "confirmed", "resolved"),
            (flag["conflictId"], "dismissed", "dismissed")]
        confirmed = (await receive(pending, 1))[0]
        assert (confirmed["change"], confirmed["conflictId"]) == (
            "confirmed", proposal["conflictId"])
        for ws in (opened, closed, pending):
            await ws.close()

    asyncio.run(scenario())


def test_a_flag_that_joins_an_open_conflict_reports_that_conflict(api: Api) -> None:
    tenant = new_tenant()
    token = api.key("writer", tenant)

    async def scenario() -> None:
        ws = await subscribe(api, token, CHANNELS, {"s": "u"})
        await graphql_write(api, token, "u", "db", "Postgres", confidence=0.9)
        first = (await graphql_write(api, token, "u", "db", "MySQL", action="SUPERSEDE",
                                     confidence=0.3))[0]
        second = (await graphql_write(api, token, "u", "db", "Oracle", action="SUPERSEDE",
                                      confidence=0.3))[0]
        assert first["conflictId"] == second["conflictId"]
        heard = await receive(ws, 2)
        assert [e["conflictId"] for e in heard] == [first["conflictId"]] * 2
        assert [e["value"] for e in heard] == ["MySQL", "Oracle"]
        await ws.close()

    asyncio.run(scenario())
