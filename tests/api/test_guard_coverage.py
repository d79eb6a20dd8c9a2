"""One guard for every field: walk the whole schema by introspection and prove that each
root field, called with the minimal arguments its types allow, is stopped by the guard when
the caller is out of scope (the fields about the caller itself, which reach no memory,
answer it), and that every field has an access rule."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from graphmem.resolvers import OPERATIONS
from graphmem.schema.relay import global_id

from support.api_support import Api, codes, new_tenant

pytestmark = pytest.mark.races

INTROSPECT = """{ __schema {
  queryType { name } mutationType { name } subscriptionType { name }
  types { name kind
    fields { name args { name type { ...T } } type { ...T } }
    inputFields { name type { ...T } }
    enumValues { name } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
"""


def schema(api: Api, token: str) -> dict[str, Any]:
    data: dict[str, Any] = api.ok(token, INTROSPECT)["__schema"]
    return data


class Walker:
    """Minimal GraphQL literals for any input type, and a selection for any output type."""

    def __init__(self, introspected: dict[str, Any]) -> None:
        self.types = {t["name"]: t for t in introspected["types"]}

    def literal(self, ref: dict[str, Any]) -> str:
        kind = ref["kind"]
        if kind == "NON_NULL":
            return self.literal(ref["ofType"])
        if kind == "LIST":
            return f"[{self.literal(ref['ofType'])}]"
        t = self.types[ref["name"]]
        if t["kind"] == "ENUM":
            return str(t["enumValues"][0]["name"])
        if t["kind"] == "INPUT_OBJECT":
            fields = [f for f in t["inputFields"] if f["type"]["kind"] == "NON_NULL"]
            return "{" + ", ".join(f"{f['name']}: {self.literal(f['type'])}"
                                   for f in fields) + "}"
        return {"Int": "1", "Float": "0.5", "Boolean": "true", "DateTime":
                '"2026-01-01T00:00:00+00:00"', "JSON": "{}"}.get(ref["name"], '"x"')

    def selection(self, ref: dict[str, Any], depth: int = 0) -> str:
        while ref["kind"] in ("NON_NULL", "LIST"):
            ref = ref["ofType"]
        t = self.types[ref["name"]]
        if t["kind"] not in ("OBJECT", "INTERFACE") or depth > 2:
            return ""
        scalars = [f["name"] for f in t["fields"] if not self.selection(f["type"], depth + 1)
                   and self._leaf(f["type"])]
        return "{ " + " ".join(scalars or ["__typename"]) + " }"

    def _leaf(self, ref: dict[str, Any]) -> bool:
        while ref["kind"] in ("NON_NULL", "LIST"):
            ref = ref["ofType"]
        return self.types[ref["name"]]["kind"] in ("SCALAR", "ENUM")

    def call(self, field: dict[str, Any], space: str, node_id: str = "x") -> str:
        """`space` for a space argument; ids a global id of that space would carry."""
        def value(arg: dict[str, Any]) -> str:
            if arg["name"] == "space":
                return json.dumps(space)
            if arg["name"] in ("id", "ids") and field["name"] in ("node", "nodes"):
                return json.dumps(node_id) if arg["name"] == "id" else f"[{json.dumps(node_id)}]"
            return self.literal(arg["type"])

        args = [f"{a['name']}: {value(a)}" for a in field["args"]
                if a["type"]["kind"] == "NON_NULL"]
        arguments = f"({', '.join(args)})" if args else ""
        return f"{field['name']}{arguments} {self.selection(field['type'])}"


def root(introspected: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    name = (introspected[kind] or {}).get("name")
    if not name:
        return []
    found = next(t for t in introspected["types"] if t["name"] == name)
    return list(found["fields"])


def test_every_root_field_has_an_access_rule(api: Api) -> None:
    introspected = schema(api, api.key("reader"))
    names = {f["name"] for kind in ("queryType", "mutationType", "subscriptionType")
             for f in root(introspected, kind)}
    assert names == set(OPERATIONS)


def test_every_query_and_mutation_is_stopped_by_the_guard_out_of_scope(api: Api) -> None:
    tenant = new_tenant()
    admin_elsewhere = api.key("admin", tenant, ("alice",))
    walker = Walker(schema(api, admin_elsewhere))
    introspected = schema(api, admin_elsewhere)
    checked = []
    node_id = str(global_id("Fact", f"{tenant}/bob/bot/r1", "f1"))
    for kind, verb in (("queryType", "query"), ("mutationType", "mutation")):
        for field in root(introspected, kind):
            document = f"{verb} {{ {walker.call(field, 'bob/bot/r1', node_id)} }}"
            body = api.gql(admin_elsewhere, document)
            if OPERATIONS[field["name"]].reach == "caller":
                # about the caller itself: no space or tenant to be out of
                assert "errors" not in body and body["data"][field["name"]], (document, body)
                checked.append(field["name"])
                continue
            assert codes(body) == ["FORBIDDEN"], (document, body)
            assert body["errors"][0]["message"].startswith("Access denied: ")
            checked.append(field["name"])
    subscriptions = [f["name"] for f in root(introspected, "subscriptionType")]
    assert set(checked) | set(subscriptions) == set(OPERATIONS)


def test_every_subscription_is_stopped_by_the_guard_out_of_scope(api: Api) -> None:
    token = api.key("admin", new_tenant(), ("alice",))
    introspected = schema(api, token)
    walker = Walker(introspected)
    for field in root(introspected, "subscriptionType"):
        document = f"subscription {{ {walker.call(field, 'bob/bot/r1')} }}"
        message = asyncio.run(first_message(api, token, document))
        assert message["type"] in ("error", "next"), message
        errors = message["payload"] if message["type"] == "error" else (
            message["payload"]["errors"])
        assert [e["extensions"]["code"] for e in errors] == ["FORBIDDEN"], message


async def first_message(api: Api, token: str, document: str) -> dict[str, Any]:
    async with websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"]) as ws:
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"authorization": f"Bearer {token}"}}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": document}}))
        reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return reply
