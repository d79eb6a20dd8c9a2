"""Schemathesis, a fuzzer nobody here wrote, against a live server's `/graphql`.

It loads the schema by introspection and generates documents for every root operation, with
a fuzz dictionary of what a fixture wrote (the tenant's spaces, fact, conflict and pending
ids, global ids, a receipt, entity keys), so that each operation is reached with arguments
that name real things and answers with data, not only on its error paths; the `JSON` and
`DateTime` scalars get strategies of their own. NOT_FOUND, FORBIDDEN or BAD_USER_INPUT with
`data: null` are correct answers; what fails the test is a 5xx, an `INTERNAL` error, a
response that is not GraphQL, or an operation that never once answered with data.

GRAPHMEM_SCHEMATHESIS_EXAMPLES sets the examples per operation (`make fuzz` runs many more)."""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import graphql
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.graphql.loaders import get_introspection_query

from support import loopback
from support.api_support import Api, new_tenant
from support.seeded import Seeded, seed_space

EXAMPLES = int(os.environ.get("GRAPHMEM_SCHEMATHESIS_EXAMPLES", "90"))
# an operation whose data needs what a run must not do (erase the tenant it fuzzes):
# reached, answered, not with data
WITHOUT_DATA = {"eraseTenant"}
# Arguments that exclude another (`first` or `last`, `validAt` or `validDuring`, a fact id or
# a subject): the generator fills in optional arguments freely, so a field taking both is
# mostly refused for it (correctly). Half the examples are drawn from a view of the schema
# without these, so that the other one is answered too.
EXCLUSIVE = {"last", "before", "validDuring"}
EXCLUSIVE_OF_FIELD = {"delete": {"factId"}}
UNDOABLE = ("mutation($s: String!) { rememberFacts(space: $s, facts: [{subject: \"undo-me\","
            " value: \"1\"}]) { eventId } }")

schemathesis.graphql.scalar("DateTime", st.sampled_from(
    ["2026-01-01T00:00:00+00:00", "1999-12-31T23:59:59Z"]).map(
        lambda v: graphql.StringValueNode(value=v)))


def _config(seeded: list[Seeded], tenant: str, events: list[str]) -> SchemathesisConfig:
    """The fuzz dictionary: what each argument that names something may name. What erases
    goes to a scratch space and user of its own, so the seeded ones stay for the rest."""
    spaces = sorted({s.space for s in seeded} | {s.space.split("/", 1)[1] for s in seeded})
    dictionaries: dict[str, list[Any]] = {
        "spaces": spaces, "scratch": [f"{tenant}/scratch/a/r", "scratch"],
        "users": ["scratch"],
        "facts": [i for s in seeded for i in (s.fact, s.relation_fact, *s.conflict_facts)],
        "conflicts": [s.conflict for s in seeded], "first": [seeded[0].conflict],
        "claims": seeded[0].conflict_facts,
        "confirm": [seeded[0].pending], "reject": [s.pending for s in seeded[1:]],
        "events": events, "modes": ["auto"], "formats": ["auto"],
        "csv": ["subject,value,time\nplan,Pro,2024-01-01\n"],
        "questions": ["who does Ann know?"],
        "globals": [i for s in seeded for i in s.global_ids],
        "receipts": [s.receipt for s in seeded],
        "subjects": ["state", "db-seed"], "types": ["person"], "names": ["Ann", "Bob"],
        "relations": ["knows"], "pages": [1, 5, 20], "hops": [1, 2, 3], "days": [30, 365],
    }
    bindings = {
        "*.*.space": "spaces", "Mutation.delete.space": "scratch",
        "Mutation.deleteAll.space": "scratch", "Mutation.purge.space": "scratch",
        "Mutation.eraseUser.user": "users",
        "*.*.factId": "facts", "*.*.id": "facts", "*.*.winner": "facts",
        "*.*.conflictId": "conflicts", "Mutation.resolveConflict.conflictId": "first",
        "Mutation.resolveConflict.winner": "claims", "Mutation.confirmChange.factId": "confirm",
        "Mutation.rejectChange.factId": "reject", "*.*.eventId": "events",
        "Mutation.importMemory.mode": "modes", "Mutation.importMemory.format": "formats",
        "Mutation.importMemory.data": "csv", "Query.recallRelated.question": "questions",
        "Query.node.id": "globals",
        "Query.nodes.ids.[*]": "globals", "Query.receipt.id": "receipts",
        "*.*.subject": "subjects", "*.*.subjects.[*]": "subjects", "*.*.type": "types",
        "*.*.name": "names", "*.*.attribute": "relations", "*.*.first": "pages",
        "*.*.last": "pages", "*.*.limit": "pages", "*.*.hops": "hops", "*.*.days": "days",
        "*.*.retentionDays": "days",
    }
    return SchemathesisConfig.from_dict({
        "dictionaries": {name: {"values": values} for name, values in dictionaries.items()},
        "parameters": {key: {"dictionary": name, "probability": 0.9}
                       for key, name in bindings.items()},
    })


