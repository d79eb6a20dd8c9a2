"""`make test-docker` (GRAPHMEM_TEST_DOCKER=1): the suite against the official images.

Neo4j `neo4j:5.26` and Postgres `postgres:16` run as testcontainers, each started the first time
a test needs it and removed at the end of the session. Their connection settings are exported
to the environment (GRAPHMEM_NEO4J_URI/USER/PASSWORD/DATABASE, GRAPHMEM_TEST_POSTGRES_URL), so
every client the tests build in-process or in a subprocess (the CLI, `graphmem serve`) reaches
the containers and never a server named in `.env`.

Without a reachable Docker engine the run stops before collecting anything, with the reason:
a Docker run that quietly fell back to another server would not be a Docker run.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable

import pytest

DOCKER_SWITCH = "GRAPHMEM_TEST_DOCKER"
NEO4J_IMAGE = "neo4j:5.26"
POSTGRES_IMAGE = "postgres:16"


def docker_mode() -> bool:
    return os.environ.get(DOCKER_SWITCH) == "1"


def engine_problem() -> str | None:
    """Why the tests cannot use Docker (testcontainers missing, no engine), or None."""
    try:
        import docker
        from docker.errors import DockerException
        from testcontainers.community.neo4j import Neo4jContainer  # noqa: F401
        from testcontainers.community.postgres import PostgresContainer  # noqa: F401
    except ImportError as e:
        return f"{e.name} is not installed: pip install -e '.[dev]'"
    try:
        client = docker.from_env(timeout=10)
        try:
            client.ping()
        finally:
            client.close()
    except DockerException as e:
        where = os.environ.get("DOCKER_HOST") or "the default socket"
        return f"no Docker engine answers at {where}: {str(e).splitlines()[0]}"
    return None


def require_engine() -> None:
    """Stop the run at once when Docker mode is on and Docker cannot be used."""
    if not docker_mode():
        return
    problem = engine_problem()
    if problem is not None:
        raise pytest.UsageError(
            f"{DOCKER_SWITCH}=1 (make test-docker) runs the tests against the neo4j:5.26 and"
            f" postgres:16 images, which needs a running Docker engine: {problem}. `make test`"
            " uses the managed Neo4j and the local Postgres instead.")


def _export(values: dict[str, str], finalizer: Callable[[Callable[[], None]], None]) -> None:
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)

    def restore() -> None:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

    finalizer(restore)


def start_neo4j(request: pytest.FixtureRequest) -> dict[str, str]:
    """A neo4j:5.26 container for the session; returns the settings that reach it."""
    from testcontainers.community.neo4j import Neo4jContainer

    container = Neo4jContainer(NEO4J_IMAGE, password=uuid.uuid4().hex)
    container.start()
    request.addfinalizer(container.stop)
    values = {"GRAPHMEM_NEO4J_URI": container.get_connection_url(),
              "GRAPHMEM_NEO4J_USER": container.username,
              "GRAPHMEM_NEO4J_PASSWORD": container.password,
              "GRAPHMEM_NEO4J_DATABASE": "neo4j"}
    _export(values, request.addfinalizer)
    return values


def start_postgres(request: pytest.FixtureRequest) -> str:
    """A postgres:16 container for the session; returns its URL (psycopg's form)."""
    from testcontainers.community.postgres import PostgresContainer

    container = PostgresContainer(POSTGRES_IMAGE, username="graphmem",
                                  password=uuid.uuid4().hex, dbname="graphmem_test",
                                  driver=None)
    container.start()
    request.addfinalizer(container.stop)
    url = container.get_connection_url()
    _export({"GRAPHMEM_TEST_POSTGRES_URL": url}, request.addfinalizer)
    return url
