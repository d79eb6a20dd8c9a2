"""A fuzz run against the running server: operations generated from the SDL by
hypothesis-graphql (valid queries and mutations, ones with a schema violation, and valid
subscriptions over the WebSocket transport): about five valid operations per root field and
as many invalid ones, and six subscriptions per subscription field.

It fails on any `INTERNAL` error, on any ERROR line of the `graphmem.api.errors` log (where
a masked failure's detail goes), on a 5xx, on a response whose `data` does not have the shape
its selection asks for, on a refusal a valid operation cannot earn (anything but bad input,
not found, forbidden or already settled), and unless most valid operations answer 200 with
data. A subscription that is admitted must deliver the event a write after it provokes.

The seed changes per run: `GRAPHMEM_FUZZ_SEED` replays one (every failure prints it).
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import graphql
import pytest
from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    ListValueNode,
    NamedTypeNode,
    NameNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    StringValueNode,
    ValueNode,
    VariableDefinitionNode,
    VariableNode,
)
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis_graphql import Mode, from_schema, nodes

from graphmem.schema import SDL_PATH

from support import loopback
from support.api_support import Api, new_tenant
from support.live_events import FIELDS, Socket, cursor, errors_of, provoke
from support.seeded import Seeded, seed_space
from support.shapes import shape_problems

VALID_PER_ROOT = 5  # valid and invalid operations are drawn half and half
SUBSCRIPTIONS_PER_FIELD = 6
# the share of valid operations that must answer 200 with data and no error
MOST = 0.6
# what a valid operation may be refused with: its input names nothing that exists, or a
# space of another tenant, or something settled already
REFUSALS = {"BAD_USER_INPUT", "NOT_FOUND", "FORBIDDEN", "ALREADY_SETTLED"}
SCALARS = {
    "DateTime": st.sampled_from(["2026-01-01T00:00:00+00:00", "1999-12-31T23:59:59Z",
                                 "2026-01-01", "not a time", ""]).map(nodes.String),
    "JSON": st.just(graphql.ObjectValueNode(fields=())),
}
ERRORS_LOG = "graphmem.api.errors"
# how often a valid operation is aimed at what the tenant holds: its space and id arguments
# name real objects, its required free-text arguments get sensible values and its optional
# arguments are left out (the rest keep what hypothesis-graphql made of them)
AIMED = 0.85
Draw = Callable[[st.SearchStrategy[Any]], Any]
# erasures run in a space of their own, so the seeded ones stay for the other operations
DESTRUCTIVE = {"delete", "deleteAll", "purge", "eraseUser", "eraseTenant"}
SCRATCH_USER = "scratch"
SENSIBLE: dict[str, Any] = {
    "text": "we moved to Zustand", "question": "which state library do we use?",
    "subject": "state", "subjects": ["state"], "type": "person", "name": "Ann",
    "action": "deploy", "attribute": "knows", "query": "an", "user": SCRATCH_USER,
    "data": "subject,value,time\nplan,Pro,2024-01-01\n", "days": 30, "retentionDays": 30,
}


def literal(value: Any) -> ValueNode:
    if isinstance(value, list):
        return ListValueNode(values=tuple(literal(v) for v in value))
    if isinstance(value, int):
        return graphql.IntValueNode(value=str(value))
    return StringValueNode(value=value)


class Pool:
    """What the fuzzed tenant holds, for arguments that name it."""

    def __init__(self, schema: graphql.GraphQLSchema, tenant: str,
                 seeded: list[Seeded]) -> None:
        self.schema = schema
        self.spaces = sorted({s.space for s in seeded} | {s.space.split("/", 1)[1]
                                                           for s in seeded})
        self.scratch = [SCRATCH_USER, f"{tenant}/{SCRATCH_USER}/a/r"]
        self.facts = [i for s in seeded for i in (*s.fact_ids, s.fact_gid)]
        self.pending = [s.pending for s in seeded]
        self.conflicts = [i for s in seeded for i in (s.conflict, s.pending_conflict)]
        self.globals = [i for s in seeded for i in s.global_ids]
        self.receipts = [s.receipt for s in seeded]

    def ids(self, field: str, argument: str) -> list[str] | None:
        """The ids an argument of a root field takes (None: not an id argument)."""
        if argument == "space":
            return self.scratch if field in DESTRUCTIVE else self.spaces
        if field in ("node", "nodes"):
            return self.globals
        if field == "receipt":
            return self.receipts
        if field in ("confirmChange", "rejectChange"):
            return self.pending
        if argument == "conflictId":
            return self.conflicts
        if argument in ("id", "factId", "winner"):
            return self.facts
        return None

    def argument(self, field: str, name: str) -> graphql.GraphQLArgument:
        for root in (self.schema.query_type, self.schema.mutation_type,
                     self.schema.subscription_type):
            if root is not None and field in root.fields:
                return root.fields[field].args[name]
        raise AssertionError(f"no root field {field}")


def _aimed(pool: Pool, field: str, argument: ArgumentNode, draw: Draw) -> ArgumentNode | None:
    """The argument pointed at the tenant's objects or given a sensible value; None: left
    out (it is optional)."""
    name = argument.name.value
    choices = pool.ids(field, name)
    if choices:
        if isinstance(argument.value, ListValueNode):
            picked = draw(st.lists(st.sampled_from(choices), min_size=1, max_size=3))
            return ArgumentNode(name=argument.name, value=literal(picked))
        return ArgumentNode(name=argument.name, value=literal(draw(st.sampled_from(choices))))
    declared = pool.argument(field, name)
    if not graphql.is_required_argument(declared):
        return None
    if name in SENSIBLE:
        return ArgumentNode(name=argument.name, value=literal(SENSIBLE[name]))
    return argument


def aim(document: DocumentNode, pool: Pool, draw: Draw) -> DocumentNode:
    """Most of the time, the generated operation aimed at what the tenant holds (`_aimed`),
    so that a valid operation can succeed; else as generated."""
    if draw(st.floats(0, 1)) >= AIMED:
        return document
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    fields = []
    for selection in operation.selection_set.selections:
        if not isinstance(selection, FieldNode):
            fields.append(selection)
            continue
        name = selection.name.value
        arguments = [a for a in (_aimed(pool, name, x, draw) for x in selection.arguments)
                     if a is not None]
        fields.append(FieldNode(alias=selection.alias, name=selection.name,
                                arguments=tuple(arguments), directives=selection.directives,
                                selection_set=selection.selection_set))
    rebuilt = OperationDefinitionNode(operation=operation.operation, name=operation.name,
                                      directives=operation.directives,
                                      variable_definitions=operation.variable_definitions,
                                      selection_set=SelectionSetNode(selections=tuple(fields)))
    return DocumentNode(definitions=(rebuilt,))


def fuzz_seed() -> int:
    """GRAPHMEM_FUZZ_SEED when set (a replay), else a fresh one."""
    given_seed = os.environ.get("GRAPHMEM_FUZZ_SEED", "").strip()
    return int(given_seed) if given_seed else int.from_bytes(os.urandom(4), "big")


def subscription_schema(schema: graphql.GraphQLSchema) -> graphql.GraphQLSchema:
    """The Subscription type as a query root, so hypothesis-graphql (which builds queries and
    mutations) generates its selections; `as_subscription` turns them back."""
    assert schema.subscription_type is not None
    types = [t for name, t in schema.type_map.items() if not name.startswith("__")]
    return graphql.GraphQLSchema(query=schema.subscription_type, types=types)


def as_subscription(document: DocumentNode) -> tuple[str, str, str] | None:
    """(subscription document, field, space) from a generated one: its first root field
    alone (a subscription has one), its `after` replaced by the variable `$after`."""
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    first = next((s for s in operation.selection_set.selections if isinstance(s, FieldNode)),
                 None)
    if first is None:
        return None
    space = next(a.value for a in first.arguments if a.name.value == "space")
    assert isinstance(space, StringValueNode)
    after = ArgumentNode(name=NameNode(value="after"), value=VariableNode(
        name=NameNode(value="after")))
    field = FieldNode(alias=first.alias, name=first.name, directives=first.directives,
                      selection_set=first.selection_set,
                      arguments=(*[a for a in first.arguments if a.name.value != "after"],
                                 after))
    declared = VariableDefinitionNode(variable=VariableNode(name=NameNode(value="after")),
                                      type=NamedTypeNode(name=NameNode(value="String")),
                                      directives=())
    rebuilt = OperationDefinitionNode(operation=OperationType.SUBSCRIPTION, directives=(),
                                      variable_definitions=(declared,),
                                      selection_set=SelectionSetNode(selections=(field,)))
    text = graphql.print_ast(DocumentNode(definitions=(rebuilt,)))
    return text, first.name.value, space.value


class Tally:
    """What the run saw: problems, outcomes of valid operations, the server's error log."""

    def __init__(self, run_seed: int, caplog: pytest.LogCaptureFixture) -> None:
        self.seed = run_seed
        self.caplog = caplog
        self.logged = 0
        self.problems: list[str] = []
        self.sent = 0
        self.valid = Counter[str]()

    def logged_errors(self, what: str) -> None:
        """An ERROR line of the errors log since the last look is a problem of `what`."""
        records = [r for r in self.caplog.records
                   if r.name == ERRORS_LOG and r.levelno >= logging.ERROR]
        for record in records[self.logged:]:
            self.problems.append(f"{ERRORS_LOG} logged {record.getMessage()[:300]!r}"
                                 f" for {what}")
        self.logged = len(records)

    def coded(self, errors: list[dict[str, Any]], what: str, allowed: set[str]) -> list[str]:
        found = [str(e.get("extensions", {}).get("code")) for e in errors]
        for code, error in zip(found, errors, strict=True):
            if code not in allowed:
                self.problems.append(f"{code} for {what}: {error}")
        return found

    def report(self) -> str:
        return (f"replay with GRAPHMEM_FUZZ_SEED={self.seed}; {self.sent} operations; valid"
                f" ones: {dict(self.valid)}; problems ({len(self.problems)}):\n"
                + "\n".join(self.problems[:8]))


