"""Session fixtures: a real Neo4j, a real relational store, a unique space per test.

Neo4j, in this order:
  1. `GRAPHMEM_NEO4J_URI` (with `GRAPHMEM_NEO4J_USER/PASSWORD/DATABASE`) from the environment
     or `.env`: that server is used as it is;
  2. the managed local server under `GRAPHMEM_HOME` (default `./.graphmem`), installed and
     started when needed (both steps are idempotent) and left running afterwards;
  3. if the managed server cannot be had and `GRAPHMEM_TEST_DOCKER=1` with a working Docker,
     a `neo4j:5.26` testcontainer (needs `pip install testcontainers`).
Whatever the source, the graph schema is migrated once per session.

Postgres: `GRAPHMEM_TEST_POSTGRES_URL`, else the server `.ci/run` sets up
(`postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test`). An unreachable server fails
the Postgres tests with a message saying so; `-m "not postgres"` deselects them. Each
Postgres store gets a schema of its own, dropped after the test.

Tests that use these fixtures are marked automatically (`neo4j`, `postgres`), so
`-m "not neo4j"` and `-m "not postgres"` select by what a test really needs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from graphmem.errors import GraphMemError
from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore, redact
from graphmem.model import Space
from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

pytest_plugins = ["support.memory_fixtures", "support.llm_fixtures", "support.mirror_fixtures",
                  "support.schema_probe"]

DEFAULT_TEST_POSTGRES_URL = "postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test"
NEO4J_IMAGE = "neo4j:5.26"

NEO4J_FIXTURES = frozenset({"neo4j_settings", "settings", "graph", "runtime"})
POSTGRES_FIXTURES = frozenset({"pg_url", "pg_schema_url"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests by the real services their fixtures need (before `-m` deselects)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & NEO4J_FIXTURES:
            item.add_marker(pytest.mark.neo4j)
        if names & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)


# ---- Neo4j ---------------------------------------------------------------------------------
def _docker_works() -> bool:
    if shutil.which("docker") is None:
        return False
    probe = subprocess.run(["docker", "info"], capture_output=True, check=False, timeout=30)
    return probe.returncode == 0


def _managed_neo4j(settings: Settings) -> None:
    """Install (idempotent) and start (idempotent) the managed server under GRAPHMEM_HOME."""
    local = LocalNeo4j(settings)
    status = local.status()
    if status.running:
        local.start()  # waits for Bolt if it is still coming up
        return
    if not status.installed or not settings.password_file.exists():
        local.install()
    local.start()


def _neo4j_container(request: pytest.FixtureRequest) -> dict[str, Any]:
    try:
        from testcontainers.neo4j import Neo4jContainer
    except ImportError:
        pytest.fail("GRAPHMEM_TEST_DOCKER=1 needs testcontainers: pip install"
                    " 'testcontainers[neo4j]'", pytrace=False)
    password = uuid.uuid4().hex
    container = Neo4jContainer(NEO4J_IMAGE, password=password)
    container.start()
    request.addfinalizer(container.stop)
    return {"neo4j_uri": container.get_connection_url(), "neo4j_user": "neo4j",
            "neo4j_password": password}


@pytest.fixture(scope="session")
def neo4j_settings(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Settings:
    """Settings for the session: a running real Neo4j and a fresh SQLite file."""
    sqlite_url = f"sqlite:///{tmp_path_factory.mktemp('relational') / 'graphmem.db'}"
    try:
        base = load_settings(database_url=sqlite_url)
        if not base.managed_neo4j:
            return base
        _managed_neo4j(base)
        return base
    except GraphMemError as e:
        problem = str(e)
    if os.environ.get("GRAPHMEM_TEST_DOCKER") == "1" and _docker_works():
        return load_settings(database_url=sqlite_url, **_neo4j_container(request))
    pytest.fail(
        f"no Neo4j for the tests: {problem}\n(set GRAPHMEM_NEO4J_URI to use another server, or"
        " GRAPHMEM_TEST_DOCKER=1 to use Docker; -m 'not neo4j' deselects these tests)",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def settings(neo4j_settings: Settings) -> Settings:
    """The settings every test should build clients from (the test Neo4j, a temp SQLite)."""
    return neo4j_settings


@pytest.fixture(scope="session")
def graph(neo4j_settings: Settings) -> Iterator[GraphDriver]:
    """One driver for the session; the graph schema is migrated once, before any test."""
    driver: GraphDriver | None = None
    try:
        driver = GraphDriver(neo4j_settings)
        driver.verify()
        graph_migrations.up(driver)
    except GraphMemError as e:
        problem = str(e)
        if driver is not None:
            driver.close()
    else:
        yield driver
        driver.close()
        return
    pytest.fail(f"test Neo4j: {problem}", pytrace=False)


@pytest.fixture(scope="session")
def runtime(settings: Settings, graph: GraphDriver) -> Iterator[Runtime]:
    """A Runtime over the session's driver and a migrated SQLite mirror.

    Closing it (mirror drainer, model clients, store, then the shared driver, which the
    `graph` fixture's own close tolerates) happens once, at the end of the session.
    """
    store = RelationalStore(settings.relational_url)
    store_migrations.up(store)
    runtime = Runtime(settings, graph, store)
    yield runtime
    runtime.close()


@pytest.fixture
def space() -> Space:
    """A space no other test uses (`str(space)` / `space.key` is the key)."""
    return Space(tenant=f"t-{uuid.uuid4().hex}", user="u", agent="a", run="r")


# ---- Postgres ------------------------------------------------------------------------------
def _with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    extra = urlencode({"options": f"-csearch_path={schema}"})
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urlunsplit(parts._replace(query=query))


@pytest.fixture(scope="session")
def pg_url() -> str:
    """The test Postgres server's URL; fails (never skips) when it cannot be reached."""
    import psycopg

    url = os.environ.get("GRAPHMEM_TEST_POSTGRES_URL") or DEFAULT_TEST_POSTGRES_URL
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
        return url
    except psycopg.Error as e:
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
    pytest.fail(
        f"test Postgres at {redact(url)} is not reachable: {reason}. Start it (`.ci/run`"
        " does: pg_ctlcluster 15 main start, role and database graphmem/graphmem_test),"
        " or set GRAPHMEM_TEST_POSTGRES_URL, or deselect with -m 'not postgres'",
        pytrace=False,
    )


@pytest.fixture
def pg_schema_url(pg_url: str) -> Iterator[str]:
    """A URL whose tables land in a fresh schema of the test database, dropped afterwards."""
    import psycopg
    from psycopg import sql

    schema = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield _with_search_path(pg_url, schema)
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def relational_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty relational database URL, once for SQLite and once for Postgres."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'mirror.db'}"
    return str(request.getfixturevalue("pg_schema_url"))


@pytest.fixture
def relational_store(relational_url: str) -> Iterator[RelationalStore]:
    """A fresh, migrated store, once on SQLite and once on Postgres."""
    store = RelationalStore(relational_url)
    store_migrations.up(store)
    yield store
    store.close()
