"""Every number a client sends is bounded at the edge: a value out of its range is a clear
BAD_USER_INPUT naming the argument, never an INTERNAL error from deeper down (a timedelta
that overflows, a Neo4j integer out of range, a page of two billion rows).

The test walks the schema: every Int and Float argument of every root field, and of every
input object a root field takes, gets values at the ends of what GraphQL can carry, each in
its own call with the field's other arguments filled in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import graphql
import pytest

from graphmem.schema import SDL_PATH

from support.api_support import Api, codes
from support.isolation import tenant as new_tenant
from support.nested import set_at

SCHEMA = graphql.build_schema(SDL_PATH.read_text())
INT_MAX = 2**31 - 1
# the ends of what GraphQL carries: Int is 32-bit; Float any finite double
EXTREMES = {"Int": (INT_MAX, -INT_MAX - 1, 0, -1), "Float": (1e300, -1e300, 2.3e16, -1.0, 0.0)}
# arguments where a value at GraphQL's own end still means something (so it may be answered)
MEANINGFUL_AT_THE_END = {"Query.auditLog.before",  # rows before a sequence number
                         "Mutation.setReconcilePolicy.authority.rank"}  # an order


@dataclass(frozen=True)
class Case:
    """One number in one call: the field, the argument's path, the value."""

    field: str
    path: str
    kind: str
    value: float

    def __str__(self) -> str:
        return f"{self.field}:{self.path}={self.value:g}"


def _named(kind: graphql.GraphQLType) -> graphql.GraphQLNamedType:
    return graphql.get_named_type(kind)  # type: ignore[return-value]


SCALAR_FILLERS: dict[str, Any] = {"Int": 1, "Float": 0.5, "Boolean": False, "JSON": {},
                                   "DateTime": "2026-01-01T00:00:00Z"}
# input fields filled although optional: a fact needs what it is about
NAMED_FILLERS = {"space": "u", "subject": "state", "value": "Redux"}


def _filler(kind: graphql.GraphQLType, name: str) -> Any:
    """A value for an argument or input field that is not the one under test."""
    named = _named(kind)
    listed = isinstance(graphql.get_nullable_type(kind), graphql.GraphQLList)
    value: Any
    if isinstance(named, graphql.GraphQLEnumType):
        value = next(iter(named.values))
    elif isinstance(named, graphql.GraphQLInputObjectType):
        value = {n: _filler(f.type, n) for n, f in named.fields.items()
                 if graphql.is_required_input_field(f) or n in NAMED_FILLERS}
    else:
        value = NAMED_FILLERS.get(name, SCALAR_FILLERS.get(named.name, "x"))
    return [value] if listed else value


def _numbers(kind: graphql.GraphQLType, path: str) -> Iterator[tuple[str, str]]:
    """(path, Int|Float) of every number an argument of this type can hold."""
    named = _named(kind)
    if named.name in EXTREMES:
        yield path, named.name
    elif isinstance(named, graphql.GraphQLInputObjectType):
        for name, field in named.fields.items():
            yield from _numbers(field.type, f"{path}.{name}")


def cases() -> list[Case]:
    found: list[Case] = []
    for root in (SCHEMA.query_type, SCHEMA.mutation_type):
        assert root is not None
        for field_name, field in root.fields.items():
            for arg_name, arg in field.args.items():
                for path, kind in _numbers(arg.type, arg_name):
                    found += [Case(f"{root.name}.{field_name}", path, kind, v)
                              for v in EXTREMES[kind]]
    return found


def document(case: Case) -> tuple[str, dict[str, Any]]:
    """The call: every argument a variable, the one under test set to the number."""
    root_name, field_name = case.field.split(".")
    root = SCHEMA.get_type(root_name)
    assert isinstance(root, graphql.GraphQLObjectType)
    field = root.fields[field_name]
    head, *rest = case.path.split(".")
    variables: dict[str, Any] = {}
    for name, arg in field.args.items():
        if name == head:
            base = _filler(arg.type, name) if rest else None
            variables[name] = set_at(base, rest, case.value)
        elif graphql.is_required_argument(arg):
            variables[name] = _filler(arg.type, name)
    declared = ", ".join(f"${n}: {field.args[n].type}" for n in variables)
    passed = ", ".join(f"{n}: ${n}" for n in variables)
    selection = "" if graphql.is_leaf_type(_named(field.type)) else " { __typename }"
    operation = "query" if root_name == "Query" else "mutation"
    return (f"{operation}({declared}) {{ {field_name}({passed}){selection} }}"
            if declared else f"{operation} {{ {field_name}{selection} }}"), variables


CASES = cases()


def test_the_walk_finds_the_schemas_numbers() -> None:
    paths = {(c.field, c.path) for c in CASES}
    assert ("Query.checkBeforeAct", "maxAgeSeconds") in paths
    assert ("Mutation.rememberFacts", "facts.confidence") in paths
    assert len(paths) >= 30


@pytest.fixture(scope="module")
def admin(serve_api: Any) -> tuple[Api, str]:
    api: Api = serve_api()
    return api, api.key("admin", new_tenant())


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_number_out_of_its_range_is_a_clear_bad_user_input(
        admin: tuple[Api, str], case: Case) -> None:
    api, token = admin
    query, variables = document(case)
    body = api.gql(token, query, variables)
    found = codes(body)
    assert "INTERNAL" not in found, body
    at_the_end = abs(case.value) >= 2.3e16 or abs(case.value) >= INT_MAX
    if at_the_end and f"{case.field}.{case.path}" not in MEANINGFUL_AT_THE_END:
        assert found == ["BAD_USER_INPUT"] and body.get("data") is None, body
        said = str(int(case.value)) if case.kind == "Int" else f"{case.value:g}"
        message = body["errors"][0]["message"]
        assert said in message or message.startswith("query cost exceeds the budget"), body
