"""Graph-level fixtures: a GraphMem per test on its own space, over the session runtime."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.runtime import Runtime

from support import isolation


@pytest.fixture
def make_mem(runtime: Runtime) -> Iterator[Callable[..., GraphMem]]:
    """Build GraphMem instances on fresh spaces (or a given one) sharing the test runtime."""
    made: list[GraphMem] = []

    def build(space: str | None = None, **kwargs: Any) -> GraphMem:
        mem = GraphMem(space=space or isolation.tenant(), runtime=runtime, **kwargs)
        made.append(mem)
        return mem

    yield build
    for mem in made:
        mem.close()


@pytest.fixture
def mem(make_mem: Callable[..., GraphMem]) -> GraphMem:
    return make_mem()


def instant() -> datetime:
    """Now, strictly after every write made before it and before every write made after it
    (the clock's resolution is coarse on some machines)."""
    time.sleep(0.005)
    at = datetime.now(UTC)
    time.sleep(0.005)
    return at
