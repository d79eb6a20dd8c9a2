"""Mirror fixtures: a Runtime per test over the session's Neo4j and a fresh relational store
(once SQLite, once Postgres), and a private managed Neo4j for the tests that stop the server
or need an empty database."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver
from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

from support import isolation
from support.isolation import share_jars
from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, with_store


@pytest.fixture
def mirror_runtime(settings: Settings, graph: GraphDriver,
                   relational_url: str) -> Iterator[Runtime]:
    """The session Neo4j, a fresh migrated relational store of this test's own."""
    rt = open_runtime(with_store(settings, relational_url, **NO_EMBEDDER), graph)
    yield rt
    close_runtime(rt)


@pytest.fixture
def embedding_runtime(settings: Settings, graph: GraphDriver, runtime: Runtime,
                      tmp_path: Path) -> Iterator[Runtime]:
    """Like mirror_runtime (SQLite) with the real embedder, shared with the session."""
    rt = open_runtime(with_store(settings, f"sqlite:///{tmp_path / 'mirror.db'}"), graph,
                      runtime)
    yield rt
    close_runtime(rt)


@pytest.fixture
def make(mirror_runtime: Runtime) -> Iterator[Callable[..., GraphMem]]:
    """GraphMem instances on fresh spaces (or a given one) over the test's runtime."""
    made: list[GraphMem] = []

    def build(space: str | None = None, **kwargs: Any) -> GraphMem:
        mem = GraphMem(space or isolation.space(), runtime=mirror_runtime,
                       **kwargs)
        made.append(mem)
        return mem

    yield build
    for mem in made:
        mem.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def private_neo4j(settings: Settings, developer_settings: Settings,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """A second managed Neo4j under a temporary home, on free ports, for tests that stop the
    server, restore into an empty database, plan on one or read its transaction logs (it
    checkpoints every 2 s); its jars are the session's server's or the developer's
    install's (fetched by Maven when there are none)."""
    home = tmp_path_factory.mktemp("neo4j-private")
    # Built afresh, never model_copy'd: derived paths (neo4j_dir) must follow the new home.
    own = load_settings(home=home, neo4j_uri=None, neo4j_password=None,
                        neo4j_bolt_port=free_port(), neo4j_http_port=free_port(),
                        neo4j_heap="512m", neo4j_pagecache="64m", neo4j_checkpoint_seconds=2,
                        database_url=f"sqlite:///{home / 'graphmem.db'}", **NO_EMBEDDER)
    assert own.neo4j_dir == home / "neo4j", "never touch the session's server"
    share_jars(own, settings if settings.managed_neo4j else developer_settings)
    local = LocalNeo4j(own)
    local.install()
    local.start()
    graph = GraphDriver(own)
    try:
        graph_migrations.up(graph)
    finally:
        graph.close()
    yield own
    local.stop()
