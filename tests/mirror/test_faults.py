"""Faults: a writer killed at random points, Neo4j down, the relational store down."""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from graphmem import GraphMem
from graphmem.errors import Neo4jUnavailable
from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.http.app import create_app
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

from support import isolation
from support.mirror_support import (
    NO_EMBEDDER,
    close_runtime,
    mirrored,
    open_runtime,
    wait_for,
    with_store,
)
from support.tcp_proxy import tcp_proxy

pytestmark = pytest.mark.races

TRIALS = 50
WRITER = Path(__file__).with_name("crash_writer.py")


class Writer:
    """The crash writer's zygote and the lines its children print.

    Every wait is for a line, for as long as the process that must print it is alive: on a
    loaded machine a child may take long to say `ready`, which is no failure; a writer that
    died without saying what was expected is (pytest-timeout bounds a hang)."""

    def __init__(self, space: str, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WRITER), space], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.child: int | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.acked: set[str] = set()
        self.acked_in: dict[int, int] = {}  # trial → acknowledgements seen
        self.current = -1
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # the zygote closed its output: it has exited

    def _next(self) -> str:
        while True:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                continue  # still running (the reader thread ends the wait when it is not)
            assert line is not None, f"the writer exited (code {self.proc.wait()})"
            return line

    def expect(self, prefix: str) -> str:
        """The next line but acknowledgements (recorded) must start with `prefix`: the
        writer's lines come in a fixed order (crash_writer.py), so any other line is a
        failure, never skipped."""
        while True:
            line = self._next()
            if line.startswith(prefix):
                if line.startswith("ack "):
                    self._ack(line)
                return line
            if line.startswith("ack "):
                self._ack(line)
                continue
            if line.startswith("error "):
                self.errors.append(line)
                raise AssertionError(f"the writer failed: {line}")
            raise AssertionError(f"the writer said {line!r} where {prefix!r} was due")

    def _ack(self, line: str) -> None:
        self.acked.add(line[4:])
        self.acked_in[self.current] = self.acked_in.get(self.current, 0) + 1

    def trial(self, n: int, rng: random.Random) -> None:
        assert self.proc.stdin is not None
        self.current = n
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        self.child = pid = int(self.expect("pid ").split()[1])
        self.expect("ready")
        if n % 2:  # anywhere: the start-up drain of what the last kill left, or a write
            time.sleep(rng.uniform(0.0, 0.4))
        else:  # somewhere in the writes after the first acknowledged one
            self.expect("ack ")
            time.sleep(rng.uniform(0.0, 0.2))
        os.kill(pid, signal.SIGKILL)
        reaped = self.expect(f"reaped {pid} ")
        assert reaped.endswith(f" signal {signal.SIGKILL.value}"), reaped
        self.child = None

    def close(self) -> None:
        if self.child is not None:  # a trial failed half-way: its child still runs
            os.kill(self.child, signal.SIGKILL)
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
        while (line := self.lines.get()) is not None:
            if line.startswith("ack "):
                self.acked.add(line[4:])
            elif line.startswith("error "):
                self.errors.append(line)


@dataclass
class Windows:
    """Where the kills landed, judged after each one from both stores."""

    before_mirror: int = 0  # an entry committed in the graph, not yet in the mirror
    before_mark: int = 0  # an entry in the mirror, not yet marked done in the graph

    def judge(self, graph: GraphDriver, store: RelationalStore, space: str) -> None:
        with graph.session() as session:
            pending = {r["id"] for r in session.run(
                "MATCH (o:Outbox {space: $space}) WHERE o.done = false RETURN o.id AS id",
                space=space)}
        applied = {r[0] for r in store.query("SELECT event_id FROM events WHERE space = ?",
                                             (space,))}
        self.before_mirror += bool(pending - applied)
        self.before_mark += bool(pending & applied)

    @property
    def both(self) -> bool:
        return self.before_mirror > 0 and self.before_mark > 0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def crash_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The mirror the crash writer uses: a fresh SQLite file, or a fresh Postgres schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'mirror.db'}"
    return str(request.getfixturevalue("pg_schema_url"))


