"""The recall statements take exactly the parameters their callers pass (no database)."""

from __future__ import annotations

import pytest

from graphmem.graph.statements import parameters, query
from graphmem.recall.retrieve import Pool

POOL = set(Pool().params())


@pytest.mark.parametrize(("name", "extra"), [
    ("recall/pool", {"space", "cap"}),
    ("recall/pool_size", {"space", "cap"}),
    ("recall/critical", {"space", "categories", "cap"}),
    ("recall/vector_ann", {"space", "vector", "k", "limit"}),
    ("recall/vector_exact", {"space", "vector", "limit"}),
    ("recall/fulltext", {"space", "query", "limit"}),
])
def test_pool_statements_take_the_pool_filter(name: str, extra: set[str]) -> None:
    assert parameters(name) == POOL | extra


@pytest.mark.parametrize(("name", "expected"), [
    ("recall/load", {"space", "ids"}),
    ("recall/open_conflicts", {"space", "ids"}),
    ("recall/embed_targets", {"items"}),
    ("recall/set_embeddings", {"spaces"}),
    ("recall/check_subjects", {"space", "subjects", "as_of", "valid_at"}),
    ("recall/vector_index", set()),
    ("recall/vectors_since", {"space", "seq", "statuses", "limit"}),
    ("recall/statuses", {"space", "ids"}),
])
def test_other_statements(name: str, expected: set[str]) -> None:
    assert parameters(name) == expected


def test_pool_filter_is_the_same_text_everywhere() -> None:
    clause = ("($at IS NULL OR (f.recorded_at <= $at AND ($history OR\n"
              "       (f.held_from <= $at AND (f.retired_at IS NULL OR f.retired_at > $at)))))")
    for name in ("pool", "pool_size", "critical", "vector_ann", "vector_exact", "fulltext"):
        assert clause in query(f"recall/{name}"), name


def test_no_statement_returns_vectors() -> None:
    for name in ("pool", "load", "check_subjects"):
        assert "FactVector" not in query(f"recall/{name}")
