"""GRAPHMEM_API_MAX_PAGE set above its default (500) over GraphQL and MCP: a count above the
default is served and one past the setting refused, naming the bound, on every field and
tool that takes a count (the service checks it, so each transport states no bound of its
own)."""

from __future__ import annotations

from collections.abc import Callable

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

TOP = 600  # above the default of 500
RELATED = ("query($s: String!, $n: Int!) { recallRelated(space: $s, entities: [{name: \"a\"}],"
           " limit: $n) { paths { keys } } }")
VOCABULARY = ("query($s: String!, $n: Int!) { vocabulary(space: $s, limit: $n)"
              " { entities { name } } }")
AUDIT = "query($n: Int!) { auditLog(limit: $n) { seq } }"
FACTS = "query($s: String!, $n: Int!) { facts(space: $s, first: $n) { edges { cursor } } }"


def test_counts_up_to_the_setting_are_served_and_one_past_it_refused(
        serve_api: Callable[..., Api]) -> None:
    api = serve_api(api_max_page=TOP)
    tenant = new_tenant()
    admin = api.key("admin", tenant)
    api.ok(admin, "mutation { createEntity(space: \"pages\", type: \"person\", name: \"a\")"
                  " { key } }")
    api.ok(admin, "mutation { rememberFacts(space: \"pages\", facts: [{head: \"a\","
                  " relation: \"knows\", tail: \"b\", confidence: 0.95}]) { action } }")
    for query, variables in ((RELATED, {"s": "pages"}), (VOCABULARY, {"s": "pages"}),
                             (AUDIT, {}), (FACTS, {"s": "pages"})):
        api.ok(admin, query, {**variables, "n": TOP})
        refused = api.gql(admin, query, {**variables, "n": TOP + 1})
        error = refused["errors"][0]
        assert error["extensions"]["code"] == "BAD_USER_INPUT", (query, refused)
        assert str(TOP) in error["message"], (query, error)
    with http(f"{api.base}/mcp", admin) as session:
        here = {"user_id": "pages"}
        for tool, arguments in (("recall_related", {**here, "entities": ["a"]}),
                                ("entity_neighbourhood", {**here, "type": "person", "name": "a"}),
                                ("vocabulary", here), ("list_facts", here), ("audit_log", {})):
            served = session.call(tool, {**arguments, "limit": TOP})
            assert not served.is_error, (tool, text_of(served))
            past = session.call(tool, {**arguments, "limit": TOP + 1})
            assert past.is_error and str(TOP) in text_of(past), (tool, text_of(past))


def test_a_write_of_more_facts_than_the_default_is_taken_when_the_setting_allows_it(
        serve_api: Callable[..., Api]) -> None:
    """GRAPHMEM_WRITE_MAX_FACTS above its default of 1,000: MCP takes what the setting
    allows and refuses one more, naming the setting, as GraphQL does."""
    top = 1_001
    api = serve_api(write_max_facts=top)
    writer = api.key("writer", new_tenant())

    def facts(n: int) -> list[dict[str, object]]:
        return [{"subject": f"setting_{i}", "value": "on", "confidence": 0.95} for i in range(n)]

    with http(f"{api.base}/mcp", writer) as session:
        taken = session.call("remember_facts", {"user_id": "many", "facts": facts(top)})
        assert not taken.is_error, text_of(taken)[:500]
        past = session.call("remember_facts", {"user_id": "many", "facts": facts(top + 1)})
        assert past.is_error and "GRAPHMEM_WRITE_MAX_FACTS" in text_of(past), text_of(past)[:500]
    refused = api.gql(writer, "mutation($f: [FactInput!]!) { rememberFacts(space: \"many\","
                              " facts: $f) { action } }", {"f": facts(top + 1)})
    assert "GRAPHMEM_WRITE_MAX_FACTS" in refused["errors"][0]["message"]