@dataclass
class Tally:
    sent: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # the last refusal, by operation


def literal(value: Any) -> graphql.ValueNode:
    """A JSON value as a GraphQL literal (what the `JSON` scalar takes inline)."""
    if isinstance(value, dict):
        return graphql.ObjectValueNode(fields=tuple(
            graphql.ObjectFieldNode(name=graphql.NameNode(value=k), value=literal(v))
            for k, v in value.items()))
    if isinstance(value, list):
        return graphql.ListValueNode(values=tuple(literal(v) for v in value))
    if isinstance(value, bool):
        return graphql.BooleanValueNode(value=value)
    if isinstance(value, int):
        return graphql.IntValueNode(value=str(value))
    if isinstance(value, float):
        return graphql.FloatValueNode(value=repr(value))
    if value is None:
        return graphql.NullValueNode()
    return graphql.StringValueNode(value=str(value))


def _operations(introspection: dict[str, Any], config: SchemathesisConfig, base: str
                ) -> list[Any]:
    schema = schemathesis.graphql.from_dict(introspection, config=config)
    schema.location = f"{base}/graphql"
    return [result.ok() for result in schema.get_all_operations()]


def _one_of_each(introspection: dict[str, Any]) -> dict[str, Any]:
    """The schema without the arguments that exclude another (see EXCLUSIVE)."""
    view = copy.deepcopy(introspection)
    for kind in view["__schema"]["types"]:
        for found in kind.get("fields") or []:
            dropped = EXCLUSIVE | EXCLUSIVE_OF_FIELD.get(found["name"], set())
            found["args"] = [a for a in found["args"] if a["name"] not in dropped]
    return view


def _fuzz(operation: Any, headers: dict[str, str], tally: Tally, examples: int) -> None:
    """`examples` generated calls of one operation, each judged."""
    name = operation.label.split(".", 1)[1]

    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def send(case: Any) -> None:
        response = case.call(headers=headers, timeout=60)
        tally.sent[name] += 1
        what = f"{operation.label}: {str(case.body)[:300]!r}"
        if response.status_code >= 500:
            tally.problems.append(f"{response.status_code} for {what}")
            return
        try:
            body = response.json()
        except json.JSONDecodeError:
            tally.problems.append(f"not JSON for {what}: {response.text[:200]}")
            return
        codes = {e.get("extensions", {}).get("code") for e in body.get("errors") or []}
        if "INTERNAL" in codes or None in codes:
            tally.problems.append(f"{codes} for {what}: {str(body)[:300]}")
        if (body.get("data") or {}).get(name) is not None and not body.get("errors"):
            tally.answered[name] += 1
        elif body.get("errors"):
            tally.refused[name] = f"{body['errors'][0].get('message', '')[:160]}"

    send()


SHARDS = 2  # one process fuzzes on one core; the shards run side by side on the workers


def _name(operation: Any) -> str:
    """The root field an operation calls (its label is `Query.facts`, `Mutation.forget`…)."""
    return str(operation.label.split(".", 1)[1])


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_schemathesis_finds_no_internal_error_and_every_operation_answers(
        scripted_api: Api, shard: int) -> None:
    """Each shard fuzzes every SHARDS-th operation by name, against a tenant of its own."""
    api = scripted_api
    tenant = new_tenant()
    token = api.key("admin", tenant)
    seeded = [seed_space(api, token, space) for space in ("fuzz/a/r", "fuzz")]
    events = [api.ok(token, UNDOABLE, {"s": s.space})["rememberFacts"][0]["eventId"]
              for s in seeded]  # for undoEvent
    headers = {"Authorization": f"Bearer {token}"}
    # the JSON scalar: an empty object, or a receipt this deployment signed (verifyReceipt)
    schemathesis.graphql.scalar("JSON", st.sampled_from(
        [{}, seeded[0].receipt_document, {"not": "a receipt"}]).map(literal))
    introspection = loopback.post(f"{api.base}/graphql", headers=headers, timeout=60, json={
        "query": get_introspection_query()}).json()["data"]
    config = _config(seeded, tenant, events)
    operations = [*_operations(introspection, config, api.base),
                  *_operations(_one_of_each(introspection), config, api.base)]
    assert len(operations) >= 100, [o.label for o in operations]
    # both views of an operation go to the same shard
    mine = set(sorted({_name(o) for o in operations})[shard::SHARDS])
    operations = [o for o in operations if _name(o) in mine]
    tally = Tally()
    for operation in operations:
        _fuzz(operation, headers, tally, EXAMPLES // 2)
    assert tally.problems == [], "\n".join(tally.problems[:20])
    assert sum(tally.sent.values()) >= EXAMPLES * len(operations) // 4, tally.sent
    names = [_name(o) for o in operations]
    silent = sorted({n for n in names if not tally.answered[n]})
    assert set(silent) <= WITHOUT_DATA, "never answered with data:\n" + "\n".join(
        f"{n}: {tally.refused.get(n)}" for n in silent)
