"""An import killed half-way (a real SIGKILL) and run again ends in exactly the state an
uninterrupted one gives: nothing lost, nothing written twice, the mirror and the audit chain
whole."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.graph import imports
from graphmem.graph.driver import GraphDriver
from graphmem.graph.imports import ConcurrentImport
from graphmem.graph.outbox import pending_count
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.lifecycle.transfer import codec
from graphmem.lifecycle.transfer.importers import digest
from graphmem.lifecycle.transfer.restore import Restore, collect_ids, import_id
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, wait_for, with_store
from support.transfer_support import as_copied, export_lines, records

pytestmark = pytest.mark.races

SUBJECTS, ROUNDS, BATCH = 300, 6, 25


@pytest.fixture
def own_store(settings: Settings, graph: GraphDriver, tmp_path: Path) -> Iterator[Runtime]:
    """A runtime on a relational store of this test's own, which the killed process and the
    re-run share with it."""
    runtime = open_runtime(with_store(settings, f"sqlite:///{tmp_path / 'mirror.db'}",
                                      **NO_EMBEDDER), graph)
    yield runtime
    close_runtime(runtime)


def cli(runtime: Runtime, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "GRAPHMEM_HOME": str(runtime.settings.home),
           "GRAPHMEM_DATABASE_URL": runtime.settings.relational_url,
           "GRAPHMEM_EMBEDDING_BASE_URL": NO_EMBEDDER["embedding_base_url"],
           "GRAPHMEM_LLM_MAX_RETRIES": "0", "GRAPHMEM_LOG_LEVEL": "ERROR"}
    return subprocess.Popen([sys.executable, "-c", "from graphmem.cli import main; main()",
                             *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def kill_half_way(runtime: Runtime, target: str, key: str, proc: subprocess.Popen[str],
                  past: int) -> int:
    """SIGKILL the import once its checkpoint passed `past` and before it finished; returns
    the line the checkpoint had reached."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        point = imports.checkpoint(runtime.graph, target, key)
        if point is not None and point.line > past:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            after = imports.checkpoint(runtime.graph, target, key)
            assert after is not None and not after.done, "the import finished before the kill"
            return after.line
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError("the import wrote no batch in time")


def finish(runtime: Runtime, *args: str) -> str:
    again = cli(runtime, *args)
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    return out


def settled(runtime: Runtime, mem: GraphMem) -> None:
    """What the killed process left in the outbox is drained; the stores agree; the chain
    verifies."""
    mem.active()  # the first use of the space drains what the kill left
    wait_for(lambda: pending_count(runtime.graph, mem.space.key)[0] == 0, timeout=60)
    assert check_mirror(runtime, mem.space.key) == []
    assert mem.records.verify_audit().ok


def fact_count(runtime: Runtime, space: str) -> int:
    with runtime.graph.session() as s:
        return int(s.run("MATCH (f:Fact {space: $space}) RETURN count(f) AS n",
                         space=space).single()["n"])


@pytest.mark.slow
def test_a_killed_restore_run_again_ends_exact(own_store: Runtime, tmp_path: Path) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    source = GraphMem(f"{tenant}/source/a/r", runtime=own_store)
    for round_ in range(ROUNDS):
        source.remember_facts([{"subject": f"s{i:03d}", "value": f"v{round_}-{i}",
                                "confidence": 0.9} for i in range(SUBJECTS)], source="bulk")
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    target = f"{tenant}/copy/a/r"
    key = import_id(target, lines[-1]["hash"], "restore")
    args = ("import", str(path), "--space", target, "--batch", str(BATCH))
    reached = kill_half_way(own_store, target, key, cli(own_store, *args), len(lines) // 3)
    assert reached < len(lines) - 1
    out = finish(own_store, *args)
    assert f"continued after {reached - 1} records" in out, out  # the header is no record
    copy = GraphMem(target, runtime=own_store)
    assert records(export_lines(copy)) == as_copied(lines, target)
    assert fact_count(own_store, target) == SUBJECTS * ROUNDS
    settled(own_store, copy)


@pytest.mark.slow
def test_a_killed_replay_run_again_ends_exact(own_store: Runtime, tmp_path: Path) -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    rows = [(f"s{i % SUBJECTS:03d}", f"v{i}", start + timedelta(minutes=i))
            for i in range(SUBJECTS * ROUNDS)]
    path = tmp_path / "values.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["subject", "value", "time"])
        out.writerows((s, v, t.isoformat()) for s, v, t in reversed(rows))
    target = f"t-{uuid.uuid4().hex[:12]}/copy/a/r"
    key = import_id(target, digest(path), "replay")
    args = ("import", str(path), "--space", target, "--batch", str(BATCH))
    reached = kill_half_way(own_store, target, key, cli(own_store, *args), len(rows) // 3)
    finish(own_store, *args)
    mem = GraphMem(target, runtime=own_store)
    assert fact_count(own_store, target) == len(rows)
    for subject in (f"s{i:03d}" for i in range(0, SUBJECTS, 37)):
        said = [v for s, v, _ in rows if s == subject]
        assert [e.value for e in mem.history(subject)] == said
    assert reached < len(rows)
    settled(own_store, mem)


def test_two_runs_of_one_import_never_write_it_twice(make_mem: Any, runtime: Runtime,
                                                     tmp_path: Path) -> None:
    """Both runs find the space empty; the second to commit finds the checkpoint moved and
    its batch rolls back."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    source = make_mem(f"{tenant}/source/a/r")
    source.remember_facts([{"subject": f"s{i}", "value": "v", "confidence": 0.9}
                           for i in range(30)])
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    target = f"{tenant}/copy/a/r"
    trusted = codec.trusted_keys(runtime.mirror.trusted(), None)
    jobs = []
    for _ in range(2):
        ids: dict[str, list[str]] = {}
        with path.open() as stream:
            verified = codec.verify(stream, trusted, collect_ids(ids))
        job = Restore(runtime, None, verified, {source.space.key: target}, 10,
                      lambda space, ids: None)
        jobs.append((job, job.plan(ids)))
    first, second = jobs
    assert first[0].run(path.open, first[1]).written["facts"] == 30
    with pytest.raises(ConcurrentImport, match="another run of this import"):
        second[0].run(path.open, second[1])
    assert fact_count(runtime, target) == 30
