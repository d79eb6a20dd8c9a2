"""The exported SDL matches the code, the GraphQL enums match the model's, and the imported
schema and resolvers packages are ours (installed inside graphmem, shadowing nothing)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import pytest

from graphmem import model
from graphmem.schema import SDL_PATH, enums, sdl
from graphmem.schema.export import main as export

ROOT = Path(__file__).resolve().parents[3]


def test_the_exported_sdl_matches_the_code() -> None:
    assert SDL_PATH.read_text() == sdl(), (
        "schema/schema.graphql drifted from the code: run `python -m graphmem.schema.export`")
    assert export(["--check"]) == 0


@pytest.mark.parametrize("ours,theirs", [
    (enums.Action, model.Action), (enums.Status, model.Status), (enums.Kind, model.Kind),
    (enums.TimeRef, model.TimeRef), (enums.ConflictKind, model.ConflictKind),
    (enums.ConflictStatus, model.ConflictStatus), (enums.PolicyMode, model.PolicyMode),
])
def test_graphql_enums_mirror_the_model(ours: type[Enum], theirs: type[Enum]) -> None:
    assert {m.name: m.value for m in ours} == {m.name: m.value for m in theirs}


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
