"""Export, import and time-stamped writes over GraphQL, through a real server: the same
guard (exportMemory needs read, importMemory and backfilled facts need backfill), the same
file as `graphmem export`, and its bound."""

from __future__ import annotations

from collections.abc import Callable

from support.api_support import Api, codes, new_tenant

BACKFILLED = """mutation($s: String!, $at: DateTime!) {
  rememberFacts(space: $s, facts: [{subject: "plan", value: "Pro", confidence: 0.9,
                                    recordedAt: $at}]) { action factId }
}"""
EXPORT = "query($s: String!) { exportMemory(space: $s) { jsonl counts hash keyId } }"
IMPORT = """mutation($s: String!, $data: String!) {
  importMemory(space: $s, data: $data) { mode format records written skipped unmapped
                                         already message }
}"""


def test_backfilled_writes_need_the_backfill_capability(api: Api) -> None:
    tenant = new_tenant()
    at = {"s": "alice", "at": "2024-01-01T00:00:00+00:00"}
    denied = api.gql(api.key("writer", tenant), BACKFILLED, at)
    assert codes(denied) == ["FORBIDDEN"] and "backfill" in denied["errors"][0]["message"]
    done = api.ok(api.key("importer", tenant), BACKFILLED, at)
    assert done["rememberFacts"][0]["action"] == "ADD"
    read = api.ok(api.key("reader", tenant), 'query { fact(space: "alice", id: "'
                  + done["rememberFacts"][0]["factId"] + '") { recordedAt } }')
    assert read["fact"]["recordedAt"] == "2024-01-01T00:00:00+00:00"


def test_an_export_imports_into_another_space(api: Api) -> None:
    tenant = new_tenant()
    writer, importer = api.key("writer", tenant), api.key("importer", tenant)
    api.ok(writer, 'mutation { rememberFacts(space: "alice", facts: [{subject: "db",'
                   ' value: "Postgres", confidence: 0.9}]) { action } }')
    exported = api.ok(api.key("reader", tenant), EXPORT, {"s": "alice"})["exportMemory"]
    assert exported["counts"]["fact"] == 1 and exported["jsonl"].endswith("\n")
    denied = api.gql(writer, IMPORT, {"s": "bob", "data": exported["jsonl"]})
    assert codes(denied) == ["FORBIDDEN"]
    report = api.ok(importer, IMPORT, {"s": "bob", "data": exported["jsonl"]})["importMemory"]
    assert (report["mode"], report["records"], report["written"]) == (
        "restore", 2, {"facts": 1})
    again = api.ok(importer, IMPORT, {"s": "bob", "data": exported["jsonl"]})["importMemory"]
    assert again["already"]
    facts = api.ok(writer, 'query { facts(space: "bob") { edges { node { value } } } }')
    assert [e["node"]["value"] for e in facts["facts"]["edges"]] == ["Postgres"]
    tampered = exported["jsonl"].replace('"Postgres"', '"Oracle"')
    refused = api.gql(importer, IMPORT, {"s": "carol", "data": tampered})
    assert codes(refused) == ["BAD_USER_INPUT"]
    assert refused["errors"][0]["message"].startswith("line 3: the record does not match")


def test_an_inline_export_is_bounded(serve_api: Callable[..., Api]) -> None:
    small = serve_api(export_inline_max=1024)
    tenant = new_tenant()
    writer = small.key("writer", tenant)
    small.ok(writer, 'mutation { rememberFacts(space: "alice", facts: [{subject: "notes",'
                     ' value: "' + "x" * 2000 + '"}]) { action } }')
    body = small.gql(small.key("reader", tenant), EXPORT, {"s": "alice"})
    assert codes(body) == ["BAD_USER_INPUT"]
    assert "graphmem export" in body["errors"][0]["message"]
