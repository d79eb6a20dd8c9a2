"""Read-your-writes across hosts: a write returns a consistency token on every surface, and
a read given it back, on another host (its own driver and connections), waits for that state
and sees the write; a token graphmem did not issue is refused with a clear error."""

from __future__ import annotations

import base64
import json
from typing import Any, cast

import pytest
from mcp_types import RequestParamsMeta

from graphmem import GraphMem, consistency
from graphmem.errors import InvalidInput
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

pytestmark = pytest.mark.races

WRITE = ('mutation($s: String!) { rememberFacts(space: $s, facts: [{subject: "plan",'
         ' value: "Pro", confidence: 0.95}]) { message consistencyToken } }')
READ = 'query($s: String!) { facts(space: $s, subject: "plan") { nodes { value } } }'


def meta(token: str) -> RequestParamsMeta:
    return cast(RequestParamsMeta, {"graphmem/consistency": token})


def forged(*bookmarks: str) -> str:
    raw = json.dumps(list(bookmarks)).encode()
    return consistency.PREFIX + base64.urlsafe_b64encode(raw).decode()


def test_a_read_on_another_host_given_the_token_sees_the_write(
        settings: Settings, runtime: Runtime) -> None:
    space = isolation.space("ryw")
    host_b = Runtime.open(settings)  # another host: its own driver, pool and caches
    opened: list[dict[str, Any]] = []
    session = host_b.graph._driver.session

    def spied(**kwargs: Any) -> Any:
        opened.append(kwargs)
        return session(**kwargs)

    host_b.graph._driver.session = spied  # type: ignore[method-assign]
    try:
        [written] = GraphMem(space, runtime=runtime).remember_facts(
            [{"subject": "plan", "value": "Pro", "confidence": 0.95}])
        assert written.consistency_token is not None
        reader = GraphMem(space, runtime=host_b)
        with reader.records.read_after(written.consistency_token):
            assert [f.value for f in reader.active("plan")] == ["Pro"]
        sent = [k["bookmarks"] for k in opened if "bookmarks" in k]
        assert sent and set(sent[-1].raw_values) == consistency.decode(
            written.consistency_token)
        with pytest.raises(InvalidInput, match="names a state this database does not know"):
            with reader.records.read_after(forged("not-a-bookmark")):
                reader.active("plan")
    finally:
        host_b.close()


def test_graphql_returns_the_token_and_honours_it_on_a_read(api: Api) -> None:
    token = api.key("writer", new_tenant())
    body = api.gql(token, WRITE, {"s": "u"})
    [result] = body["data"]["rememberFacts"]
    assert result["consistencyToken"] and consistency.decode(result["consistencyToken"])
    assert body["extensions"]["consistencyToken"] == result["consistencyToken"]
    read = api.post(READ, {"s": "u"}, token,
                    headers={"Graphmem-Consistency": result["consistencyToken"]}).json()
    assert read["data"]["facts"]["nodes"] == [{"value": "Pro"}]
    refused = api.post(READ, {"s": "u"}, token,
                       headers={"Graphmem-Consistency": "made-up"}).json()
    assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "consistency token" in refused["errors"][0]["message"]


def test_mcp_returns_the_token_and_honours_it_in_meta(api: Api) -> None:
    with http(f"{api.base}/mcp", api.key("writer", new_tenant())) as session:
        wrote = session.call("remember_facts", {"facts": [
            {"subject": "plan", "value": "Pro", "confidence": 0.95}]})
        assert wrote.structured_content is not None
        token = wrote.structured_content["result"][0]["consistency_token"]
        assert consistency.decode(token)
        read = session.run(lambda c: c.call_tool("list_facts", {"subject": "plan"},
                                                 meta=meta(token)))
        assert "plan = Pro" in text_of(read)
        refused = session.run(lambda c: c.call_tool("list_facts", {},
                                                    meta=meta("x")))
        assert refused.is_error and "consistency token" in text_of(refused)
