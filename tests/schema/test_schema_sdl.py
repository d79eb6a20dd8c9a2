"""The exported SDL matches the code, the GraphQL enums match the model's, and the imported
schema and resolvers packages are ours (installed inside graphmem, shadowing nothing)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import pytest
from strawberry.types.enum import has_enum_definition

from graphmem import model
from graphmem.schema import SDL_PATH, enums, sdl
from graphmem.schema.export import main as export

ROOT = Path(__file__).resolve().parents[2]


def test_the_exported_sdl_matches_the_code() -> None:
    assert SDL_PATH.read_text() == sdl(), (
        "schema/schema.graphql drifted from the code: run `python -m graphmem.schema.export`")
    assert export(["--check"]) == 0


@pytest.mark.parametrize("enum", [
    model.Action, model.Status, model.Kind, model.TimeRef, model.ConflictKind,
    model.ConflictStatus, model.PolicyMode, model.Cardinality,
])
def test_graphql_enums_are_the_models_own(enum: type[Enum]) -> None:
    """Declared once: the schema exports the model's enum classes themselves, registered with
    Strawberry, not copies that could drift."""
    assert getattr(enums, enum.__name__) is enum
    assert has_enum_definition(enum)


def test_schema_and_resolvers_are_ours() -> None:
    import graphmem.resolvers
    import graphmem.schema

    assert Path(graphmem.schema.__file__).parent == ROOT / "schema"
    assert Path(graphmem.resolvers.__file__).parent == ROOT / "resolvers"


def test_the_sdl_has_the_root_operations() -> None:
    text = sdl()
    for name in ("facts(", "rememberFacts(", "factChanged(", "conflictOpened(", "scalar DateTime",
                 "enum Action", "enum Status", "enum Kind", "type PageInfo"):
        assert name in text
