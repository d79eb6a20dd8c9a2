"""Audit rows leave the caller's path: queued in call order, written in batches, flushed
before anything reads the chain, and a write's row is durable with the write itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.errors import NotFound
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import audit, audit_queue
from graphmem.mirror.event_log import event_binding
from graphmem.mirror.mirror import Mirror
from graphmem.runtime import Runtime
from graphmem.service.memory import Caller
from graphmem.settings import Settings

from support import isolation
from support.mirror_support import NO_EMBEDDER, close_runtime, mirrored, open_runtime, with_store

pytestmark = pytest.mark.races

Make = Callable[..., GraphMem]
WRITER = Path(__file__).with_name("audit_writer.py")


def stored_rows(runtime: Runtime) -> list[tuple[str, str, str]]:
    return [(r[0], r[1], r[2]) for r in runtime.store.query(
        "SELECT caller, operation, outcome FROM audit_log ORDER BY seq")]


@pytest.fixture
def idle_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """No background worker: rows and entries wait until something flushes or drains."""
    monkeypatch.setattr(Mirror, "_ensure_thread", lambda self: None)


def test_rows_come_out_in_call_order_under_concurrent_threads(make: Make,
                                                               mirror_runtime: Runtime) -> None:
    space = make().space.key
    threads, rounds = 4, 8
    called: dict[str, list[str]] = {}

    def work(n: int) -> None:
        mem = make(space, caller=Caller(f"w{n}"))
        done = called.setdefault(f"w{n}", [])
        for i in range(rounds):
            mem.remember_facts([{"subject": f"s{n}", "value": f"v{i}"}])
            done.append("remember_facts")
            mem.active(f"s{n}")
            done.append("active")
            with pytest.raises(NotFound):
                mem.records.fact("f-missing")
            done.append("fact")

    pool = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    mirror_runtime.mirror.flush()
    rows = stored_rows(mirror_runtime)
    for name, expected in called.items():
        assert [op for caller, op, _ in rows if caller == name] == expected, name
    assert len(rows) == threads * rounds * 3
    assert make(space).records.verify_audit(deep=True).ok


def test_many_rows_go_in_one_transaction(make: Make, mirror_runtime: Runtime,
                                         idle_worker: None) -> None:
    mem = make()
    for _ in range(50):
        mem.active()
    heads: list[int] = []
    append = audit.Appender.finish

    def counted(self: audit.Appender) -> int:
        heads.append(self.added)
        return append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(audit.Appender, "finish", counted)
        mirror_runtime.mirror.flush()
    assert heads == [50]


def test_verify_flushes_what_is_queued(make: Make, mirror_runtime: Runtime,
                                       idle_worker: None) -> None:
    mem = make()
    mem.remember_facts([{"subject": "plan", "value": "pro"}])
    for _ in range(3):
        mem.active()
    assert stored_rows(mirror_runtime) == [], "nothing is written in the caller's path"
    report = mem.records.verify_audit()
    assert report.ok and report.rows == 4
    assert [op for _, op, _ in stored_rows(mirror_runtime)] == [
        "remember_facts", "active", "active", "active"]
    listed = mem.records.audit_log(limit=10)
    assert [r.operation for r in listed][:2] == ["verify_audit", "active"]


def test_a_write_row_names_its_event_and_counts_never_content(make: Make,
                                                              mirror_runtime: Runtime) -> None:
    mem = make()
    mem.remember_facts([{"subject": "city", "value": "Tbilisi-secret"},
                        {"subject": "plan", "value": "pro"}])
    row = mem.records.audit_log(limit=5, operation="remember_facts")[0]
    detail = json.loads(row.detail)
    events = [r[0] for r in mirror_runtime.store.query(
        "SELECT event_id FROM events WHERE space = ?", (mem.space.key,))]
    digest = detail.pop("digest")
    assert detail == {"event": events[0], "kind": "remember", "count": 2}
    assert len(digest) == 64, "the digest of the event's row as stored: no content"
    assert (row.caller, row.outcome, row.space) == ("local", "ok", mem.space.key)
    assert "Tbilisi" not in row.detail


def test_close_writes_the_queue(settings: Settings, graph: GraphDriver, relational_url: str,
                                idle_worker: None) -> None:
    runtime = open_runtime(with_store(settings, relational_url, **NO_EMBEDDER), graph)
    try:
        mem = GraphMem(isolation.space(), runtime=runtime)
        mem.remember_facts([{"subject": "plan", "value": "pro"}])
        mem.active()
        with pytest.raises(NotFound):
            mem.records.fact("f-missing")
        assert stored_rows(runtime) == []
        runtime.mirror.close()
        assert stored_rows(runtime) == [("local", "remember_facts", "ok"),
                                        ("local", "active", "ok"), ("local", "fact", "error")]
        assert runtime.mirror.verify().ok
    finally:
        close_runtime(runtime)


@pytest.fixture
def killed_writer(settings: Settings, graph: GraphDriver, tmp_path: Path) -> Iterator[
        tuple[str, str, str]]:
    """A process that wrote one fact and was SIGKILLed before its mirror wrote anything:
    (space, relational URL, the acknowledged fact id)."""
    url = f"sqlite:///{tmp_path / 'mirror.db'}"
    space = isolation.space("kill")
    open_runtime(with_store(settings, url), graph).store.close()  # migrated first
    env = {**os.environ, "GRAPHMEM_DATABASE_URL": url,
           "GRAPHMEM_EMBEDDING_BASE_URL": NO_EMBEDDER["embedding_base_url"],
           "GRAPHMEM_LLM_MAX_RETRIES": "0", "GRAPHMEM_LOG_LEVEL": "ERROR"}
    proc = subprocess.Popen([sys.executable, str(WRITER), space], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line.startswith("ack "), f"the writer said {line!r}"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    yield space, url, line[4:]


def test_a_write_row_survives_a_sigkill_after_the_commit(
        settings: Settings, graph: GraphDriver, killed_writer: tuple[str, str, str]) -> None:
    space, url, fact_id = killed_writer
    runtime = open_runtime(with_store(settings, url, **NO_EMBEDDER), graph)
    try:
        assert stored_rows(runtime) == [], "the killed process wrote no row itself"
        mem = GraphMem(space, runtime=runtime)
        mem.records.drain()  # the restart applies what the crash left, with the write's row
        rows = mem.records.audit_log(limit=10)
        assert [(r.caller, r.operation, r.outcome) for r in rows] == [
            ("local", "remember_facts", "ok")], "the write's row, not the lost read's"
        write = json.loads(rows[0].detail)
        events = runtime.store.query("SELECT event_id, payload, kind FROM events"
                                     " WHERE space = ?", (space,))
        assert [write["event"]] == [e[0] for e in events]
        bound = event_binding(events[0][0], space, events[0][2])
        assert fact_id in (runtime.mirror.cipher.open(events[0][1], bound) or "")
        assert mem.records.verify_audit(deep=True).ok
        mem.records.drain()
        rows = mem.records.audit_log(limit=50)
        assert len([r for r in rows if r.operation == "remember_facts"]) == 1
    finally:
        close_runtime(runtime)


def test_a_full_queue_makes_callers_wait_not_drop(make: Make, mirror_runtime: Runtime,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_queue, "AUDIT_QUEUE", 3)
    mem = make()
    pool = [threading.Thread(target=lambda: [mem.active() for _ in range(10)])
            for _ in range(4)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    mirror_runtime.mirror.flush()
    assert mirror_runtime.mirror.status()["audit_dropped"] == 0
    assert [op for _, op, _ in stored_rows(mirror_runtime)] == ["active"] * 40


def test_while_the_store_is_down_the_queue_stays_bounded(make: Make, mirror_runtime: Runtime,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(audit_queue, "AUDIT_QUEUE", 5)
    mem = make()
    mem.active()
    mirror_runtime.mirror.flush()
    store = mirror_runtime.store
    with store.transaction() as cur:
        cur.execute("ALTER TABLE audit_head RENAME TO audit_head_away")
    try:
        mem.active()
        with pytest.raises(Exception, match="audit_head"):
            mirror_runtime.mirror.flush()  # the store fails: callers stop waiting for it
        fact_id = mem.remember_facts([{"subject": "plan", "value": "pro"}])[0].fact_id
        for _ in range(20):
            mem.active()
        status = mirror_runtime.mirror.status()
        assert status["audit_backlog"] <= 5 and status["audit_dropped"] >= 17
    finally:
        with store.transaction() as cur:
            cur.execute("ALTER TABLE audit_head_away RENAME TO audit_head")
    assert mem.records.verify_audit().ok
    rows = mem.records.audit_log(limit=100)
    assert [r.operation for r in rows if r.operation == "remember_facts"] == [
        "remember_facts"], "the write's row rides its outbox entry: never dropped"
    assert rows[-1].operation == "active", "the first read, written before the outage"
    assert fact_id in (mirrored(mirror_runtime, mem.space.key))


def test_a_backlog_wider_than_one_read_still_drains(idle_worker: None, settings: Settings,
                                                    graph: GraphDriver,
                                                    relational_url: str) -> None:
    """The queue is in call order, the outbox read in space order and capped: when the first
    queued write's space sorts past the cap, a pass must read further rather than stall."""
    runtime = open_runtime(with_store(settings, relational_url, mirror_batch=3,
                                      **NO_EMBEDDER), graph)
    try:
        tenant = isolation.tenant()
        mems = [GraphMem(f"{tenant}/{name}/a/r", runtime=runtime) for name in ("z", "b", "a")]
        for round_ in range(3):
            for mem in mems:  # z (sorts last) writes first
                mem.remember_facts([{"subject": "s", "value": f"v{round_}", "confidence": 0.9}])
        assert runtime.mirror.drain([m.space.key for m in mems]) == 9
        for mem in mems:
            held = mirrored(runtime, mem.space.key).values()
            assert sorted(v for _, v in held) == ["v0", "v1", "v2"]
            assert [v for status, v in held if status == "ACTIVE"] == ["v2"], list(held)
            mem.close()
        assert GraphMem(mems[0].space.key, runtime=runtime).records.verify_audit().ok
    finally:
        close_runtime(runtime)
