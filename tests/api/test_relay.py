"""Relay conventions through the real server: global ids that `node`/`nodes` find again,
keyset connections read both ways (stable while another thread writes), `totalCount` by
aggregation, and a conflicts page whose facts cost one batched read (DataLoaders)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from graphmem.schema.relay import global_id

from support import loopback
from support.api_support import Api, codes, new_tenant

pytestmark = pytest.mark.races

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action factId conflictId fact { id } } }")
FACTS = ("query($s: String!, $first: Int, $after: String, $last: Int, $before: String)"
         " { facts(space: $s, first: $first, after: $after, last: $last, before: $before)"
         " { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }"
         " edges { cursor node { id factId subject value recordedAt } } } }")
NODE = ("query($id: ID!) { node(id: $id) { id __typename ... on Fact { factId value }"
        " ... on Conflict { conflictId kind } ... on Entity { key name }"
        " ... on AuditEntry { seq operation } ... on Space { key user } } }")


def remember(api: Api, token: str, space: str, facts: list[dict[str, Any]]) -> list[Any]:
    found: list[Any] = api.ok(token, REMEMBER, {"s": space, "f": facts})["rememberFacts"]
    return found


def facts(n: int, prefix: str = "s") -> list[dict[str, Any]]:
    return [{"subject": f"{prefix}{i}", "value": f"v{i}", "confidence": 0.9} for i in range(n)]


def test_node_finds_every_kind_of_object_again_by_its_global_id(api: Api) -> None:
    tenant = new_tenant()
    admin = api.key("admin", tenant)
    stored = remember(api, admin, "u", [
        {"head": "Ann", "headType": "person", "relation": "works at", "tail": "Acme",
         "tailType": "organisation", "confidence": 0.9},
        {"subject": "db", "value": "Postgres", "confidence": 0.9}])
    flagged = remember(api, admin, "u", [{"subject": "db", "value": "MySQL",
                                          "action": "SUPERSEDE", "confidence": 0.3}])
    conflict = api.ok(admin, "query { conflicts(space: \"u\") { nodes { id conflictId } } }")
    entity = api.ok(admin, 'query { entities(space: "u", type: "person") { nodes { id key } } }')
    space = api.ok(admin, "query { spaces { nodes { id key } } }")
    api.flush_audit()
    audit = api.ok(admin, "query { auditEntries(first: 1) { nodes { id seq } } }")
    ids = {
        "Fact": stored[0]["fact"]["id"],
        "Conflict": conflict["conflicts"]["nodes"][0]["id"],
        "Entity": entity["entities"]["nodes"][0]["id"],
        "Space": space["spaces"]["nodes"][0]["id"],
        "AuditEntry": audit["auditEntries"]["nodes"][0]["id"],
    }
    for type_name, ident in ids.items():
        found = api.ok(admin, NODE, {"id": ident})["node"]
        assert (found["__typename"], found["id"]) == (type_name, ident)
    assert api.ok(admin, NODE, {"id": ids["Fact"]})["node"]["factId"] == stored[0]["factId"]
    assert api.ok(admin, NODE, {"id": ids["Conflict"]})["node"]["conflictId"] == (
        flagged[0]["conflictId"])
    assert api.ok(admin, NODE, {"id": ids["Entity"]})["node"]["key"] == "person:ann"
    many = api.ok(admin, "query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
                  {"ids": [ids["Fact"], str(global_id("Fact", f"{tenant}/u/default/default",
                                                      "f-gone")), ids["Space"]]})["nodes"]
    assert [n and n["id"] for n in many] == [ids["Fact"], None, ids["Space"]]


def test_a_global_id_of_another_space_or_tenant_passes_the_guard(api: Api) -> None:
    tenant, other = new_tenant(), new_tenant()
    writer = api.key("writer", tenant)
    fact = remember(api, writer, "bob", facts(1))[0]["fact"]["id"]
    alice_only = api.key("reader", tenant, ("alice",))
    assert codes(api.gql(alice_only, NODE, {"id": fact})) == ["FORBIDDEN"]
    assert codes(api.gql(api.key("reader", other), NODE, {"id": fact})) == ["FORBIDDEN"]
    assert api.ok(api.key("reader", tenant), NODE, {"id": fact})["node"]["id"] == fact
    body = api.gql(writer, NODE, {"id": "Zm9vYmFy"})
    assert codes(body) == ["BAD_USER_INPUT"]


def test_ids_given_to_mutations_may_be_global(api: Api) -> None:
    tenant = new_tenant()
    approver = api.key("approver", tenant)
    remember(api, approver, "u", [{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    flagged = remember(api, approver, "u", [{"subject": "db", "value": "MySQL",
                                             "action": "SUPERSEDE", "confidence": 0.3}])
    conflict = api.ok(approver, 'query { conflicts(space: "u") { nodes { id } } }')
    resolved = api.ok(approver, "mutation($c: ID!, $w: ID!) { resolveConflict(space: \"u\","
                                " conflictId: $c, winner: $w) { message conflictId } }",
                      {"c": conflict["conflicts"]["nodes"][0]["id"],
                       "w": flagged[0]["fact"]["id"]})
    assert resolved["resolveConflict"]["message"] == "Stored: [SUPERSEDE] db = MySQL"
    assert resolved["resolveConflict"]["conflictId"] is not None


def page_all(api: Api, token: str, space: str, size: int, backward: bool = False
             ) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    cursor = None
    while True:
        variables = ({"s": space, "last": size, "before": cursor} if backward
                     else {"s": space, "first": size, "after": cursor})
        found = api.ok(token, FACTS, variables)["facts"]
        nodes = [e["node"] for e in found["edges"]]
        seen = nodes + seen if backward else seen + nodes
        info = found["pageInfo"]
        more = info["hasPreviousPage"] if backward else info["hasNextPage"]
        if not more:
            return seen
        cursor = info["startCursor"] if backward else info["endCursor"]


def test_pages_read_forwards_and_backwards_in_one_order(api: Api) -> None:
    token = api.key("writer", new_tenant())
    remember(api, token, "u", facts(23))
    forwards = page_all(api, token, "u", 5)
    backwards = page_all(api, token, "u", 4, backward=True)
    assert [f["factId"] for f in forwards] == [f["factId"] for f in backwards]
    assert len(forwards) == 23 and len({f["factId"] for f in forwards}) == 23
    assert [f["recordedAt"] for f in forwards] == sorted(f["recordedAt"] for f in forwards)
    first = api.ok(token, FACTS, {"s": "u", "first": 5})["facts"]
    assert first["totalCount"] == 23 and first["pageInfo"]["hasNextPage"]
    assert not first["pageInfo"]["hasPreviousPage"]
    last = api.ok(token, FACTS, {"s": "u", "last": 5})["facts"]
    assert [e["node"]["factId"] for e in last["edges"]] == [
        f["factId"] for f in forwards[-5:]]


def test_keyset_pages_skip_and_repeat_nothing_while_another_thread_writes(api: Api) -> None:
    token = api.key("writer", new_tenant())
    before = {r["factId"] for r in remember(api, token, "u", facts(40, "old"))}
    stop = threading.Event()
    written: list[str] = []

    def writer() -> None:
        n = 0
        while not stop.is_set() and n < 60:
            body = loopback.post(f"{api.base}/graphql", timeout=60,
                                 headers={"Authorization": f"Bearer {token}"},
                                 json={"query": REMEMBER, "variables": {
                                  "s": "u", "f": [{"subject": f"new{n}", "value": "x"}]}}).json()
            written.append(body["data"]["rememberFacts"][0]["factId"])
            n += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        seen = page_all(api, token, "u", 6)
    finally:
        stop.set()
        thread.join(timeout=120)
    ids = [f["factId"] for f in seen]
    assert len(ids) == len(set(ids)), "a fact was repeated across pages"
    assert before <= set(ids), f"facts skipped: {before - set(ids)}"
    assert set(ids) <= before | set(written)
    assert written, "the writer wrote nothing while the pages were read"


def test_total_count_is_counted_only_when_asked(api: Api) -> None:
    token = api.key("writer", new_tenant())
    remember(api, token, "u", facts(3))
    executed = statement_counts(api)
    api.ok(token, 'query { facts(space: "u", first: 2) { edges { node { id } } } }')
    without = diff(executed, statement_counts(api))
    assert without.get("facts/page") == 1 and "facts/count" not in without
    executed = statement_counts(api)
    found = api.ok(token, 'query { facts(space: "u", first: 2) { ...Total } }'
                          " fragment Total on FactConnection { totalCount }")
    assert found["facts"]["totalCount"] == 3
    assert diff(executed, statement_counts(api)).get("facts/count") == 1


def statement_counts(api: Api) -> dict[str, float]:
    """The server's `graphmem_cypher_statements_total` by statement."""
    found: dict[str, float] = {}
    for line in loopback.get(f"{api.base}/metrics", timeout=30).text.splitlines():
        if line.startswith('graphmem_cypher_statements_total{statement="'):
            name = line.split('"')[1]
            found[name] = float(line.rsplit(" ", 1)[1])
    return found


