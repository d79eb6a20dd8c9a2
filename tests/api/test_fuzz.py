"""A fuzz run against the running server: at least 1,000 operations generated from the SDL by
hypothesis-graphql (valid ones and ones with a schema violation). No 5xx, and every error
carries `extensions.code`. Derandomized, so a run is repeatable."""

from __future__ import annotations

import graphql
import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import Mode, from_schema, nodes

from graphmem.schema import SDL_PATH

from support.api_support import Api, new_tenant

OPERATIONS = 1_100
SCALARS = {
    "DateTime": st.sampled_from(["2026-01-01T00:00:00+00:00", "1999-12-31T23:59:59Z",
                                 "2026-01-01", "not a time", ""]).map(nodes.String),
    "JSON": st.just(graphql.ObjectValueNode(fields=())),
}


@pytest.mark.slow
def test_fuzzed_operations_never_fail_with_5xx_or_without_a_code(api: Api) -> None:
    token = api.key("admin", new_tenant())
    sdl = SDL_PATH.read_text()
    operations = st.one_of(from_schema(sdl, custom_scalars=SCALARS),
                           from_schema(sdl, custom_scalars=SCALARS, mode=Mode.NEGATIVE))
    sent: list[int] = []
    problems: list[str] = []

    with httpx.Client(base_url=api.base, timeout=60,
                      headers={"Authorization": f"Bearer {token}"}) as client:

        @settings(max_examples=OPERATIONS, derandomize=True, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(operations)
        def send(query: str) -> None:
            response = client.post("/graphql", json={"query": query})
            sent.append(response.status_code)
            if response.status_code >= 500:
                problems.append(f"{response.status_code} for {query!r}: {response.text[:300]}")
                return
            for error in response.json().get("errors", []):
                if not error.get("extensions", {}).get("code"):
                    problems.append(f"no code for {query!r}: {error}")

        send()

    assert len(sent) >= 1_000, len(sent)
    assert problems == [], problems[:5]
    assert max(sent) < 500