@pytest.mark.slow
def test_a_writer_killed_at_random_points_loses_and_doubles_nothing(
        settings: Settings, graph: GraphDriver, crash_store_url: str) -> None:
    """At least TRIALS SIGKILLs, once with SQLite and once with Postgres as the mirror; some
    must land between the graph commit and the mirror, and some between the mirror's commit
    and marking the entry done (where a careless restart would apply it twice). After the
    restart's drain: every acknowledged fact in the graph, no value written twice, the mirror
    equal to the graph, each outbox entry applied once with its audit row once."""
    url = crash_store_url
    space = isolation.space("crash")
    env = {**os.environ, "GRAPHMEM_DATABASE_URL": url,
           "GRAPHMEM_EMBEDDING_BASE_URL": NO_EMBEDDER["embedding_base_url"],
           "GRAPHMEM_LLM_MAX_RETRIES": "0", "GRAPHMEM_LOG_LEVEL": "ERROR"}
    if settings.neo4j_uri:
        env["GRAPHMEM_NEO4J_URI"] = settings.neo4j_uri
    open_runtime(with_store(settings, url), graph).store.close()  # migrated before the writer
    store = RelationalStore(url)
    writer = Writer(space, env)
    rng = random.Random(7)
    windows = Windows()
    trials = 0
    try:  # at least TRIALS kills, more (up to twice) until kills landed in both windows
        while trials < TRIALS or (not windows.both and trials < 2 * TRIALS):
            writer.trial(trials, rng)
            trials += 1
            windows.judge(graph, store, space)
    finally:
        writer.close()
        store.close()
    assert writer.errors == []
    waited = [n for n in range(trials) if n % 2 == 0]  # these kill after an acknowledgement
    assert all(writer.acked_in.get(n, 0) >= 1 for n in waited), writer.acked_in
    assert windows.before_mirror > 0, (
        f"no kill of {trials} landed between the graph commit and the mirror")
    assert windows.before_mark > 0, (
        f"no kill of {trials} landed between the mirror's commit and marking the entry done")

    runtime = open_runtime(with_store(settings, url, **NO_EMBEDDER), graph)
    try:  # the restart: the first use of the space drains what the crashes left
        mem = GraphMem(space, runtime=runtime)
        mem.active()
        while outbox.pending_count(graph, space)[0]:  # the mirror's worker drains them
            time.sleep(0.05)  # (a failed pass is retried; pytest-timeout bounds a hang)
        with graph.session() as s:
            facts = {r["id"]: r["value"] for r in s.run(
                "MATCH (f:Fact {space: $space}) RETURN f.id AS id, f.value AS value",
                space=space)}
            entries = [r["id"] for r in s.run("MATCH (o:Outbox {space: $space})"
                                              " RETURN o.id AS id", space=space)]
        in_graph = set(facts)
        assert writer.acked <= in_graph, "every acknowledged write is in the graph"
        values = list(facts.values())
        assert len(values) == len(set(values)), "a written value is in the graph twice"
        mirror = mirrored(runtime, space)
        assert set(mirror) == in_graph, "… and in the mirror, nothing more"
        assert {i: v for i, (_, v) in mirror.items()} == facts, "with the same values"
        events = [r[0] for r in runtime.store.query(
            "SELECT event_id FROM events WHERE space = ?", (space,))]
        assert sorted(events) == sorted(entries), "each entry applied exactly once"
        assert check_mirror(runtime, space) == []
        fsck = mem.records.fsck()  # `graphmem fsck`: the graph's invariants and the mirror
        assert fsck.ok, str(fsck)
        assert "mirror agrees with the graph" in str(fsck)
        report = mem.records.verify_audit(deep=True)
        assert report.ok, report.problems
        written = [json.loads(r[0])["event"] for r in runtime.store.query(
            "SELECT detail FROM audit_log WHERE space = ? AND operation = 'remember_facts'",
            (space,))]
        assert sorted(written) == sorted(events), "each committed write has its row, once"
        mem.close()
    finally:
        close_runtime(runtime)


@pytest.mark.timeout(60)
def test_writes_fail_fast_when_neo4j_is_unreachable(tmp_path: Path) -> None:
    dead = load_settings(home=tmp_path, neo4j_uri="bolt://127.0.0.1:1", neo4j_password="x",
                         database_url=f"sqlite:///{tmp_path / 'mirror.db'}")
    runtime = Runtime.open(dead)
    from graphmem.mirror import migrations

    migrations.up(runtime.store)
    mem = GraphMem("t-down/u/a/r", runtime=runtime)
    with pytest.raises(Neo4jUnavailable, match="not reachable at bolt://127.0.0.1:1"):
        mem.remember_facts([{"subject": "plan", "value": "pro"}])
    assert runtime.store.query("SELECT count(*) FROM events") == [(0,)]
    assert runtime.store.query("SELECT count(*) FROM mirror_facts") == [(0,)]
    runtime.mirror.flush()  # the error's row is written in the background
    rows = runtime.store.query("SELECT operation, outcome, detail FROM audit_log")
    assert rows == [("remember_facts", "error", '{"error":"Neo4jUnavailable"}')]
    runtime.close()
    with TestClient(create_app(dead)) as client:
        ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"]["neo4j"] == "unavailable"
    assert "bolt://" not in ready.text and ready.json()["ref"]


@pytest.mark.postgres
def test_postgres_going_away_and_coming_back(settings: Settings, graph: GraphDriver,
                                            pg_schema_url: str) -> None:
    """A real network fault: the store is reached through a proxy that is cut, then back."""
    with tcp_proxy("127.0.0.1", 5432) as proxy:
        url = pg_schema_url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        runtime = open_runtime(with_store(settings, url, **NO_EMBEDDER), graph)
        try:
            mem = GraphMem(isolation.space("pg"), runtime=runtime)
            first = mem.remember_facts([{"subject": "a", "value": "1"}])[0].fact_id
            mem.records.drain()
            proxy.cut()
            ids = [mem.remember_facts([{"subject": f"s{i}", "value": "v"}])[0].fact_id
                   for i in range(5)]
            assert outbox.pending_count(graph, mem.space.key)[0] == 5, "the outbox grows"
            assert [f.value for f in mem.active("a")] == ["1"], "reads go on too"
            proxy.restore()
            wait_for(lambda: outbox.pending_count(graph, mem.space.key)[0] == 0, timeout=15)
            assert set(mirrored(runtime, mem.space.key)) == {first, *ids}
            assert mem.records.verify_audit().ok
            mem.close()
        finally:
            close_runtime(runtime)
