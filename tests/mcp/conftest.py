"""MCP tests: the SDK's client against `graphmem mcp` (a subprocess over stdio) and against
`graphmem serve`'s `/mcp` (a real Uvicorn server in a thread), over the session's Neo4j and
relational store, so the Python API in the test process reads what the tools wrote.

The subprocess embeds facts through the test model server (an OpenAI-compatible endpoint),
not a second copy of the local model.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from graphmem.auth import KeyStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.api_support import PEPPER, Api, servers
from support.llm_server import LLMServer


@pytest.fixture(scope="session")
def mcp_env(settings: Settings, llm_server: LLMServer) -> dict[str, str]:
    """The environment `graphmem mcp` runs with: this session's stores, no LLM."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_LLM_")}
    user, password = settings.neo4j_auth()
    env.update({
        "GRAPHMEM_NEO4J_URI": settings.bolt_uri, "GRAPHMEM_NEO4J_USER": user,
        "GRAPHMEM_NEO4J_PASSWORD": password, "GRAPHMEM_NEO4J_DATABASE": settings.neo4j_database,
        "GRAPHMEM_DATABASE_URL": settings.relational_url, "GRAPHMEM_HOME": str(settings.home),
        "GRAPHMEM_EMBEDDING_BASE_URL": llm_server.url, "GRAPHMEM_EMBEDDING_API_KEY": "test",
        "GRAPHMEM_API_KEY_PEPPER": PEPPER.get_secret_value(), "GRAPHMEM_LOG_LEVEL": "WARNING",
        "GRAPHMEM_MCP_POLL_SECONDS": "0.2", "GRAPHMEM_API_KEY_CACHE_SECONDS": "0",
    })
    env.pop("GRAPHMEM_API_KEY", None)
    return env


@pytest.fixture(scope="session")
def keys(settings: Settings, runtime: Runtime) -> KeyStore:
    """Keys the servers of these tests accept (same store, same pepper)."""
    return KeyStore.open(runtime.store, settings.model_copy(update={"api_key_pepper": PEPPER}))


@pytest.fixture(scope="session")
def serve_mcp(settings: Settings, runtime: Runtime) -> Iterator[Callable[..., Api]]:
    """Start (once per set of overrides) `graphmem serve`'s app on a loopback port."""
    with servers(settings, runtime, mcp_poll_seconds=0.2) as serve:
        yield serve


@pytest.fixture
def api(serve_mcp: Callable[..., Api]) -> Api:
    return serve_mcp()
