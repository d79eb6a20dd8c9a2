"""Plain fields read directly (graphmem.schema.execution) give what graphql-core gives.

Each document runs twice on the same Strawberry types: once with the shortcut, once with
Strawberry's own execution context. Data, errors and their paths must be the same, including
where the shortcut hands a value back (a null in a non-null field, a value the scalar
refuses, an object of the wrong type) and where a field is not plain (a resolver).
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

import pytest
import strawberry
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from graphmem.schema import build_schema, execution
from graphmem.schema.execution import LEAF, LeafExecutionContext, mark_leaves
from graphmem.schema.scalars import SCALARS


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@strawberry.interface
class Named:
    name: str


@strawberry.type
class Inner(Named):
    at: datetime | None
    colour: Colour
    count: int


@strawberry.type
class Outer:
    label: str
    inner: Inner
    maybe: Inner | None
    tags: list[str]

    @strawberry.field
    def shout(self) -> str:
        return self.label.upper()


@strawberry.type
class Query:
    @strawberry.field
    def rows(self, kind: str = "good") -> list[Outer]:
        return ROWS[kind]

    @strawberry.field
    def optional_rows(self) -> list[Outer | None]:
        return [ROWS["good"][0], None]

    @strawberry.field
    def one(self) -> Outer:
        return ROWS["good"][0]


def inner(name: str, count: Any = 1, colour: Any = Colour.RED) -> Inner:
    return Inner(name=name, at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), colour=colour,
                 count=count)


def outer(label: Any, sub: Any, maybe: Any = None) -> Outer:
    return Outer(label=label, inner=sub, maybe=maybe, tags=["a", "b"])


ROWS: dict[str, list[Any]] = {
    "good": [outer("one", inner("i1"), inner("m1")), outer("two", inner("i2"))],
    "null_in_non_null": [outer("one", inner("i1")), outer(None, inner("i2"))],
    "refused_scalar": [outer("one", inner("i1", count="not a number"))],
    "wrong_object": [outer("one", "not an Inner")],
    "bad_enum": [outer("one", inner("i1", colour="green"))],
    "null_tag": [Outer(label="one", inner=inner("i1"), maybe=None, tags=["a", None])],
}

DOCUMENTS = [
    "{ rows { label inner { name at colour count } maybe { name } tags } }",
    "{ rows { __typename alias: label inner { __typename n: name } } }",
    "{ rows { label shout inner { name } } }",
    "query($s: Boolean!) { rows { label @skip(if: $s) inner { name @include(if: $s) } } }",
    "{ rows { ...F } } fragment F on Outer { label inner { ... on Inner { count } } }",
    "{ optionalRows { label maybe { name } } }",
    "{ one { label inner { name colour } } }",
    *(f'{{ rows(kind: "{kind}") {{ label tags inner {{ name colour count }} }} }}'
      for kind in ROWS if kind != "good"),
]


def schemas() -> tuple[strawberry.Schema, strawberry.Schema]:
    config = StrawberryConfig(scalar_map=SCALARS)
    fast = strawberry.Schema(query=Query, config=config,
                             execution_context_class=LeafExecutionContext)
    mark_leaves(fast._schema)
    plain = strawberry.Schema(query=Query, config=config,
                              execution_context_class=StrawberryGraphQLCoreExecutionContext)
    return fast, plain


def outcome(schema: strawberry.Schema, document: str) -> tuple[Any, list[tuple[str, Any]]]:
    result = schema.execute_sync(document, variable_values={"s": True})
    errors = sorted((e.message, e.path) for e in result.errors or [])
    return result.data, errors


@pytest.mark.parametrize("document", DOCUMENTS)
def test_plain_reads_give_what_graphql_core_gives(document: str) -> None:
    fast, plain = schemas()
    assert outcome(fast, document) == outcome(plain, document)


def test_the_irregular_cases_do_report_errors() -> None:
    fast, _ = schemas()
    for kind in ("null_in_non_null", "refused_scalar", "wrong_object", "bad_enum", "null_tag"):
        data, errors = outcome(fast, f'{{ rows(kind: "{kind}") {{ label tags inner {{ name'
                                     " colour count } } }")
        assert errors, kind
        assert data is None, kind  # a non-null list item failed: the null reaches the root


def test_graphmem_marks_the_plain_fields_of_its_schema() -> None:
    schema = build_schema()._schema
    fact = schema.type_map["Fact"].fields  # type: ignore[union-attr]
    assert LEAF in fact["value"].extensions and LEAF in fact["recordedAt"].extensions
    assert LEAF not in fact["supersededBy"].extensions  # a resolver
    assert LEAF not in fact["supersedes"].extensions  # a list


def test_a_plain_list_is_built_from_its_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    original = execution._Plan.build

    def counting(self: execution._Plan, source: Any) -> dict[str, Any]:
        built.append(self.type.name)
        return original(self, source)

    monkeypatch.setattr(execution._Plan, "build", counting)
    fast, _ = schemas()
    outcome(fast, DOCUMENTS[0])
    assert built == ["Outer", "Inner", "Inner", "Outer", "Inner"]  # two rows, one `maybe`
    built.clear()
    outcome(fast, DOCUMENTS[2])  # `shout` has a resolver: graphql-core builds the list
    assert built == []