def root_fields(schema: graphql.GraphQLSchema) -> list[str]:
    return sorted({*schema.query_type.fields, *(schema.mutation_type or schema.query_type)
                   .fields} if schema.query_type else ())


def http_operations(schema: graphql.GraphQLSchema) -> int:
    return 2 * VALID_PER_ROOT * len(root_fields(schema))


def subscriptions(schema: graphql.GraphQLSchema) -> int:
    return SUBSCRIPTIONS_PER_FIELD * len(FIELDS)


def _http(api: Api, token: str, tally: Tally, schema: graphql.GraphQLSchema,
          run_seed: int, pool: Pool, examples: int | None = None) -> None:
    sdl = SDL_PATH.read_text()
    roots = root_fields(schema)
    examples = examples or http_operations(schema)
    one_field = st.sampled_from(roots).flatmap(lambda name: from_schema(
        sdl, fields=[name], custom_scalars=SCALARS, print_ast=lambda document: document))
    operations = st.one_of(
        st.tuples(st.just(True), one_field),
        st.tuples(st.just(False), from_schema(sdl, custom_scalars=SCALARS,
                                              mode=Mode.NEGATIVE)))

    with loopback.client(base_url=api.base, timeout=60,
                         headers={"Authorization": f"Bearer {token}"}) as client:

        @seed(run_seed)
        @settings(max_examples=examples, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(operations, st.data())
        def send(operation: tuple[bool, Any], data_: st.DataObject) -> None:
            valid, generated = operation
            query = graphql.print_ast(aim(generated, pool, data_.draw)) if valid else generated
            response = client.post("/graphql", json={"query": query})
            tally.sent += 1
            what = f"{'valid' if valid else 'invalid'} {query!r}"
            tally.logged_errors(what)
            if response.status_code >= 500:
                tally.problems.append(f"{response.status_code} for {what}: {response.text[:300]}")
                return
            body = response.json()
            errors = body.get("errors") or []
            data = body.get("data")
            if not valid:
                tally.coded(errors, what, {"BAD_USER_INPUT"})
                if not errors or data is not None:
                    tally.problems.append(f"accepted {what}: {str(body)[:300]}")
                return
            if response.status_code != 200:
                tally.problems.append(f"{response.status_code} for {what}: {response.text[:300]}")
                return
            codes = tally.coded(errors, what, REFUSALS)
            if data is not None:
                tally.problems += [f"{p} in {what}" for p in shape_problems(schema, query, data)]
            tally.valid["data" if data is not None and not errors else
                        "+".join(sorted(set(codes))) or "no data, no error"] += 1

        send()


def _subscriptions(api: Api, token: str, tally: Tally, schema: graphql.GraphQLSchema,
                   run_seed: int, pool: Pool) -> None:
    roots = subscription_schema(schema)
    generated = st.sampled_from(FIELDS).flatmap(lambda name: from_schema(
        roots, fields=[name], custom_scalars=SCALARS, print_ast=lambda document: document))
    numbered = iter(range(1_000_000))

    with Socket(api, token) as socket:

        @seed(run_seed + 1)
        @settings(max_examples=subscriptions(schema), deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(generated, st.data())
        def send(generated_document: DocumentNode, data_: st.DataObject) -> None:
            subscription = as_subscription(aim(generated_document, pool, data_.draw))
            assert subscription is not None, graphql.print_ast(generated_document)
            document, field, space = subscription
            ident = f"s{next(numbered)}"
            what = f"subscription {document!r} on {space!r}"
            tally.sent += 1
            start = cursor(api, token, space)
            tally.logged_errors(what)
            after = {"after": (start.get("data") or {}).get("changeCursor")}
            socket.subscribe(ident, document, after)
            if "errors" in start:  # the space is refused: so must the subscription be
                reply = socket.first(ident)
                expected = {str(e["extensions"]["code"]) for e in start["errors"]}
                if reply is None or reply["type"] == "complete":
                    tally.problems.append(f"no refusal for {what}: {reply}")
                else:
                    tally.coded(errors_of(reply), what, expected)
                tally.valid["+".join(sorted(expected))] += 1
                return
            provoke(api, token, field, space, ident)
            reply = socket.first(ident)
            tally.logged_errors(what)
            socket.complete(ident)
            if reply is None or reply["type"] != "next" or errors_of(reply):
                # read the log again from the same cursor: tells a live delivery that was
                # missed from an event that was never logged
                socket.subscribe(f"{ident}-again", document, after)
                again = socket.first(f"{ident}-again", timeout=10)
                socket.complete(f"{ident}-again")
                tally.problems.append(f"no event for {what} after {after}: {reply}; the same"
                                      f" subscription made again: {again}")
                return
            data = reply["payload"].get("data")
            tally.problems += [f"{p} in {what}" for p in shape_problems(schema, document, data)]
            tally.valid["event"] += 1

        send()


@pytest.mark.slow
def test_fuzzed_operations_succeed_or_are_refused_for_a_reason(
        scripted_api: Api, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger=ERRORS_LOG)
    run_seed = fuzz_seed()
    tally = Tally(run_seed, caplog)
    schema = graphql.build_schema(SDL_PATH.read_text())
    tenant = new_tenant()
    token = scripted_api.key("admin", tenant)
    pool = Pool(schema, tenant, [seed_space(scripted_api, token, space)
                                 for space in ("fuzz/a/r", "fuzz")])
    try:
        _http(scripted_api, token, tally, schema, run_seed, pool)
        _subscriptions(scripted_api, token, tally, schema, run_seed, pool)
    except BaseException as e:
        e.add_note(tally.report())
        raise
    print(tally.report())
    assert tally.sent >= http_operations(schema) + subscriptions(schema), tally.report()
    assert tally.problems == [], tally.report()
    valid = sum(tally.valid.values())
    succeeded = tally.valid["data"] + tally.valid["event"]
    assert succeeded >= MOST * valid, tally.report()


def test_the_fuzz_fails_against_a_server_that_cannot_answer(
        serve_api: Callable[..., Api], caplog: pytest.LogCaptureFixture) -> None:
    """The same checks against a server whose database does not exist: every valid read is
    an INTERNAL error with a logged detail, and the run must say so."""
    caplog.set_level(logging.ERROR, logger=ERRORS_LOG)
    broken = serve_api(neo4j_database="nosuchdatabase")
    tenant = new_tenant()
    schema = graphql.build_schema(SDL_PATH.read_text())
    tally = Tally(fuzz_seed(), caplog)
    _http(broken, broken.key("admin", tenant), tally, schema, tally.seed,
          Pool(schema, tenant, []), examples=60)
    assert any(p.startswith("INTERNAL for valid") for p in tally.problems), tally.report()
    assert any(p.startswith(f"{ERRORS_LOG} logged") for p in tally.problems), tally.report()
    assert tally.valid["data"] < MOST * sum(tally.valid.values()), tally.report()


def test_the_seed_is_taken_from_the_environment_or_made_fresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_FUZZ_SEED", "12345")
    assert fuzz_seed() == 12345
    monkeypatch.delenv("GRAPHMEM_FUZZ_SEED")
    assert len({fuzz_seed() for _ in range(8)}) > 1


def test_generated_subscriptions_have_one_field_and_resume_after_a_variable() -> None:
    schema = graphql.build_schema(SDL_PATH.read_text())
    generated = graphql.parse('{ a: factChanged(space: "u", after: "x") { cursor }'
                              ' conflictOpened(space: "v") { cursor } }')
    made = as_subscription(generated)
    assert made is not None
    document, field, space = made
    assert (field, space) == ("factChanged", "u")
    assert re.sub(r"\s+", " ", document) == (
        'subscription ($after: String) { a: factChanged(space: "u", after: $after)'
        " { cursor } }")
    assert graphql.validate(schema, graphql.parse(document)) == []


def test_the_shape_check_finds_missing_extra_and_null_fields() -> None:
    schema = graphql.build_schema(SDL_PATH.read_text())
    query = ('{ a: facts(space: "u") { totalCount nodes { factId supersedes } }'
             ' node(id: "x") { id ... on Fact { value } } }')
    good = {"a": {"totalCount": 1, "nodes": [{"factId": "f1", "supersedes": []}]},
            "node": {"id": "g", "value": "v"}}
    assert shape_problems(schema, query, good) == []
    assert shape_problems(schema, query, {**good, "node": None}) == []
    assert shape_problems(schema, query, {"a": {"totalCount": 1, "nodes": [{"factId": "f"}]},
                                          "node": None}) == ["data.a.nodes[0]: missing"
                                                             " 'supersedes'"]
    assert shape_problems(schema, query, {**good, "extra": 1}) == [
        "data: unexpected key 'extra'"]
    assert shape_problems(schema, query, {"a": None, "node": None}) == [
        "data.a: null for non-null FactConnection!"]
    assert shape_problems(schema, query, {**good, "a": {"totalCount": 1, "nodes": {}}}) == [
        "data.a.nodes: dict for a list"]
