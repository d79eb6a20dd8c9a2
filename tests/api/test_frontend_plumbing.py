"""What a browser frontend needs around the schema, through the real server: CORS for the
allowed origins only, persisted queries (automatic, and a trusted-documents file), and
GraphiQL opening on the example documents."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from graphmem.errors import ConfigError
from graphmem.http.persisted import load_manifest

from support import loopback
from support.api_support import Api, codes

APP = "https://app.example.com"
STATS = 'query { stats(space: "u") { active } }'


def sha(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


def post(api: Api, token: str | None, body: dict[str, object],
         origin: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if origin:
        headers["Origin"] = origin
    return loopback.post(f"{api.base}/graphql", json=body, headers=headers, timeout=30)


def preflight(api: Api, origin: str) -> httpx.Response:
    return loopback.options(f"{api.base}/graphql", timeout=30, headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})


def test_cors_answers_the_allowed_origins_only(serve_api: Callable[..., Api]) -> None:
    api = serve_api(allowed_origins=(APP, "http://localhost:5173"))
    allowed = preflight(api, APP)
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == APP
    assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
    assert preflight(api, "https://evil.example.com").status_code == 400
    token = api.key("reader")
    answered = post(api, token, {"query": STATS}, origin=APP)
    assert answered.status_code == 200 and answered.headers["access-control-allow-origin"] == APP
    assert "x-request-id" in answered.headers["access-control-expose-headers"].lower()
    refused = post(api, None, {"query": STATS}, origin=APP)  # the browser may read why
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == APP
    other = post(api, token, {"query": STATS}, origin="https://evil.example.com")
    assert "access-control-allow-origin" not in other.headers


def test_without_allowed_origins_no_cross_origin_call_is_granted(api: Api) -> None:
    answered = post(api, api.key("reader"), {"query": STATS}, origin=APP)
    assert "access-control-allow-origin" not in answered.headers
    assert "access-control-allow-origin" not in preflight(api, APP).headers


def test_automatic_persisted_queries_follow_apollos_protocol(api: Api) -> None:
    token = api.key("reader")
    document = 'query AutoPersisted { stats(space: "apq") { active flagged } }'
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": sha(document)}}
    unknown = post(api, token, {"extensions": extensions})
    assert unknown.status_code == 200
    assert codes(unknown.json()) == ["PERSISTED_QUERY_NOT_FOUND"]
    assert unknown.json()["errors"][0]["message"] == "PersistedQueryNotFound"
    registered = post(api, token, {"query": document, "extensions": extensions}).json()
    assert registered["data"]["stats"] == {"active": 0, "flagged": 0}
    by_hash = post(api, token, {"extensions": extensions}).json()
    assert by_hash == registered
    wrong = {"persistedQuery": {"version": 1, "sha256Hash": sha(document + " ")}}
    mismatch = post(api, token, {"query": document, "extensions": wrong})
    assert mismatch.status_code == 400 and codes(mismatch.json()) == ["BAD_USER_INPUT"]
    bad_version = {"persistedQuery": {"version": 2, "sha256Hash": sha(document)}}
    assert codes(post(api, token, {"extensions": bad_version}).json()) == ["BAD_USER_INPUT"]


def test_trusted_documents_are_known_to_every_worker(serve_api: Callable[..., Api],
                                                     tmp_path: Path) -> None:
    document = 'query Trusted { stats(space: "u") { active } }'
    manifest = tmp_path / "persisted.json"
    manifest.write_text(json.dumps({sha(document): document}))
    api = serve_api(persisted_queries=manifest, apq_cache=0)
    token = api.key("reader")
    known = post(api, token, {"extensions": {"persistedQuery": {
        "version": 1, "sha256Hash": sha(document)}}}).json()
    assert known == {"data": {"stats": {"active": 0}}}
    other = 'query Other { stats(space: "u") { flagged } }'
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": sha(other)}}
    post(api, token, {"query": other, "extensions": extensions})  # not registered: cache off
    assert codes(post(api, token, {"extensions": extensions}).json()) == [
        "PERSISTED_QUERY_NOT_FOUND"]


def test_persisted_queries_can_be_switched_off(serve_api: Callable[..., Api]) -> None:
    api = serve_api(apq_cache=0)
    body = post(api, api.key("reader"), {"extensions": {"persistedQuery": {
        "version": 1, "sha256Hash": sha(STATS)}}}).json()
    assert codes(body) == ["PERSISTED_QUERY_NOT_SUPPORTED"]


def test_a_trusted_documents_file_must_hash_each_document(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({sha("query A { a }"): "query B { b }"}))
    with pytest.raises(ConfigError, match="is not the SHA-256 of its document"):
        load_manifest(path)
    path.write_text("[1]")
    with pytest.raises(ConfigError, match="must be an object"):
        load_manifest(path)


def test_browsers_get_the_offline_ide_not_strawberrys(api: Api) -> None:
    """/graphql serves graphmem's own GraphiQL build to a browser (its example tabs are
    checked in Chromium by tests/ui/test_ide.py), never the CDN page."""
    page = loopback.get(f"{api.base}/graphql", headers={"Accept": "text/html"}, timeout=30).text
    assert 'id="graphiql"' in page
    assert "unpkg.com" not in page and "Welcome to GraphiQL" not in page
