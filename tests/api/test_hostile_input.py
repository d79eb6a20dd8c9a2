"""Hostile input through the real server: every answer is a clear 4xx or a GraphQL error
with a code, never a 500, and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from support import loopback
from support.api_support import Api, codes, new_tenant

STATS = "query($s: String!) { stats(space: $s) { active flagged } }"
REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action } }")


@pytest.fixture
def writer(api: Api) -> Iterator[str]:
    tenant = new_tenant()
    yield api.key("admin", tenant)
    # nothing any hostile request sent may have been stored
    stats = api.ok(api.key("admin", tenant), STATS, {"s": "u"})["stats"]
    assert stats == {"active": 0, "flagged": 0}


def raw(api: Api, token: str, content: bytes, content_type: str = "application/json",
        method: str = "POST") -> httpx.Response:
    return loopback.request(method, f"{api.base}/graphql", content=content, timeout=30,
                            headers={"Authorization": f"Bearer {token}",
                                  "Content-Type": content_type})


def assert_clear_4xx(response: httpx.Response) -> None:
    assert 400 <= response.status_code < 500, response.text
    assert codes(response.json()) == ["BAD_USER_INPUT"], response.text


@pytest.mark.parametrize("body,reason", [
    (b"{bad", "Unable to parse request body as JSON"),
    (b"", "Unable to parse request body as JSON"),
    (b"\xff\xfe\x00garbage", "Unable to parse request body as JSON"),
    (b"null", "must be a JSON object with a `query`"),
    (b'"just a string"', "must be a JSON object with a `query`"),
    (b"42", "must be a JSON object with a `query`"),
    (b"[]", "Batching is not enabled"),
    (b'[{"query": "{ __typename }"}]', "Batching is not enabled"),
    (b'{"query": 5}', "`query` must be a string"),
    (b'{"query": "{ __typename }", "variables": [1]}', "`variables` must be an object"),
])
def test_malformed_or_non_graphql_json_is_a_clear_4xx(api: Api, writer: str, body: bytes,
                                                      reason: str) -> None:
    response = raw(api, writer, body)
    assert response.status_code == 400, response.text
    assert_clear_4xx(response)
    assert reason in response.json()["errors"][0]["message"], response.text


@pytest.mark.parametrize("content_type,body", [
    ("text/plain", b"query { __typename }"),
    ("application/x-www-form-urlencoded", b"query=%7B__typename%7D"),
    ("application/xml", b"<query/>"),
    ("multipart/form-data; boundary=x", b"--x\r\n\r\n--x--"),
])
def test_non_graphql_bodies_are_a_clear_4xx(api: Api, writer: str, content_type: str,
                                            body: bytes) -> None:
    assert_clear_4xx(raw(api, writer, body, content_type))


def test_other_methods_and_get_queries_are_refused(api: Api, writer: str) -> None:
    assert_clear_4xx(raw(api, writer, b"", method="PUT"))
    response = loopback.get(f"{api.base}/graphql", params={"query": "{ __typename }"},
                            headers={"Authorization": f"Bearer {writer}"})
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize("query,variables", [
    ("{ facts(space: 5) { totalCount } }", None),
    ('{ facts(space: "u", first: "ten") { totalCount } }', None),
    ('{ facts(space: "u", first: -1) { totalCount } }', None),
    ('{ facts(space: "u", first: 100000) { totalCount } }', None),
    ('{ facts(space: "u", after: "not-a-cursor") { totalCount } }', None),
    ('{ facts(space: "u", asOf: "yesterday") { totalCount } }', None),
    ('{ facts(space: "u", asOf: "2026-01-01T00:00:00") { totalCount } }', None),
    ('{ facts(space: "u", status: NOPE) { totalCount } }', None),
    ('{ facts(space: "u", status: ACTIVE, statuses: [ACTIVE]) { totalCount } }', None),
    ('{ facts(space: "u", first: 1, last: 1) { totalCount } }', None),
    ('{ facts(space: "u", last: -1) { totalCount } }', None),
    ('{ facts(space: "u", before: "bm90LWEtY3Vyc29y") { totalCount } }', None),
    ('{ facts(space: "u", validAt: "2026-01-01T00:00:00Z", validDuring: {from:'
     ' "2026-01-01T00:00:00Z"}) { totalCount } }', None),
    ('{ facts(space: "u", validDuring: {from: "2026-02-01T00:00:00Z", to:'
     ' "2026-01-01T00:00:00Z"}) { totalCount } }', None),
    ('{ history(space: "u", subject: "s", after: "eyJ4IjoxfQ") { totalCount } }', None),
    ('{ node(id: "not-a-global-id") { id } }', None),
    ('{ facts(space: "a/b/c/d/e") { totalCount } }', None),
    ('{ facts(space: "u u") { totalCount } }', None),
    ("{ facts(space: \"u\") { nope } }", None),
    ("{ facts }", None),
    ('{ neighbourhood(space: "u", type: "person", name: "Ann", hops: 9) { text } }', None),
    ('{ recallRelated(space: "u", question: "who?", hops: 0) { text } }', None),
    ('{ neighbourhood(space: "u", type: "person", name: "Ann", limit: 0) { text } }', None),
    ('{ auditLog(limit: 100000) { seq } }', None),
    ("query { ", None),
    ("mutation { rememberFacts(space: \"u\", facts: [{value: \"x\"}]) { action } }", None),
    (REMEMBER, {"s": "u", "f": [{"subject": 5, "value": "x"}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "confidence": 7}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "kind": "neither"}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "validFrom": "soon"}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x\u0000y"}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "extra": 1}]}),
    (REMEMBER, {"s": "u", "f": "not a list"}),
    (REMEMBER, {"s": "u"}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "v" * 300_000}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "metadata": [1]}]}),
    (REMEMBER, {"s": "u", "f": [{"subject": "s", "value": "x", "cardinality": "several"}]}),
    (REMEMBER, {"s": "u", "f": [{"relation": "works at", "tail": "Acme"}]}),
    ("mutation($m: JSON) { rememberFacts(space: \"u\", facts: [{subject: \"s\", value: \"v\"}],"
     " metadata: $m) { action } }", {"m": [1, 2]}),
])
def test_wrong_types_and_values_are_coded_errors(api: Api, writer: str, query: str,
                                                 variables: dict[str, Any] | None) -> None:
    body = api.gql(writer, query, variables)
    assert body.get("errors"), body
    assert set(codes(body)) == {"BAD_USER_INPUT"}, body


def test_huge_variables_are_refused_before_parsing(api: Api, writer: str) -> None:
    facts = [{"subject": f"s{i}", "value": "v" * 1000} for i in range(2000)]
    payload = json.dumps({"query": REMEMBER, "variables": {"s": "u", "f": facts}}).encode()
    assert len(payload) > api.settings.max_body
    response = raw(api, writer, payload)
    assert response.status_code == 413
    assert codes(response.json()) == ["BAD_USER_INPUT"]


def test_a_chunked_body_over_the_cap_is_refused(api: Api, writer: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"query": "{ __typename }", "pad": "'
        for _ in range(2 * api.settings.max_body // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    response = loopback.post(f"{api.base}/graphql", content=chunks(), timeout=30,
                             headers={"Authorization": f"Bearer {writer}",
                                   "Content-Type": "application/json"})
    assert response.status_code == 413


def test_deep_queries_are_refused(serve_api: Callable[..., Api]) -> None:
    shallow = serve_api(api_max_depth=2)
    token = shallow.key("reader")
    assert "errors" not in shallow.gql(token, '{ stats(space: "u") { active } }')
    body = shallow.gql(token, '{ facts(space: "u") { edges { node { id } } } }')
    assert set(codes(body)) == {"BAD_USER_INPUT"}
    assert "query depth 4 exceeds the limit of 2" in body["errors"][0]["message"]


def test_nested_inline_fragments_are_answered_and_cyclic_ones_refused(api: Api,
                                                                     writer: str) -> None:
    nested = "{ " + "".join("... on Query { " for _ in range(60)) + "__typename" + (
        " }" * 60) + " }"
    assert api.gql(writer, nested) == {"data": {"__typename": "Query"}}  # no depth added
    cycle = "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }"
    assert set(codes(api.gql(writer, cycle))) == {"BAD_USER_INPUT"}


def test_wide_queries_with_many_aliases_are_refused(api: Api, writer: str) -> None:
    aliases = " ".join(f'a{i}: stats(space: "u") {{ active }}' for i in range(200))
    body = api.gql(writer, "{ " + aliases + " }")
    assert set(codes(body)) == {"BAD_USER_INPUT"}
    assert "aliases" in body["errors"][0]["message"]


def test_expensive_queries_exceed_the_complexity_budget(api: Api, writer: str) -> None:
    fields = "id subject value scope kind status confidence source raw category head relation"
    costly = " ".join(f'p{i}: facts(space: "u", first: 500) {{ edges {{ node {{ {fields} }} }} }}'
                      for i in range(10))
    body = api.gql(writer, "{ " + costly + " }")
    assert set(codes(body)) == {"BAD_USER_INPUT"}
    assert "budget" in body["errors"][0]["message"]
    variables = api.gql(writer, "query($n: Int) { " + " ".join(
        f'p{i}: facts(space: "u", first: $n) {{ edges {{ node {{ {fields} }} }} }}'
        for i in range(10)) + " }", {"n": 500})
    assert set(codes(variables)) == {"BAD_USER_INPUT"}
