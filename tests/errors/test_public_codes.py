"""Every error class reports one public code on every transport: GraphQL and MCP read the
class's own `code` and `shown`, so a new class cannot drift between them."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from graphql import GraphQLError

import graphmem
from graphmem import errors
from graphmem.errors import GraphMemError
from graphmem.mcp import errors as mcp_errors
from graphmem.schema.errors import classify


def every_error_class() -> list[type[GraphMemError]]:
    for module in pkgutil.walk_packages(graphmem.__path__, "graphmem."):
        importlib.import_module(module.name)
    found: list[type[GraphMemError]] = []
    todo: list[type[GraphMemError]] = [GraphMemError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(found), key=lambda c: f"{c.__module__}.{c.__qualname__}")


def instance(cls: type[GraphMemError]) -> GraphMemError:
    try:
        return cls("a message")
    except TypeError:  # a class whose constructor takes more than the message
        return cls.__new__(cls)


def test_the_walk_finds_the_classes_of_every_layer() -> None:
    names = {c.__name__ for c in every_error_class()}
    assert {"Unauthenticated", "AlreadySettled", "EmbedderUnavailable", "TamperedExport",
            "ConcurrentImport", "DecryptionFailed"} <= names


@pytest.mark.parametrize("cls", every_error_class(), ids=lambda c: c.__qualname__)
def test_graphql_and_mcp_report_the_same_code(cls: type[GraphMemError]) -> None:
    error = instance(cls)
    graphql_code, graphql_shown = classify(GraphQLError("x", path=["f"], original_error=error))
    assert graphql_code == mcp_errors.outcome(error) == cls.code
    assert graphql_shown == cls.shown


def test_a_lost_race_is_already_settled_on_both() -> None:
    error = errors.AlreadySettled("conflict c1 was resolved by ann")
    assert classify(GraphQLError("x", path=["f"], original_error=error))[0] == "ALREADY_SETTLED"
    assert mcp_errors.outcome(error) == "ALREADY_SETTLED"
    assert mcp_errors.message(error, "resolve_conflict") == "conflict c1 was resolved by ann"


def test_an_exception_of_no_class_of_ours_is_internal_and_masked() -> None:
    assert errors.public(KeyError("secret")) == ("INTERNAL", False)
    assert "secret" not in mcp_errors.message(KeyError("secret"), "history")
