"""Session fixtures: the suite's own home and Neo4j, a real relational store, a unique space
per test, and every space the session wrote deleted after each module (support/isolation.py).

Before any test runs, GRAPHMEM_HOME becomes `.graphmem-test/` (keys, SQLite), exported so that
child processes inherit it.

Neo4j, in this order:
  1. `GRAPHMEM_NEO4J_URI` (with `GRAPHMEM_NEO4J_USER/PASSWORD/DATABASE`) from the environment
     or `.env`: that server is used as it is;
  2. otherwise the suite's own managed server under `.graphmem-test/` (never the one `make run`
     serves from `.graphmem/`), installed and started when needed (both steps are idempotent;
     the jars are the developer's, shared) and left running afterwards.
Whatever the source, the graph schema is migrated once per session, spaces an interrupted run
left over a day ago are deleted, and after each test module the session's spaces are deleted.

Postgres: `GRAPHMEM_TEST_POSTGRES_URL`, else the server `.ci/run` sets up
(`postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test`). An unreachable server fails
the Postgres tests with a message saying so; `-m "not postgres"` deselects them. Each
Postgres store gets a schema of its own, dropped after the test.

`GRAPHMEM_TEST_DOCKER=1` (`make test-docker`) replaces both with the official `neo4j:5.26`
and `postgres:16` images as testcontainers (support/containers.py); the run stops at once,
with the reason, when no Docker engine answers.

Tests that use these fixtures are marked automatically (`neo4j`, `postgres`), so
`-m "not neo4j"` and `-m "not postgres"` select by what a test really needs.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import neo4j._sync.io._pool
import neo4j._sync.work.session
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

from support import durations, isolation
from support.containers import docker_mode, require_engine, start_neo4j, start_postgres

# The routing driver (neo4j://) picks a server, and jitters its retries, with the global
# `random` from any thread; Hypothesis fails a test whose global random state moves while
# it draws. The driver gets a Random of its own in the tests.
neo4j._sync.io._pool.choice = random.Random().choice  # type: ignore[attr-defined]
neo4j._sync.work.session.random = random.Random().random  # type: ignore[attr-defined]

pytest_plugins = ["support.memory_fixtures", "support.llm_fixtures", "support.mirror_fixtures",
                  "support.schema_probe", "support.plan_fixtures", "support.flake_report",
                  "support.related_chain"]

DEFAULT_TEST_POSTGRES_URL = "postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test"

NEO4J_FIXTURES = frozenset({"neo4j_settings", "settings", "graph", "runtime"})
POSTGRES_FIXTURES = frozenset({"pg_url", "pg_schema_url"})
PRIVATE_NEO4J = "private_neo4j"


DEVELOPER = pytest.StashKey[Settings]()
GRAPH = pytest.StashKey[GraphDriver]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow", choices=("include", "exclude", "only"), default="include",
        help="the soak and load tests (marked slow): run them with the rest (the default),"
             " leave them out (`make test`) or run only them (`make test-slow`)")


def pytest_configure(config: pytest.Config) -> None:
    """Docker mode without a usable Docker engine is an error before any test runs; then the
    suite moves into its own home (and, for a managed Neo4j, its own server's ports). The
    workers take groups in collection order, which puts the longest first, rather than
    pytest-xdist's own order (most tests first)."""
    require_engine()
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    config.stash[DEVELOPER] = isolation.enter(managed_server=not docker_mode())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests by the real services their fixtures need (before `-m` deselects), and
    group them for a parallel run (`make test`: pytest-xdist, `--dist loadgroup`): a module's
    tests stay on one worker, so its module fixtures are built once, and every test of a
    private Neo4j server shares one worker, so that server starts once. A soak or load test
    is a group of its own: it runs for minutes, so two of one module run side by side.
    Groups run longest first (support/durations.py). `--slow` keeps or leaves out the soak
    and load tests."""
    wanted = config.getoption("--slow")
    if wanted != "include":
        slow = {i.nodeid for i in items if i.get_closest_marker("slow") is not None}
        keep = wanted == "only"
        config.hook.pytest_deselected(items=[i for i in items if (i.nodeid in slow) != keep])
        items[:] = [i for i in items if (i.nodeid in slow) == keep]
    groups: dict[str, str] = {}
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & NEO4J_FIXTURES:
            item.add_marker(pytest.mark.neo4j)
        if names & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)
        if PRIVATE_NEO4J in names:
            group = "private-neo4j"
        elif item.get_closest_marker("slow") is not None:
            group = item.nodeid
        else:
            group = item.nodeid.split("::")[0]
        groups[item.nodeid] = group
        item.add_marker(pytest.mark.xdist_group(group))
    durations.longest_first(items, groups)


# ---- Neo4j ---------------------------------------------------------------------------------
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


@pytest.fixture(scope="session")
def neo4j_settings(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Settings:
    """Settings for the session: a running real Neo4j and a fresh SQLite file."""
    sqlite_url = f"sqlite:///{tmp_path_factory.mktemp('relational') / 'graphmem.db'}"
    checkpoints = tmp_path_factory.mktemp("audit")  # not the developer's home
    if docker_mode():
        start_neo4j(request)
        return load_settings(database_url=sqlite_url, audit_checkpoint_dir=checkpoints)
    try:
        base = load_settings(database_url=sqlite_url, audit_checkpoint_dir=checkpoints)
        if not base.managed_neo4j:
            return base
        with isolation.exclusive("neo4j"):
            isolation.share_jars(base, request.config.stash[DEVELOPER])
            _managed_neo4j(base)
        return base
    except GraphMemError as e:
        problem = str(e)
    pytest.fail(
        f"no Neo4j for the tests: {problem}\n(set GRAPHMEM_NEO4J_URI to use another server, or"
        " run `make test-docker` to use Docker; -m 'not neo4j' deselects these tests)",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def developer_settings(request: pytest.FixtureRequest) -> Settings:
    """The settings graphmem reads outside the tests (the developer's home, whose managed
    Neo4j install lends its jars to the servers the tests start)."""
    return request.config.stash[DEVELOPER]


@pytest.fixture(scope="session")
def settings(neo4j_settings: Settings) -> Settings:
    """The settings every test should build clients from (the test Neo4j, a temp SQLite)."""
    return neo4j_settings


@pytest.fixture(scope="session")
def graph(request: pytest.FixtureRequest, neo4j_settings: Settings) -> Iterator[GraphDriver]:
    """One driver for the session; the graph schema is migrated once, before any test, and
    what earlier runs left is swept."""
    driver: GraphDriver | None = None
    try:
        driver = GraphDriver(neo4j_settings)
        driver.verify()
        with isolation.exclusive("migrations"):
            graph_migrations.up(driver)
            isolation.sweep_stale(driver)
    except GraphMemError as e:
        problem = str(e)
        if driver is not None:
            driver.close()
    else:
        request.config.stash[GRAPH] = driver
        yield driver
        del request.config.stash[GRAPH]
        driver.close()
        return
    pytest.fail(f"test Neo4j: {problem}", pytrace=False)


@pytest.fixture(scope="module", autouse=True)
def _delete_the_sessions_spaces(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each module, every space the session wrote is deleted (when it used Neo4j)."""
    yield
    driver = request.config.stash.get(GRAPH, None)
    if driver is not None:
        isolation.delete_session_spaces(driver)


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
    return Space(tenant=isolation.tenant(), user="u", agent="a", run="r")


# ---- Postgres ------------------------------------------------------------------------------
def _with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    extra = urlencode({"options": f"-csearch_path={schema}"})
    query = f"{parts.query}&{extra}" if parts.query else extra
    return urlunsplit(parts._replace(query=query))


@pytest.fixture(scope="session")
def pg_url(request: pytest.FixtureRequest) -> str:
    """The test Postgres server's URL; fails (never skips) when it cannot be reached."""
    import psycopg

    if docker_mode():
        url = start_postgres(request)
    else:
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
