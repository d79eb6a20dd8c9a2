"""The cost of a GraphQL document through the real server: model-calling fields, pages
(`first`, `limit`) and hops count; 30 aliased `recall`s are refused before any model is
called; a key gets GRAPHMEM_API_MODEL_CALLS_PER_MIN model calls a minute, other keys keep
theirs."""

from __future__ import annotations

from collections.abc import Callable

from support.api_support import Api, codes, new_tenant
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action } }")
RECALL = 'query($s: String!) { recall(space: $s, question: "which plan?") { answer } }'


def test_thirty_aliased_recalls_are_refused_before_any_model_call(
        serve_api: Callable[..., Api], llm: LLMServer) -> None:
    api = serve_api(**llm_overrides(llm))
    token = api.key("writer", new_tenant())
    api.ok(token, REMEMBER, {"s": "bob", "f": [{"subject": "plan", "value": "pro"}]})
    aliased = " ".join(f'r{i}: recall(space: "bob", question: "which plan?") {{ answer }}'
                       for i in range(30))
    body = api.gql(token, f"{{ {aliased} }}")
    assert codes(body) == ["BAD_USER_INPUT"]
    assert "model-calling fields" in body["errors"][0]["message"]
    assert llm.count("answer") == 0, "refused before it ran: no model call"
    one = api.ok(token, RECALL, {"s": "bob"})
    assert one["recall"]["answer"] and llm.count("answer") == 1


def test_deep_and_wide_traversals_cost_their_hops_and_pages(api: Api) -> None:
    token = api.key("reader", new_tenant())
    wide = ('{ neighbourhood(space: "bob", type: "person", name: "ann", hops: 4, limit: 500)'
            " { paths { keys text edges { relation head tail status } } } }")
    body = api.gql(token, wide)
    assert codes(body) == ["BAD_USER_INPUT"] and "query cost" in body["errors"][0]["message"]
    narrow = ('{ neighbourhood(space: "bob", type: "person", name: "ann", hops: 1, limit: 5)'
              " { paths { keys text edges { relation head tail status } } } }")
    assert codes(api.gql(token, narrow)) == ["NOT_FOUND"], "within budget: it ran"


def test_a_key_s_model_calls_are_budgeted_per_minute(serve_api: Callable[..., Api],
                                                     llm: LLMServer) -> None:
    api = serve_api(api_model_calls_per_min=2, **llm_overrides(llm))
    tenant = new_tenant()
    spender, other = api.key("writer", tenant), api.key("writer", tenant)
    api.ok(spender, REMEMBER, {"s": "bob", "f": [{"subject": "plan", "value": "pro"}]})
    for _ in range(2):
        api.ok(spender, RECALL, {"s": "bob"})
    refused = api.gql(spender, RECALL, {"s": "bob"})
    assert codes(refused) == ["RATE_LIMITED"]
    assert "GRAPHMEM_API_MODEL_CALLS_PER_MIN" in refused["errors"][0]["message"]
    assert llm.count("answer") == 2, "the refused document never ran"
    assert api.ok(other, RECALL, {"s": "bob"})["recall"]["answer"], "another key's budget"
    both = 'query($s: String!) { a: recall(space: $s, question: "q") { answer }' \
           ' b: recall(space: $s, question: "q") { answer } c: recall(space: $s,' \
           ' question: "q") { answer } }'
    too_many = api.gql(other, both, {"s": "bob"})
    assert codes(too_many) == ["RATE_LIMITED"]
    assert "more than a minute's budget" in too_many["errors"][0]["message"]
