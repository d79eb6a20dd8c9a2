"""The in-memory exact vector search of one space (numpy only, no database)."""

from __future__ import annotations

import numpy as np

from graphmem.recall.vector_cache import SpaceVectors, unit


def vec(*xs: float) -> list[float]:
    return [*xs, *([0.0] * (4 - len(xs)))]


def test_top_is_exact_cosine_best_first() -> None:
    space = SpaceVectors(4)
    space.upsert([("a", vec(1, 0)), ("b", vec(1, 1)), ("c", vec(0, 1)), ("d", vec(-1, 0))])
    hits = space.top(vec(1, 0.2), 3)
    assert [i for i, _ in hits] == ["a", "b", "c"]
    assert hits[0][1] == np.float32(unit(vec(1, 0)) @ unit(vec(1, 0.2)))


def test_vectors_are_compared_as_unit_vectors() -> None:
    space = SpaceVectors(4)
    space.upsert([("long", vec(100, 1)), ("short", vec(0.1, 0))])
    assert [i for i, _ in space.top(vec(1, 0), 2)] == ["short", "long"]


def test_a_restamped_fact_replaces_its_row() -> None:
    space = SpaceVectors(4)
    space.upsert([("a", vec(1, 0)), ("b", vec(0, 1))])
    space.upsert([("a", vec(0, 0, 1))])
    assert len(space) == 2
    assert space.top(vec(0, 0, 1), 1)[0][0] == "a"


def test_dropped_facts_never_come_back_until_restamped() -> None:
    space = SpaceVectors(4)
    space.upsert([("a", vec(1, 0)), ("b", vec(0.9, 0.1)), ("c", vec(0, 1))])
    space.drop(["a", "unknown"])
    assert [i for i, _ in space.top(vec(1, 0), 3)] == ["b", "c"]
    space.upsert([("a", vec(1, 0))])
    assert space.top(vec(1, 0), 1)[0][0] == "a"


def test_growth_keeps_every_row() -> None:
    space = SpaceVectors(4)
    rng = np.random.default_rng(1)
    items = [(f"f{i}", list(rng.standard_normal(4))) for i in range(1000)]
    for start in range(0, 1000, 7):
        space.upsert(items[start:start + 7])
    assert len(space) == 1000
    target = items[637][1]
    assert space.top(target, 1)[0][0] == "f637"


def test_empty_and_degenerate_requests() -> None:
    space = SpaceVectors(4)
    assert space.top(vec(1), 5) == []
    space.upsert([("a", vec(1))])
    assert space.top(vec(1), 0) == []
    assert [i for i, _ in space.top(vec(1), 10)] == ["a"]
