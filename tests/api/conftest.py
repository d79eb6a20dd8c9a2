"""A real Uvicorn server on loopback (in a thread) per configuration, real HTTP and WebSocket
clients, and API keys created in the server's own relational store.

Servers are started once per session per set of setting overrides; every test uses tenants
of its own, so tests never see each other's data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.api_support import Api, servers
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer


@pytest.fixture(scope="session")
def serve_api(settings: Settings, runtime: Runtime) -> Iterator[Callable[..., Api]]:
    """Start (once) a server with these setting overrides over the session's stores."""
    with servers(settings, runtime) as serve:
        yield serve


@pytest.fixture
def api(serve_api: Callable[..., Api]) -> Api:
    """The default server: authentication required, limits high enough for the tests."""
    return serve_api()


@pytest.fixture
def scripted_api(serve_api: Callable[..., Api], llm_server: LLMServer) -> Api:
    """A server whose model (chat and embeddings) is the scripted test server, so remember,
    forget and recall can succeed, with the clinical slot schema (its medication slot is
    confirm-gated, so proposals and pendingChanged happen) and no model-call budget in the
    way. The scripted server is reset: it answers its defaults (no facts; an answer that
    counts the facts it was shown)."""
    llm_server.reset()
    return serve_api(slot_schema="preset:clinical", api_model_calls_per_min=1_000_000,
                     embedding_base_url=llm_server.url, embedding_model="scripted",
                     **llm_overrides(llm_server))
