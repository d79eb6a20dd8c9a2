"""Fixtures of the framework integrations' tests."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterator

import pytest

from graphmem import GraphMem
from graphmem.runtime import Runtime

from support import isolation


@pytest.fixture(scope="class")
def make_class_mem(runtime: Runtime) -> Iterator[Callable[[], GraphMem]]:
    """GraphMem instances on fresh spaces for a whole test class (a framework's standard
    test class builds its object from class properties, not from per-test fixtures)."""
    made: list[GraphMem] = []

    def build() -> GraphMem:
        mem = GraphMem(isolation.tenant(), runtime=runtime)
        made.append(mem)
        return mem

    yield build
    for mem in made:
        mem.close()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """The frameworks' standard test classes hold coroutine tests without a marker (their
    own projects run pytest-asyncio in auto mode): here each runs to its end on a new
    asyncio loop."""
    function = pyfuncitem.obj
    if not inspect.iscoroutinefunction(function):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(function(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True
