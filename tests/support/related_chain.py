"""A chain of relations longer than the default walk (stop0 → stop1 → … → stop6), and a
runtime whose GRAPHMEM_API_MAX_HOPS reaches its end (the `deep_runtime` fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem import GraphMem
from graphmem.runtime import Runtime

DEEPEST = 6  # above GRAPHMEM_API_MAX_HOPS' default of 4
CHAIN = [f"stop{n}" for n in range(DEEPEST + 1)]


def chain(mem: GraphMem) -> None:
    mem.remember_facts([{"head": a, "relation": "leads to", "tail": b, "confidence": 0.95,
                         "cardinality": "MANY"} for a, b in zip(CHAIN, CHAIN[1:], strict=False)])


def name_of(key: str) -> str:
    """An entity key's name part (`type:name`)."""
    return key.rsplit(":", 1)[-1]


def longest(paths: list[list[str]]) -> list[str]:
    return max(paths, key=len)


@pytest.fixture
def deep_runtime(runtime: Runtime) -> Iterator[Runtime]:
    built = Runtime(runtime.settings.model_copy(update={"api_max_hops": DEEPEST}),
                    runtime.graph, runtime.store)
    yield built
    built.close_workers()
