"""Fixtures for remember(text) and recall: the test LLM server and runtimes pointing at it.

Every runtime shares the session's Neo4j driver, relational store and (loaded once) the real
local embedding model; only the settings differ.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.llm_server import LLMServer


@pytest.fixture(scope="session")
def llm_server() -> Iterator[LLMServer]:
    server = LLMServer()
    yield server
    server.close()


@pytest.fixture
def llm(llm_server: LLMServer) -> LLMServer:
    """The test LLM, with no script and zeroed counters."""
    llm_server.reset()
    return llm_server


def llm_overrides(server: LLMServer) -> dict[str, Any]:
    return {"llm_base_url": server.url, "llm_model": "test-model",
            "llm_api_key": SecretStr("test-key"), "llm_timeout": 10.0}


@pytest.fixture
def make_runtime(runtime: Runtime) -> Iterator[Callable[..., Runtime]]:
    """Runtimes with changed settings over the session's driver, store and local model."""
    made: list[Runtime] = []

    def build(**overrides: Any) -> Runtime:
        settings: Settings = runtime.settings.model_copy(update=overrides)
        shared = None if settings.embedding_base_url else runtime.embedder  # loaded once
        built = Runtime(settings, runtime.graph, runtime.store, embedder=shared)
        made.append(built)
        return built

    yield build
    for built in made:
        built.close_workers()  # the shared embedder stays: the session runtime closes it


@pytest.fixture
def make_llm_mem(llm: LLMServer, make_runtime: Callable[..., Runtime]
                 ) -> Iterator[Callable[..., GraphMem]]:
    """GraphMem instances on fresh spaces whose model is the test LLM server."""
    made: list[GraphMem] = []

    def build(settings: dict[str, Any] | None = None, **kwargs: Any) -> GraphMem:
        rt = make_runtime(**{**llm_overrides(llm), **(settings or {})})
        mem = GraphMem(space=isolation.tenant(), runtime=rt, **kwargs)
        made.append(mem)
        return mem

    yield build
    for mem in made:
        mem.close()


@pytest.fixture
def make_plain_mem(make_runtime: Callable[..., Runtime]) -> Iterator[Callable[..., GraphMem]]:
    """GraphMem instances with no LLM configured (settings may be overridden)."""
    made: list[GraphMem] = []

    def build(settings: dict[str, Any] | None = None, **kwargs: Any) -> GraphMem:
        overrides = {"llm_base_url": None, "llm_model": None, **(settings or {})}
        kwargs.setdefault("space", isolation.tenant())
        mem = GraphMem(runtime=make_runtime(**overrides), **kwargs)
        made.append(mem)
        return mem

    yield build
    for mem in made:
        mem.close()


@pytest.fixture
def llm_mem(make_llm_mem: Callable[..., GraphMem]) -> GraphMem:
    return make_llm_mem()
