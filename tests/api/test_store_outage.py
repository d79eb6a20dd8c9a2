"""Neo4j out of reach of a running server: every call that needs it answers UNAVAILABLE
saying what is down and to retry (with `Retry-After`), the log holds one line for the outage
(and a summary while it lasts), never a traceback per request, and the server serves again
by itself once Neo4j is back, with every acknowledged write there. The relational store out
of reach: the server is degraded, not down.

The server reaches the session's Neo4j through a TCP proxy that the test cuts: a network
fault between graphmem and its graph store, the store itself untouched."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.errors import Neo4jUnavailable, StoreUnavailable
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.outage_log import OUTAGES, OutageLog
from graphmem.settings import Settings

from support import loopback
from support.api_support import Api, new_tenant
from support.mirror_support import wait_for
from support.tcp_proxy import Proxy, tcp_proxy

pytestmark = pytest.mark.races

WRITE = ("mutation($s: String!, $v: String!) { rememberFacts(space: $s, facts:"
         " [{subject: $s, value: $v}]) { action factId } }")
READ = "query($s: String!) { facts(space: $s, first: 5) { totalCount } }"
HINT = "the graph store (Neo4j) is unreachable; retry in a few seconds"
CALLS = 40


@pytest.fixture
def proxied(serve_api: Callable[..., Api], settings: Settings) -> Iterator[tuple[Api, Proxy]]:
    user, password = settings.neo4j_auth()
    host, port = settings.bolt_uri.removeprefix("bolt://").rsplit(":", 1)
    with tcp_proxy(host, int(port)) as proxy:
        api = serve_api(own=True, neo4j_uri=f"bolt://127.0.0.1:{proxy.port}",
                        neo4j_user=user, neo4j_password=SecretStr(password))
        yield api, proxy


def _call(api: Api, token: str, query: str, variables: dict[str, Any]) -> Any:
    return loopback.post(f"{api.base}/graphql", json={"query": query, "variables": variables},
                         headers={"Authorization": f"Bearer {token}"}, timeout=60)


def test_an_unreachable_graph_store_is_a_retryable_error_and_one_log_line(
        proxied: tuple[Api, Proxy], caplog: pytest.LogCaptureFixture) -> None:
    api, proxy = proxied
    token = api.key("admin", new_tenant())
    acked = api.ok(token, WRITE, {"s": "before", "v": "1"})["rememberFacts"][0]["factId"]
    caplog.set_level(logging.INFO, logger="graphmem")
    proxy.cut()
    try:
        answers = [_call(api, token, WRITE if i % 2 else READ, {"s": f"s{i}", "v": "v"})
                   for i in range(CALLS)]
    finally:
        records = [r for r in caplog.records if r.name.startswith("graphmem")]
        proxy.restore()
    for response in answers:
        body = response.json()
        assert response.status_code == 200, response.text
        assert [e["extensions"]["code"] for e in body["errors"]] == ["UNAVAILABLE"], body
        assert body["errors"][0]["message"] == HINT, body
        assert response.headers["Retry-After"] == "5"
        assert "bolt://" not in response.text
    assert not [r for r in records if r.exc_info], "no traceback while the store is down"
    # one line for the outage (none when this process's outage of Neo4j began in an earlier
    # test, less than QUIET_SECONDS ago), and every failed call counted in it
    outage = [r.getMessage() for r in records if r.name == "graphmem.outages"]
    assert len(outage) <= 1 and all("unreachable" in line for line in outage), outage
    assert OUTAGES.running(Neo4jUnavailable.kind) >= CALLS
    # beside the access log's line a request (INFO), a few lines in all
    logged = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    assert sum(map(len, logged)) < 2_000, logged
    # back without a restart: the next write succeeds, the one acknowledged before is there
    wait_for(lambda: "errors" not in _call(api, token, WRITE, {"s": "after", "v": "2"}).json(),
             timeout=60)
    found = api.ok(token, "query($s: String!) { facts(space: $s, first: 5) { edges { node {"
                          " factId } } } }", {"s": "before"})["facts"]["edges"]
    assert [e["node"]["factId"] for e in found] == [acked]


def test_an_outage_is_one_line_then_a_summary_while_it_lasts(
        caplog: pytest.LogCaptureFixture) -> None:
    outages = OutageLog(summary_seconds=0.0, quiet_seconds=3600)
    caplog.set_level(logging.WARNING, logger="graphmem.outages")
    graph = Neo4jUnavailable("Neo4j is not reachable at bolt://127.0.0.1:7687: start it")
    for _ in range(3):
        outages.note(graph, "facts")
    outages.note(StoreUnavailable("the store at sqlite:///x is locked"), "auditLog")
    lines = [r.getMessage() for r in caplog.records if r.name == "graphmem.outages"]
    assert len(lines) == 4
    assert lines[0].startswith("the graph store (Neo4j) is unreachable: Neo4j is not reachable")
    assert "first failed call: facts" in lines[0]
    assert "still failing, 2 call(s) since" in lines[1] and "3 call(s)" in lines[2]
    assert lines[3].startswith("the relational store is unreachable: the store at")
    assert outages.running("the graph store (Neo4j) is unreachable") == 3
    quiet = OutageLog(summary_seconds=60.0, quiet_seconds=3600)
    caplog.clear()
    for _ in range(100):
        quiet.note(graph, "facts")
    assert len([r for r in caplog.records if r.name == "graphmem.outages"]) == 1, (
        "a hundred failures in a minute: one line")


@pytest.mark.postgres
def test_without_the_relational_store_the_server_is_degraded_and_takes_writes(
        serve_api: Callable[..., Api], pg_schema_url: str) -> None:
    """The relational store (keys, mirror, audit) cut: `/readyz` answers 200 `degraded`, a
    key verified before the cut keeps working though every request looks it up (no key
    cache), writes are acknowledged; back, `/readyz` says ready again."""
    with tcp_proxy("127.0.0.1", 5432) as proxy:
        url = pg_schema_url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        store = RelationalStore(url)
        store_migrations.up(store)
        api = serve_api(own=True, database_url=SecretStr(url), api_key_cache_seconds=0.0)
        token = KeyStore.open(store, api.settings).create(new_tenant(), "writer").token
        store.close()
        assert "errors" not in _call(api, token, WRITE, {"s": "before", "v": "1"}).json()
        proxy.cut()
        try:
            ready = loopback.get(f"{api.base}/readyz", timeout=30)
            answers = [_call(api, token, WRITE, {"s": f"s{i}", "v": "v"}).json()
                       for i in range(5)]
        finally:
            proxy.restore()
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "degraded"
        assert ready.json()["checks"] == {"neo4j": "ok", "relational": "unavailable"}
        assert [a.get("errors") for a in answers] == [None] * 5, answers
        wait_for(lambda: loopback.get(f"{api.base}/readyz", timeout=30).json()["status"]
                 == "ready", timeout=60)
