"""The suite's own home, Neo4j and spaces: what keeps the tests out of the developer's stores.

Home. `.graphmem-test/` in the checkout is exported as GRAPHMEM_HOME, with its SQLite file as
GRAPHMEM_DATABASE_URL, before any test runs, so everything the tests start (threads, spawned
and forked children, `graphmem` subprocesses) reads keys and writes relational rows there,
never in the developer's `.graphmem/`.

Neo4j. Where graphmem would use its managed server (no GRAPHMEM_NEO4J_URI), the suite runs one
of its own under the test home: its own database, password and loopback ports (chosen free
once, kept in `neo4j-ports.json`, exported as GRAPHMEM_NEO4J_BOLT_PORT/HTTP_PORT), the jars
shared with the developer's install through a symlink (fetched by Maven when there is none).
It is started when a test first needs it and left running like the developer's server, so a
later run starts at once; `make stop` stops both. Neo4j Community holds one user database per
server, so a server of the suite's own is the only way to keep the tests out of the database
`make run` serves. With GRAPHMEM_NEO4J_URI set (or `make test-docker`) that server is used.

Spaces. Every space a test writes has a tenant made by `tenant()` (`test-<session>-<label>-…`),
or, in the keyless `default` tenant, a user made by `user()`. After each test module every node
of this session's spaces is deleted (`delete_session_spaces`), on whichever server; spaces of
a run that was killed are deleted by a later run once they are a day old (`sweep_stale`).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from graphmem.graph.driver import GraphDriver
from graphmem.graph.nodes import DECLARED
from graphmem.model import DEFAULT_PART
from graphmem.neo4j_local.manager import LocalNeo4j, port_in_use
from graphmem.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
TEST_HOME = ROOT / ".graphmem-test"
PORTS = TEST_HOME / "neo4j-ports.json"
# The suite's servers (its own and the private ones, which read the same environment) live
# for minutes and plan a few hundred statements about once each: the JIT's C2 compiles took a
# third of the server's CPU in a run of the suite, so these servers stop at C1's quick ones.
# C1 alone gets a JVM without tiers' 48 MB code cache, which Neo4j's planner outgrows ("Out of
# space in CodeCache", and every later query waiting on the plan that failed): it gets the
# 240 MB that tiered compilation has.
SERVER_OPTIONS = {"GRAPHMEM_NEO4J_HEAP": "1g", "GRAPHMEM_NEO4J_PAGECACHE": "256m",
                  "GRAPHMEM_NEO4J_JVM_OPTIONS":
                      "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m"}

SESSION = uuid.uuid4().hex[:8]
MARK = "test-"  # every test tenant (and keyless test user) starts so
PREFIXES = (f"{MARK}{SESSION}-", f"{DEFAULT_PART}/{MARK}{SESSION}-")
STALE = timedelta(days=1)

# Labels whose nodes carry their space's key in `space`; Space nodes carry it in `key`.
SPACED = tuple(c.__label__ for c in DECLARED
               if "space" in c.defined_properties(aliases=False, rels=False))

# One statement per such label: a label is no parameter, and every statement is written out.
BY_PREFIX = {
    label: "MATCH (n:" + label + ") WHERE any(p IN $prefixes WHERE n.space STARTS WITH p)"
           " CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS"
    for label in ("Entity", "Fact", "FactVector", "Conflict", "Outbox", "OutboxFloor", "VectorSeq",
                  "Message", "Import")}
BY_KEY = {
    label: "MATCH (n:" + label + ") WHERE n.space IN $keys"
           " CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS"
    for label in BY_PREFIX}
assert set(BY_PREFIX) == set(SPACED), f"a spaced label without its clean-up: {SPACED}"


def tenant(label: str = "t") -> str:
    """A tenant of this session's own (its spaces are deleted after the module)."""
    return f"{MARK}{SESSION}-{label}-{uuid.uuid4().hex[:12]}"


def space(label: str = "t", rest: str = "u/a/r") -> str:
    """A space key under a fresh tenant of this session."""
    return f"{tenant(label)}/{rest}" if rest else tenant(label)


def user(label: str = "u") -> str:
    """A user part of this session's own, for spaces of the keyless `default` tenant."""
    return tenant(label)


