"""Unexpected failures answer a reference id; the detail is in the server log under it. Every
request leaves one access-log line with its request id."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from support.api_support import Api, codes


def test_an_internal_error_is_masked_with_a_reference(serve_api: Callable[..., Api],
                                                      caplog: pytest.LogCaptureFixture) -> None:
    broken = serve_api(neo4j_database="nosuchdatabase")
    caplog.set_level(logging.ERROR, logger="graphmem.api.errors")
    body = broken.gql(broken.key("reader"), '{ facts(space: "u") { totalCount } }')
    assert codes(body) == ["INTERNAL"]
    error = body["errors"][0]
    ref = error["extensions"]["ref"]
    assert error["message"] == f"graphmem couldn't complete that (ref {ref})"
    assert "nosuchdatabase" not in str(body)
    logged = [r for r in caplog.records if f"ref={ref}" in r.getMessage()]
    assert len(logged) == 1 and "nosuchdatabase" in logged[0].getMessage()


def test_one_access_log_line_per_request(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="graphmem.access")
    api.post("{ __typename }", headers={"X-Request-ID": "trace-0000001"})
    lines = [r.getMessage() for r in caplog.records if r.name == "graphmem.access"
             and "rid=trace-0000001" in r.getMessage()]
    assert len(lines) == 1
    assert '"POST /graphql" 401' in lines[0]
