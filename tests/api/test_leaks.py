"""What the real server must not tell a client: where its model endpoint is and what it
answered, why a dependency is not ready, and whether a refused key ever existed."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphmem.model.principals import INVALID

from support import loopback
from support.api_support import Api, codes
from support.llm_server import LLMServer

REMEMBER = 'mutation { remember(space: "u", text: "Our plan is Pro") { action } }'
UPSTREAM_SECRET = "upstream-said-internal-host-db7.corp"


@pytest.fixture(scope="module")
def llm_server() -> Iterator[LLMServer]:
    server = LLMServer()
    yield server
    server.close()


def masked_and_logged(body: dict[str, object], caplog: pytest.LogCaptureFixture,
                      *hidden: str) -> str:
    """The error is UNAVAILABLE with a reference only; the log holds the detail under it."""
    assert codes(body) == ["UNAVAILABLE"], body  # type: ignore[arg-type]
    error = body["errors"][0]  # type: ignore[index]
    ref = error["extensions"]["ref"]
    assert error["message"] == f"graphmem couldn't complete that (ref {ref})"
    for text in hidden:
        assert text not in str(body)
    logged = " ".join(r.getMessage() for r in caplog.records if f"ref={ref}" in r.getMessage())
    for text in hidden:
        assert text in logged
    return logged


def test_a_failing_model_endpoint_is_not_described_to_the_client(
        serve_api: Callable[..., Api], llm_server: LLMServer,
        caplog: pytest.LogCaptureFixture) -> None:
    llm_server.reset()
    llm_server.fail("chat", 500, times=5, message=UPSTREAM_SECRET)
    api = serve_api(llm_base_url=llm_server.url, llm_model="private-model-x",
                    llm_api_key=SecretStr("k"), llm_max_retries=0)
    caplog.set_level(logging.ERROR, logger="graphmem.api.errors")
    body = api.gql(api.key("writer"), REMEMBER)
    masked_and_logged(body, caplog, UPSTREAM_SECRET, llm_server.url, "private-model-x")


def test_an_unreachable_model_endpoint_is_not_named_to_the_client(
        serve_api: Callable[..., Api], caplog: pytest.LogCaptureFixture) -> None:
    url = "http://127.0.0.1:1/private-gateway/v1"
    api = serve_api(llm_base_url=url, llm_model="m", llm_api_key=SecretStr("k"),
                    llm_max_retries=0)
    caplog.set_level(logging.ERROR, logger="graphmem.api.errors")
    body = api.gql(api.key("writer"), REMEMBER)
    masked_and_logged(body, caplog, url)


def test_without_a_model_the_client_is_told_what_is_missing(api: Api) -> None:
    body = api.gql(api.key("writer"), REMEMBER)
    assert codes(body) == ["UNAVAILABLE"]
    assert "need an LLM" in body["errors"][0]["message"]  # configuration, nothing private


def test_readyz_says_unavailable_without_the_reason(serve_api: Callable[..., Api],
                                                    caplog: pytest.LogCaptureFixture) -> None:
    broken = serve_api(neo4j_database="nosuchdatabase")
    caplog.set_level(logging.ERROR, logger="graphmem.api.health")
    response = loopback.get(f"{broken.base}/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"neo4j": "unavailable", "relational": "ok"}
    assert "nosuchdatabase" not in response.text
    logged = [r.getMessage() for r in caplog.records if f"ref={body['ref']}" in r.getMessage()]
    assert logged and "nosuchdatabase" in logged[0]


def test_readyz_is_rate_limited(serve_api: Callable[..., Api]) -> None:
    limited = serve_api(own=True, rate_per_min=5)
    answers = [loopback.get(f"{limited.base}/readyz").status_code for _ in range(7)]
    assert answers[:5] == [200] * 5 and answers[5:] == [429] * 2
    assert loopback.get(f"{limited.base}/healthz").status_code == 200  # liveness stays free


def test_a_revoked_key_and_an_unknown_key_get_the_same_answer(api: Api) -> None:
    issued = api.keys.create("t-leaks", "reader")
    api.keys.revoke(issued.key_id)
    answers = [api.post("{ __typename }", token=token) for token in (
        issued.token, "gm_sk_0123456789ab_" + "B" * 43, issued.token[:-1] + "x")]
    assert {r.status_code for r in answers} == {401}
    assert {r.json()["errors"][0]["message"] for r in answers} == {INVALID}


ROOT = Path(__file__).resolve().parents[2]


def test_no_response_names_a_path_of_the_servers_filesystem(
        serve_api: Callable[..., Api], tmp_path: Path) -> None:
    """Pages for what is not built, errors, health, metrics and the manual: none carries the
    checkout's, the home's or the bundle's path."""
    bare = serve_api(ui_dir=tmp_path / "no-bundle")
    token = bare.key("reader")
    auth = {"Authorization": f"Bearer {token}"}
    answers = [loopback.get(f"{bare.base}{path}", headers=headers) for path, headers in (
        ("/healthz", {}), ("/readyz", {}), ("/metrics", {}), ("/ui/", {}),
        ("/ui/assets/missing.js", {}), ("/ui/neo4j/guide.html", {}), ("/docs/", {}),
        ("/docs/no-such-page/", {}), ("/docs/../pyproject.toml", {}), ("/nowhere", {}),
        ("/graphql", {"Accept": "text/html"}), ("/graphql?query={__typename}", {}))]
    answers += [loopback.post(f"{bare.base}/graphql", content=body, headers=headers)
                for body, headers
                in ((b'{"query": "{ nope }"}', auth), (b"{not json", auth),
                    (b'{"query": "{"}', auth), (b'{"query": "{ __typename }"}', {}),
                    (b"x" * 3_000_000, auth))]
    answers.append(loopback.post(f"{bare.base}/mcp", json={"jsonrpc": "2.0", "id": 1,
                                                        "method": "tools/list"}))
    private = {str(ROOT), str(tmp_path), str(bare.settings.home)}
    if Path.home() != Path("/"):
        private.add(str(Path.home()))
    for answer in answers:
        leaked = [p for p in private if p in answer.text]
        assert not leaked, f"{answer.request.url} answered {answer.status_code} naming {leaked}"