# ---- the home and the server -----------------------------------------------------------------
def enter(managed_server: bool = True) -> Settings:
    """Export the test home (and, for a managed server, its ports, memory and JIT options) to
    this process's environment, which every child inherits; returns the developer's own
    settings (read before the switch), whose Neo4j install lends its jars. `managed_server`
    False: the Neo4j comes from elsewhere (Docker)."""
    developer = load_settings()
    TEST_HOME.mkdir(exist_ok=True)
    os.environ["GRAPHMEM_HOME"] = str(TEST_HOME)
    os.environ["GRAPHMEM_DATABASE_URL"] = f"sqlite:///{TEST_HOME / 'graphmem.db'}"
    # every test shares one graph: a server's sweep would embed the facts other tests left
    # without vectors on purpose (the tests of the sweep set their own period)
    os.environ["GRAPHMEM_EMBED_SWEEP_SECONDS"] = "0"
    if managed_server and developer.managed_neo4j:
        with exclusive("ports"):
            bolt, http = _ports()
        os.environ.update(SERVER_OPTIONS, GRAPHMEM_NEO4J_BOLT_PORT=str(bolt),
                          GRAPHMEM_NEO4J_HTTP_PORT=str(http))
    return developer


@contextmanager
def exclusive(name: str) -> Iterator[None]:
    """Held by one test process at a time (the workers of a parallel run share the test
    home and its server): starting the server and migrating its schema happen once."""
    TEST_HOME.mkdir(exist_ok=True)
    with open(TEST_HOME / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _ports() -> tuple[int, int]:
    """The test server's ports: the recorded ones while it runs or they are free, else two
    free ones, recorded."""
    try:
        recorded = json.loads(PORTS.read_text())
        bolt, http = int(recorded["bolt"]), int(recorded["http"])
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        bolt = http = 0
    if bolt and http:
        running = LocalNeo4j(load_settings(home=TEST_HOME, neo4j_uri=None)).status().running
        if running or not (port_in_use(bolt) or port_in_use(http)):
            return bolt, http
    bolt, http = _free_port(), _free_port()
    PORTS.write_text(json.dumps({"bolt": bolt, "http": http}) + "\n")
    return bolt, http


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def share_jars(test: Settings, developer: Settings) -> None:
    """The test server runs the developer's installed jars when there are any (the lib/
    folder is a symlink); without them `install` fetches its own."""
    lib, theirs = test.neo4j_dir / "lib", developer.neo4j_dir / "lib"
    if lib.exists() or lib.is_symlink() or not theirs.is_dir() or theirs == lib:
        return
    test.neo4j_dir.mkdir(parents=True, exist_ok=True)
    lib.symlink_to(theirs, target_is_directory=True)


# ---- the session's spaces ----------------------------------------------------------------------
def delete_spaces(graph: GraphDriver, prefixes: tuple[str, ...]) -> None:
    """Every node of every space whose key starts with one of `prefixes`, with its edges."""
    with graph.session() as session:
        for statement in BY_PREFIX.values():
            session.run(statement, prefixes=list(prefixes)).consume()
        session.run("MATCH (s:Space) WHERE any(p IN $prefixes WHERE s.key STARTS WITH p)"
                    " CALL (s) { DETACH DELETE s } IN TRANSACTIONS OF 1000 ROWS",
                    prefixes=list(prefixes)).consume()


def delete_session_spaces(graph: GraphDriver) -> None:
    delete_spaces(graph, PREFIXES)


def session_spaces(graph: GraphDriver) -> list[str]:
    """This session's spaces the graph still holds (their Space nodes)."""
    with graph.session() as session:
        return [r["key"] for r in session.run(
            "MATCH (s:Space) WHERE any(p IN $prefixes WHERE s.key STARTS WITH p)"
            " RETURN s.key AS key", prefixes=list(PREFIXES))]


def sweep_stale(graph: GraphDriver, now: datetime | None = None) -> None:
    """Spaces of earlier test runs, created over a day ago: what a killed run left."""
    cutoff = (now or datetime.now(UTC)) - STALE
    with graph.session() as session:
        keys = [r["key"] for r in session.run(
            "MATCH (s:Space) WHERE (s.key STARTS WITH $mark OR s.key STARTS WITH $keyless)"
            " AND s.created_at < $cutoff RETURN s.key AS key",
            mark=MARK, keyless=f"{DEFAULT_PART}/{MARK}", cutoff=cutoff)]
    for start in range(0, len(keys), 500):
        delete_exact(graph, keys[start:start + 500])


def delete_exact(graph: GraphDriver, keys: list[str]) -> None:
    with graph.session() as session:
        for statement in BY_KEY.values():
            session.run(statement, keys=keys).consume()
        session.run("MATCH (s:Space) WHERE s.key IN $keys DETACH DELETE s", keys=keys).consume()