def diff(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


def test_a_page_of_50_conflicts_reads_their_facts_in_one_statement(
        serve_api: Callable[..., Api]) -> None:
    # the cost estimate multiplies every field named `facts` by a page: a budget to match
    api = serve_api(api_max_complexity=20_000)
    token = api.key("writer", new_tenant())
    remember(api, token, "u", facts(50))
    flagged = remember(api, token, "u", [{"subject": f"s{i}", "value": f"w{i}",
                                          "action": "SUPERSEDE", "confidence": 0.3}
                                         for i in range(50)])
    assert {r["action"] for r in flagged} == {"FLAG"}
    api.server.config.app.state.runtime.mirror.drain()  # quiet: nothing else runs meanwhile
    executed = statement_counts(api)
    page = api.ok(token, 'query { conflicts(space: "u", first: 50) { totalCount nodes {'
                         " conflictId facts { factId value status } } } }")["conflicts"]
    reads = {k: v for k, v in diff(executed, statement_counts(api)).items()
             if k.startswith(("facts/", "conflicts/"))}
    assert page["totalCount"] == 50 and len(page["nodes"]) == 50
    assert all(len(c["facts"]) == 2 for c in page["nodes"])
    assert {f["status"] for c in page["nodes"] for f in c["facts"]} == {
        "ACTIVE", "FLAGGED_CONFLICT"}
    assert reads == {"conflicts/page": 1, "conflicts/count": 1, "facts/by_ids": 1}, reads
