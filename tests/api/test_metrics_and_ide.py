"""`/metrics` (Prometheus text, optionally behind a token) and GraphiQL in a browser."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import SecretStr

from graphmem.http.app import create_app
from graphmem.settings import Settings

from support import loopback
from support.api_support import PEPPER, Api, codes, fresh_address, new_tenant
from support.mirror_support import wait_for

pytestmark = pytest.mark.races


def sample(text: str, prefix: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(prefix))


COUNTED = {  # what one rememberFacts, one missing fact and one keyless call add, exactly
    'graphmem_operations_total{operation="rememberFacts",outcome="ok"}': 1,
    'graphmem_reconcile_actions_total{action="ADD"}': 1,
    'graphmem_errors_total{code="NOT_FOUND"}': 1,
    'graphmem_errors_total{code="UNAUTHENTICATED"}': 1,
    'graphmem_operation_seconds_count{operation="rememberFacts"}': 1,
}


def test_metrics_count_operations_actions_and_errors(api: Api) -> None:
    """The server is shared by the session's tests: each counter is compared with its value
    just before, so the difference is this test's calls and nothing else."""
    token = api.key("writer", new_tenant())
    before = loopback.get(f"{api.base}/metrics").text
    api.ok(token, 'mutation { rememberFacts(space: "u", facts: [{subject: "s", value: "v"}])'
                  " { action } }")
    api.gql(token, '{ fact(space: "u", id: "missing") { id } }')
    api.post("{ __typename }")
    after = loopback.get(f"{api.base}/metrics")
    assert after.headers["content-type"].startswith("text/plain")
    text = after.text
    added = {key: sample(text, key) - sample(before, key) for key in COUNTED}
    assert added == COUNTED
    assert 'graphmem_operation_seconds_bucket{le="0.005",operation="rememberFacts"}' in text
    assert "graphmem_http_request_seconds_bucket" in text
    assert "graphmem_model_calls_total" in text


def test_metrics_token_guards_metrics(serve_api: Callable[..., Api]) -> None:
    guarded = serve_api(metrics_token=SecretStr("scrape-s3cret"))
    refused = loopback.get(f"{guarded.base}/metrics")
    assert refused.status_code == 401
    assert codes(refused.json()) == ["UNAUTHENTICATED"]
    wrong = loopback.get(f"{guarded.base}/metrics", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    ok = loopback.get(f"{guarded.base}/metrics",
                      headers={"Authorization": "Bearer scrape-s3cret"})
    assert ok.status_code == 200 and "graphmem_errors_total" in ok.text


def test_metrics_without_a_token_answer_this_machine_only(
        serve_api: Callable[..., Api]) -> None:
    proxied = serve_api(trusted_proxies=("127.0.0.1",))
    assert loopback.get(f"{proxied.base}/metrics").status_code == 200, "a scraper on this machine"
    remote = loopback.get(f"{proxied.base}/metrics", headers={"X-Forwarded-For": fresh_address()})
    assert remote.status_code == 403 and codes(remote.json()) == ["FORBIDDEN"]
    assert "GRAPHMEM_METRICS_TOKEN" in remote.json()["errors"][0]["message"]
    direct = serve_api()  # no trusted proxy: a forwarding header is some proxy's
    forwarded = loopback.get(f"{direct.base}/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
    assert forwarded.status_code == 403


def test_graphiql_is_served_to_browsers(api: Api) -> None:
    page = loopback.get(f"{api.base}/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "graphiql" in page.text.lower()


def test_graphiql_can_be_switched_off(serve_api: Callable[..., Api]) -> None:
    off = serve_api(graphiql=False)
    assert loopback.get(f"{off.base}/graphql", headers={"Accept": "text/html"}).status_code == 401
    token = off.key("reader")
    page = loopback.get(f"{off.base}/graphql", headers={"Accept": "text/html",
                                                     "Authorization": f"Bearer {token}"})
    assert page.status_code == 404
    assert "graphiql" not in page.text.lower()


def test_the_app_survives_a_second_lifespan(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"api_key_pepper": PEPPER}))

    async def twice() -> None:
        for _ in range(2):
            async with app.router.lifespan_context(app):
                pass

    asyncio.run(twice())
    assert 'graphmem_model_calls_total{kind="embedding"}' in app.state.metrics.render().decode()


def test_a_worker_runs_as_many_calls_at_once_as_api_threads(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"api_key_pepper": PEPPER, "api_threads": 3}))
    together = threading.Barrier(3, timeout=30)  # broken if fewer than 3 threads run at once
    lock = threading.Lock()
    running, peak = 0, 0

    def call() -> None:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        together.wait()
        with lock:
            running -= 1

    async def calls() -> None:
        async with app.router.lifespan_context(app):
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(None, call) for _ in range(6)))

    asyncio.run(calls())
    assert peak == 3


def test_the_embedding_backlog_is_on_metrics(serve_api: Callable[..., Api]) -> None:
    """Facts queued for their vectors while the worker is held show as the backlog; none
    once it is released and has caught up."""
    api = serve_api(own=True)
    vectors = api.server.config.app.state.runtime.ranker.vectors
    held, release = threading.Event(), threading.Event()
    prepare = vectors.prepare

    def slow_prepare(*args: Any, **kwargs: Any) -> Any:
        held.set()
        assert release.wait(60), "the test never released the embedding worker"
        return prepare(*args, **kwargs)

    vectors.prepare = slow_prepare  # type: ignore[method-assign]
    token = api.key("writer", new_tenant())
    try:
        write = 'mutation { rememberFacts(space: "u", facts: [{subject: "s%d", value: "v"}])'
        write += " { action } }"
        api.ok(token, write % 0)
        assert held.wait(60), "the worker never took the first fact"
        for n in range(1, 4):
            api.ok(token, write % n)
        assert sample(loopback.get(f"{api.base}/metrics").text, "graphmem_embedding_backlog") == 3
    finally:
        release.set()
    wait_for(lambda: sample(loopback.get(f"{api.base}/metrics").text,
                            "graphmem_embedding_backlog") == 0, 30)
