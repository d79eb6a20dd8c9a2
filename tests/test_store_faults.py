"""Faults of the stores under HTTP write load, each with real processes: a `graphmem serve`
process streamed one fact per call by four clients, then a store fails and comes back.

- Neo4j SIGKILLed mid-load, down for a minute, started again;
- the relational store (a Postgres cluster of the test's own) stopped for a minute;
- the disk of the graphmem home full (a small ext4 image mounted as the home);
- Neo4j behind Toxiproxy, dropping connections and slow by turns;

and after each: every acknowledged write is there once, one active value per slot, the
mirror equals the graph, the audit chain verifies, the server serves again without a
restart, and the server's log grew by a few kilobytes at most while the store was down.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphmem.auth import KeyStore
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.settings import Settings

from support import isolation, loopback
from support.fleet import Host, free_port, shared_secrets
from support.load import Writer, assert_every_acknowledged_write_once, pending
from support.mirror_support import wait_for
from support.private_postgres import private_postgres
from support.toxiproxy import toxiproxy

pytestmark = [pytest.mark.races, pytest.mark.slow]

OUTAGE = float(os.environ.get("GRAPHMEM_FAULT_SECONDS", "60"))
WARM = 4.0  # seconds of load before a fault, and after the recovery
LOG_BUDGET = 4_096  # bytes the server may log while a store is down
PACE = 10  # writes a second, at most, of each of the four writers
DEADLINE = 60.0  # seconds a client gives a call: an answer later than that is a failure
GRAPH_DOWN = "the graph store (Neo4j) is unreachable; retry in a few seconds"


@dataclass
class Server:
    """One `graphmem serve` with a key of a tenant of its own, and its log outside its home
    (a home whose disk is full must not take the log with it)."""

    host: Host
    token: str
    tenant: str
    log: Path

    @property
    def base(self) -> str:
        return self.host.base

    def log_size(self) -> int:
        return self.log.stat().st_size

    def ready(self) -> tuple[int, str]:
        reply = loopback.get(f"{self.base}/readyz", timeout=30)
        return reply.status_code, str(reply.json().get("status"))


def _env(home: Path, database_url: str, neo4j: Settings) -> dict[str, str]:
    user, password = neo4j.neo4j_auth()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(shared_secrets())
    env.update(GRAPHMEM_HOME=str(home), GRAPHMEM_DATABASE_URL=database_url,
               GRAPHMEM_NEO4J_URI=neo4j.bolt_uri, GRAPHMEM_NEO4J_USER=user,
               GRAPHMEM_NEO4J_PASSWORD=password, GRAPHMEM_NEO4J_DATABASE=neo4j.neo4j_database,
               GRAPHMEM_LOG_LEVEL="INFO", GRAPHMEM_MIRROR_INTERVAL="0.5",
               GRAPHMEM_RATE_PER_MIN="1000000", GRAPHMEM_API_MODEL_CALLS_PER_MIN="1000000")
    return env


@contextmanager
def serving(workdir: Path, home: Path, database_url: str, neo4j: Settings) -> Iterator[Server]:
    env = _env(home, database_url, neo4j)
    store = RelationalStore(database_url)
    try:
        store_migrations.up(store)
        tenant = isolation.tenant()
        keys = KeyStore(store, env["GRAPHMEM_API_KEY_PEPPER"].encode())
        token = keys.create(tenant, "writer").token
    finally:
        store.close()
    host = Host("fault", home, free_port(), env, log_dir=workdir)
    host.start()
    try:
        host.wait_ready()
        yield Server(host, token, tenant, host.log)
    finally:
        host.stop()


@contextmanager
def load(server: Server) -> Iterator[list[Writer]]:
    """Four writers: two on one space (the same ten slots), two on spaces of their own, each
    at most PACE writes a second (a steady load, not the machine's ceiling: the faults are
    under test, not the throughput), each call given DEADLINE seconds."""
    stop = threading.Event()
    writers = [Writer(server.base, server.token, "shared/a/r" if n < 2 else f"own{n}/a/r",
                      n < 2, stop, f"w{n}", pace=1 / PACE, deadline=DEADLINE)
               for n in range(4)]
    for writer in writers:
        writer.start()
    try:
        yield writers
    finally:
        stop.set()
        for writer in writers:
            writer.join(120)


def acknowledged(writers: list[Writer]) -> list[tuple[str, str, str]]:
    return [a for w in writers for a in w.acknowledged]


def failures(writers: list[Writer]) -> Counter[str]:
    return sum((w.failed for w in writers), Counter())


def assert_recovered(server: Server, graph: GraphDriver, writers: list[Writer]) -> None:
    """The checks every fault ends with."""
    done = acknowledged(writers)
    assert len(done) > 20, failures(writers)  # the load ran, before and after the fault
    caught_up(graph, server)
    assert_every_acknowledged_write_once(graph, server.tenant, done)
    for space in {f"{server.tenant}/{a[0]}" for a in done}:
        check = server.host.cli("mirror", "check", "--space", space)
        assert check.returncode == 0, check.stdout + check.stderr
    server.host.stop()  # a clean stop writes the last signed head to the anchor file
    verified = server.host.cli("audit", "verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def caught_up(graph: GraphDriver, server: Server, timeout: float = 120.0) -> None:
    """The mirror applies, within `timeout`, every outbox entry of the server's tenant
    committed over two seconds ago (under load the newest are always on their way)."""
    deadline = time.monotonic() + timeout
    while (left := pending(graph, server.tenant, older_than=2)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert left == 0, f"{left} outbox entries still unapplied after {timeout:.0f}s"


def logged_while(server: Server, fault: Iterator[None]) -> tuple[bytes, float]:
    """What the server logged from the fault's start to its end beside the access log (a
    line a request, as many as when nothing fails), and how long the fault lasted."""
    before = server.log_size()
    began = time.monotonic()
    next(fault)
    took = time.monotonic() - began
    with server.log.open("rb") as fh:
        fh.seek(before)
        lines = fh.read(server.log_size() - before).splitlines(keepends=True)
    return b"".join(line for line in lines if b" graphmem.access " not in line), took


def test_neo4j_killed_under_load_loses_nothing_and_logs_a_few_lines(
        private_neo4j: Settings, tmp_path: Path) -> None:
    local = LocalNeo4j(private_neo4j)
    home = tmp_path / "home"
    graph = GraphDriver(private_neo4j)
    with serving(tmp_path, home, f"sqlite:///{home / 'graphmem.db'}", private_neo4j) as server, \
            load(server) as writers:
        time.sleep(WARM)
        states: list[tuple[int, str]] = []

        def outage() -> Iterator[None]:
            pid = local.status().pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + OUTAGE
            while time.monotonic() < deadline:
                states.append(server.ready())
                time.sleep(2.0)
            yield

        logged, _ = logged_while(server, outage())
        before = len(acknowledged(writers))
        local.start()
        wait_for(lambda: server.ready()[0] == 200, timeout=120)
        recovered = time.monotonic()
        wait_for(lambda: len(acknowledged(writers)) > before + 20, timeout=120)
        back_in = time.monotonic() - recovered
        time.sleep(WARM)
    # during the outage: not ready, writes refused fast and saying why, a few lines logged
    assert states and all(s == (503, "unavailable") for s in states), states
    codes = failures(writers)
    assert codes["UNAVAILABLE"] > 0 and set(codes) <= {"UNAVAILABLE"}, codes
    messages = sum((w.messages for w in writers), Counter())
    assert set(messages) == {GRAPH_DOWN}, messages
    assert set(sum((w.retry_after for w in writers), Counter())) == {"5"}
    assert b"Traceback" not in logged, logged.decode(errors="replace")[:2_000]
    assert len(logged) <= LOG_BUDGET, logged.decode(errors="replace")
    assert back_in < 60, back_in
    assert_recovered(server, graph, writers)
    graph.close()


@pytest.mark.postgres
def test_the_relational_store_stopped_under_load_holds_writes_in_the_outbox(
        settings: Settings, graph: GraphDriver, tmp_path: Path) -> None:
    with private_postgres() as postgres:
        with serving(tmp_path, tmp_path / "home", postgres.url, settings) as server, \
                load(server) as writers:
            time.sleep(WARM)
            states: list[tuple[int, str]] = []
            held: list[int] = []

            def outage() -> Iterator[None]:
                postgres.stop()
                deadline = time.monotonic() + OUTAGE
                while time.monotonic() < deadline:
                    states.append(server.ready())
                    held.append(pending(graph, server.tenant))
                    time.sleep(2.0)
                yield

            before = len(acknowledged(writers))
            logged, took = logged_while(server, outage())
            during = len(acknowledged(writers)) - before
            postgres.start()
            wait_for(lambda: server.ready() == (200, "ready"), timeout=120)
            caught_up(graph, server)
            time.sleep(WARM)
        assert during > 100, f"{during} writes acknowledged in {took:.0f}s without the store"
        assert held[-1] > held[0] > 0, f"the outbox holds what the mirror could not apply: {held}"
        assert states and all(s == (200, "degraded") for s in states), states
        assert failures(writers) == Counter(), failures(writers)
        assert b"Traceback" not in logged, logged.decode(errors="replace")[:2_000]
        assert len(logged) <= LOG_BUDGET, logged.decode(errors="replace")
        assert_recovered(server, graph, writers)


def test_a_full_disk_under_the_home_is_a_clear_error_and_corrupts_nothing(
        settings: Settings, graph: GraphDriver, tmp_path: Path) -> None:
    with small_disk(tmp_path) as home:
        with serving(tmp_path, home, f"sqlite:///{home / 'graphmem.db'}", settings) as server, \
                load(server) as writers:
            time.sleep(WARM)
            filler = home / "filler"
            states: list[tuple[int, str]] = []

            def outage() -> Iterator[None]:
                fill(filler)
                deadline = time.monotonic() + OUTAGE / 3
                while time.monotonic() < deadline:
                    states.append(server.ready())
                    time.sleep(2.0)
                yield

            logged, _ = logged_while(server, outage())
            filler.unlink()
            wait_for(lambda: server.ready() == (200, "ready"), timeout=120)
            caught_up(graph, server)
            time.sleep(WARM)
        integrity = subprocess.run(
            ["python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
             ".execute('PRAGMA integrity_check').fetchone()[0])", str(home / "graphmem.db")],
            capture_output=True, text=True, check=True)
        assert integrity.stdout.strip() == "ok"
        assert b"Traceback" not in logged, logged.decode(errors="replace")[:2_000]
        assert len(logged) <= LOG_BUDGET, logged.decode(errors="replace")
        assert all(s[0] == 200 for s in states), states
        assert set(failures(writers)) <= {"UNAVAILABLE"}, failures(writers)
        assert_recovered(server, graph, writers)


@contextmanager
def small_disk(tmp_path: Path, megabytes: int = 64) -> Iterator[Path]:
    """An ext4 image mounted as the home: its own small disk, which a file can fill."""
    image, mount = tmp_path / "home.img", tmp_path / "home"
    mount.mkdir()
    with image.open("wb") as fh:
        fh.truncate(megabytes * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    subprocess.run(["mount", "-o", "loop", str(image), str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(path: Path) -> None:
    """Write until the disk says it is full."""
    chunk = b"\0" * (1 << 20)
    with path.open("wb") as fh:
        try:
            while True:
                fh.write(chunk)
                fh.flush()
        except OSError:
            pass
        try:
            while True:  # what is left below a megabyte
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError:
            pass


def test_neo4j_flapping_behind_toxiproxy_leaks_no_thread_or_connection(
        settings: Settings, graph: GraphDriver, tmp_path: Path) -> None:
    """Neo4j reached through Toxiproxy, which drops every connection and refuses new ones
    for two seconds in every five, for a while answers each packet a second late, and at the
    end swallows every answer for BLACK_HOLE seconds without closing anything: calls fail as
    UNAVAILABLE within the client's deadline or succeed (slowly), never otherwise (a call
    past the deadline is a ReadTimeout), and once it is over the server holds as many
    threads and Neo4j connections as before."""
    host, port = settings.bolt_uri.removeprefix("bolt://").rsplit(":", 1)
    with toxiproxy(isolation.TEST_HOME, f"{host}:{port}", "neo4j") as proxy:
        through = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{proxy.port}"})
        home = tmp_path / "home"
        with serving(tmp_path, home, f"sqlite:///{home / 'graphmem.db'}", through) as server, \
                load(server) as writers:
            time.sleep(WARM)
            pid = server.host.proc.pid if server.host.proc is not None else 0
            seen = [(threads(pid), connections(pid, proxy.port))]
            for cycle in range(FLAPS):
                if cycle == FLAPS // 2:
                    proxy.add("latency", "slow", latency=1_000)
                proxy.enable(False)
                time.sleep(2.0)
                proxy.enable(True)
                time.sleep(3.0)
                if cycle == FLAPS // 2:
                    proxy.remove("slow")
                seen.append((threads(pid), connections(pid, proxy.port)))
            before = failures(writers)["UNAVAILABLE"]
            proxy.add("timeout", "hole", timeout=0)  # data dropped, connections kept open
            time.sleep(BLACK_HOLE)
            proxy.remove("hole")
            swallowed = failures(writers)["UNAVAILABLE"] - before
            wait_for(lambda: server.ready() == (200, "ready"), timeout=120)
            settled = len(acknowledged(writers))
            wait_for(lambda: len(acknowledged(writers)) > settled + 20, timeout=120)
            time.sleep(WARM)
            seen.append((threads(pid), connections(pid, proxy.port)))
        assert set(failures(writers)) <= {"UNAVAILABLE"}, failures(writers)
        assert failures(writers)["UNAVAILABLE"] > 0, "the faults reached the clients"
        assert swallowed > 0, "calls into the black hole were answered UNAVAILABLE"
        # what the first rounds of faults may grow (a pool that fills up to its load) the
        # later ones do not grow again
        first, last = seen[: FLAPS // 3], seen[-1]
        assert last[0] <= max(t for t, _ in first) + 4, f"threads: {seen}"
        assert last[1] <= max(c for _, c in first) + 2, f"Neo4j connections: {seen}"
        assert_recovered(server, graph, writers)


FLAPS = int(os.environ.get("GRAPHMEM_FLAP_ROUNDS", "8"))  # 5 s each: 720 is an hour
# a black-holed Neo4j is given up on after 10 s of silence (the managed server's keep-alive
# hint to the driver), then a new connection's handshake after 10 s
BLACK_HOLE = 30.0


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def connections(pid: int, port: int) -> int:
    """The process's established TCP connections to `port` on loopback."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote_port = int(fields[2].split(":")[1], 16)
        if remote_port == port and fields[3] == "01" and fields[9] in inodes:
            count += 1
    return count
