"""GRAPHMEM_API_MAX_HOPS set above its default over GraphQL and MCP: the deeper walk is
served, one past it is refused with the setting's name (the service checks the bound, which
every transport reaches)."""

from __future__ import annotations

import json
from collections.abc import Callable

from graphmem import GraphMem
from graphmem.runtime import Runtime

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of
from support.related_chain import CHAIN, DEEPEST, chain, longest, name_of

RELATED = ("query($s: String!, $h: Int) { recallRelated(space: $s, entities: [{name: \"stop0\"}],"
           " hops: $h) { paths { keys } } }")



def test_graphql_and_mcp_walk_as_deep_as_the_setting_and_no_deeper(
        serve_api: Callable[..., Api], deep_runtime: Runtime) -> None:
    api = serve_api(api_max_hops=DEEPEST)
    tenant = new_tenant()
    with GraphMem(f"{tenant}/chain/default/default", runtime=deep_runtime) as mem:
        chain(mem)
    token = api.key("reader", tenant)
    found = api.ok(token, RELATED, {"s": "chain", "h": DEEPEST})["recallRelated"]
    assert longest([[name_of(k) for k in p["keys"]] for p in found["paths"]]) == CHAIN
    refused = api.gql(token, RELATED, {"s": "chain", "h": DEEPEST + 1})
    assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "GRAPHMEM_API_MAX_HOPS" in refused["errors"][0]["message"]
    with http(f"{api.base}/mcp", token) as session:
        answered = session.call("recall_related", {"user_id": "chain", "entities": ["stop0"],
                                                   "hops": DEEPEST})
        assert not answered.is_error, text_of(answered)
        nodes = [p["keys"] for p in answered.structured_content["paths"]]
        assert longest([[name_of(k) for k in n] for n in nodes]) == CHAIN, json.dumps(nodes)
        past = session.call("entity_neighbourhood", {"user_id": "chain", "type": "entity",
                                                     "name": "stop0", "hops": DEEPEST + 1})
        assert past.is_error and "GRAPHMEM_API_MAX_HOPS" in text_of(past)
