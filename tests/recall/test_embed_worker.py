"""Fact embedding runs after the write returns, on the real model and a real Neo4j: writes do
not wait for it, ranked reads of the same process do (bounded), closing embeds what is queued,
and facts a crash left without vectors are found and embedded."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.embeddings import EmbedderUnavailable, Embeddings
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.recall.embed_worker import chunked
from graphmem.settings import Settings

from support import isolation
from support.mirror_support import wait_for

pytestmark = pytest.mark.races


def fact(subject: str, value: str) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": 0.95}


def crowd(mem: GraphMem, n: int = 60) -> None:
    """More facts than GRAPHMEM_RECALL_CONTEXT, so recall ranks by vector."""
    mem.remember_facts([fact(f"service_{i}_owner", f"team {i}") for i in range(n)])


def cypher(graph: GraphDriver, statement: str, **params: Any) -> list[dict[str, Any]]:
    with graph.session() as session:
        return [r.data() for r in session.run(statement, params)]


def has_vector(graph: GraphDriver, fact_ids: list[str]) -> list[bool]:
    rows = cypher(graph, "MATCH (v:FactVector) WHERE v.fact_id IN $ids RETURN v.fact_id AS id,"
                  " v.embedding IS NOT NULL AND v.seq IS NOT NULL AS yes", ids=fact_ids)
    found = {r["id"]: r["yes"] for r in rows}
    return [bool(found.get(i)) for i in fact_ids]


class Gate:
    """Holds the background worker's model calls until opened (the real model runs after)."""

    def __init__(self, embeddings: Embeddings, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = threading.Event()
        self.entered = threading.Event()
        real = embeddings.documents

        def held(texts: Any) -> Any:
            if threading.current_thread().name == "graphmem-embed":  # not a query's call
                self.entered.set()
                self.open.wait(30)
            return real(texts)

        monkeypatch.setattr(embeddings, "documents", held)


@pytest.fixture
def gated(make_plain_mem: Callable[..., GraphMem], monkeypatch: pytest.MonkeyPatch
          ) -> Iterator[tuple[GraphMem, Gate]]:
    mem = make_plain_mem()
    gate = Gate(mem.runtime.embedder, monkeypatch)
    yield mem, gate
    gate.open.set()


def test_a_write_returns_before_its_facts_are_embedded(gated: tuple[GraphMem, Gate]) -> None:
    mem, gate = gated
    results = mem.remember_facts([fact("plan", "Pro"), fact("region", "eu")])
    ids = [r.fact_id for r in results if r.fact_id]
    assert gate.entered.wait(10)  # the worker is inside the model call, the write is back
    assert has_vector(mem.runtime.graph, ids) == [False, False]
    assert [f.value for f in mem.active("plan")] == ["Pro"]  # readable at once
    gate.open.set()
    assert mem.records.wait_for_embeddings(30)
    assert has_vector(mem.runtime.graph, ids) == [True, True]


def test_recall_waits_for_the_vectors_of_its_own_writes(gated: tuple[GraphMem, Gate]) -> None:
    mem, gate = gated
    crowd(mem)
    mem.remember_facts([fact("primary_database", "Postgres")])
    threading.Timer(0.3, gate.open.set).start()
    result = mem.recall("Which RDBMS runs in production?")  # no word in common with the fact
    assert result.method == "fused"
    assert result.facts[0].fact.subject == "primary_database"


def test_a_read_waits_no_longer_than_embed_wait_then_ranks_by_full_text(
        make_plain_mem: Callable[..., GraphMem], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    mem = make_plain_mem(settings={"embed_wait": 0.2})
    gate = Gate(mem.runtime.embedder, monkeypatch)
    try:
        crowd(mem)
        mem.remember_facts([fact("primary_database", "Postgres")])
        assert gate.entered.wait(10)
        with caplog.at_level(logging.WARNING, logger="graphmem.recall.embed_worker"):
            result = mem.recall("what is the primary database?")
        assert "still being embedded after 0.2 s" in caplog.text
        assert result.facts[0].fact.subject == "primary_database"  # full-text found it
    finally:
        gate.open.set()


def test_closing_embeds_what_is_still_queued(make_plain_mem: Callable[..., GraphMem],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    mem = make_plain_mem()
    gate = Gate(mem.runtime.embedder, monkeypatch)
    ids = [r.fact_id for r in mem.remember_facts([fact("plan", "Pro")]) if r.fact_id]
    assert gate.entered.wait(10)
    threading.Timer(0.2, gate.open.set).start()
    mem.runtime.stop_embed_worker()
    assert has_vector(mem.runtime.graph, ids) == [True]


def test_closing_past_its_wait_leaves_the_rest_to_the_backfill_with_one_calm_line(
        make_plain_mem: Callable[..., GraphMem], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    mem = make_plain_mem()
    gate = Gate(mem.runtime.embedder, monkeypatch)
    first = [r.fact_id for r in mem.remember_facts([fact("plan", "Pro")]) if r.fact_id]
    assert gate.entered.wait(10)  # the worker is inside the model call for the first write
    second = [r.fact_id for r in mem.remember_facts([fact("region", "eu")]) if r.fact_id]
    threading.Timer(0.5, gate.open.set).start()
    with caplog.at_level(logging.DEBUG, logger="graphmem"):
        mem.runtime.stop_embed_worker(timeout=0.1)
    # the call in progress ends
    assert has_vector(mem.runtime.graph, first + second) == [True, False]
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert loud == []
    calm = [r.getMessage() for r in caplog.records if "closing before" in r.getMessage()]
    assert calm == ["closing before 1 queued fact(s) were embedded: they keep full-text search"
                    " and get their vectors when a process next writes to their space"]
    later = make_plain_mem(space=mem.space.key)  # the next process's first write to the space
    later.remember_facts([fact("tier", "gold")])
    assert later.records.wait_for_embeddings(60)
    assert has_vector(mem.runtime.graph, second) == [True]


WRITE_ONE_AND_EXIT = """
import sys
from graphmem import GraphMem
mem = GraphMem(space=sys.argv[1])
[result] = mem.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.95}],
                              text="The customer signed up for Pro today")
print(result.fact_id)
if sys.argv[2] == "close":
    mem.close()
"""


def script_env(settings: Settings, home: Path) -> dict[str, str]:
    """A user's environment: the test Neo4j, its own migrated SQLite mirror and home."""
    url = f"sqlite:///{home / 'graphmem.db'}"
    home.mkdir()
    store = RelationalStore(url)
    store_migrations.up(store)
    store.close()
    user, password = settings.neo4j_auth()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return {**env, "GRAPHMEM_HOME": str(home), "GRAPHMEM_DATABASE_URL": url,
            "GRAPHMEM_NEO4J_URI": settings.bolt_uri, "GRAPHMEM_NEO4J_USER": user,
            "GRAPHMEM_NEO4J_PASSWORD": password,
            "GRAPHMEM_NEO4J_DATABASE": settings.neo4j_database}


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["exit", "close"])
def test_a_script_that_writes_one_fact_and_exits_prints_nothing_and_the_fact_gets_its_vector(
        settings: Settings, graph: GraphDriver, tmp_path: Path, ending: str) -> None:
    """The real local model still loading in the background when the script ends finishes
    loading and embeds the fact; nothing is reported as broken."""
    script = tmp_path / "write_one.py"
    script.write_text(WRITE_ONE_AND_EXIT)
    space = isolation.tenant("exit")
    done = subprocess.run([sys.executable, str(script), space, ending], cwd=tmp_path,
                          env=script_env(settings, tmp_path / "home"), capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    fact_id = done.stdout.strip()
    assert fact_id and has_vector(graph, [fact_id]) == [True]  # read by another process


def test_facts_left_without_vectors_are_embedded_by_the_next_process(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    first = make_plain_mem()
    ids = [r.fact_id for r in first.remember_facts([fact(f"k{i}", f"v{i}") for i in range(5)])
           if r.fact_id]
    assert first.records.wait_for_embeddings(30)
    cypher(first.runtime.graph, "MATCH (v:FactVector) WHERE v.fact_id IN $ids"  # as if the
           " DELETE v", ids=ids)  # process died before storing them
    assert has_vector(first.runtime.graph, ids) == [False] * 5
    later = make_plain_mem(space=first.space.key)  # another process's first write to the space
    later.remember_facts([fact("plan", "Pro")])
    assert later.records.wait_for_embeddings(30)
    assert has_vector(first.runtime.graph, ids) == [True] * 5


def test_embed_background_off_embeds_inside_the_write(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(settings={"embed_background": False})
    ids = [r.fact_id for r in mem.remember_facts([fact("plan", "Pro")]) if r.fact_id]
    assert has_vector(mem.runtime.graph, ids) == [True]
    assert not mem.runtime.has_embed_worker


class Outage:
    """The background worker's model calls fail while `down` is set (the real model after)."""

    def __init__(self, embeddings: Embeddings, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = threading.Event()
        self.calls = 0
        real = embeddings.documents

        def flaky(texts: Any) -> Any:
            if threading.current_thread().name == "graphmem-embed" and self.down.is_set():
                self.calls += 1
                raise EmbedderUnavailable("scripted outage")
            return real(texts)

        monkeypatch.setattr(embeddings, "documents", flaky)


def test_facts_written_while_the_embedder_was_down_are_embedded_when_it_is_back(
        make_plain_mem: Callable[..., GraphMem], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    first = make_plain_mem()
    second = GraphMem(space=f"{first.space.key}-b", runtime=first.runtime)  # another space
    outage = Outage(first.runtime.embedder, monkeypatch)
    outage.down.set()
    with caplog.at_level(logging.WARNING, logger="graphmem.recall.vectors"):
        missed = [r.fact_id for mem in (first, second) for n in range(3)
                  for r in mem.remember_facts([fact(f"k{n}", f"v{n}")]) if r.fact_id]
        assert first.records.wait_for_embeddings(30) and outage.calls >= 1
        assert has_vector(first.runtime.graph, missed) == [False] * 6
        outage.down.clear()
        later = [r.fact_id for r in first.remember_facts([fact("plan", "Pro")]) if r.fact_id]
        deadline = time.monotonic() + 60  # the backfills are queued by the worker itself
        graph = first.runtime.graph
        while not all(has_vector(graph, missed + later)) and time.monotonic() < deadline:
            first.records.wait_for_embeddings(30)
            time.sleep(0.1)
    assert has_vector(first.runtime.graph, missed + later) == [True] * 7  # both spaces backfilled
    lines = [r.getMessage() for r in caplog.records]
    assert sum("embedder unavailable" in line for line in lines) == 1  # not one per write
    assert sum("embedder available again" in line for line in lines) == 1


def test_past_the_backlog_bound_a_write_succeeds_and_its_facts_are_backfilled(
        gated: tuple[GraphMem, Gate]) -> None:
    """The queue holds at most max_backlog fact ids; the rest are deferred (counted in the
    backlog, found by full-text) and embedded from the graph once the queue has drained."""
    mem, gate = gated
    worker = mem.runtime.embed_worker
    worker.max_backlog = 3
    first = mem.remember_facts([fact("held", "first")])
    assert gate.entered.wait(10), "the worker took the first fact and is held"
    later = [mem.remember_facts([fact(f"s{i}", f"value {i}")])[0] for i in range(5)]
    assert all(r.fact_id for r in later), "every write succeeds"
    assert (worker.backlog(), worker.deferred()) == (5, 2), "three queued, two deferred"
    assert [f.value for f in mem.active("s4")] == ["value 4"]
    gate.open.set()
    ids = [r.fact_id or "" for r in [*first, *later]]
    # The deferred facts are embedded once the queue has drained, or sooner when the space's
    # first backfill finds them committed; the count of them drops when their backfill is due.
    wait_for(lambda: all(has_vector(mem.runtime.graph, ids)) and worker.backlog() == 0, 30)
    assert has_vector(mem.runtime.graph, ids) == [True] * 6
    assert (worker.backlog(), worker.deferred()) == (0, 0)


def test_writes_of_several_spaces_share_one_model_call_and_one_store(
        gated: tuple[GraphMem, Gate], monkeypatch: pytest.MonkeyPatch) -> None:
    mem, gate = gated
    calls: list[list[str]] = []
    held = mem.runtime.embedder.documents

    def recorded(texts: Any) -> Any:
        if threading.current_thread().name == "graphmem-embed":
            calls.append(list(texts))
        return held(texts)

    monkeypatch.setattr(mem.runtime.embedder, "documents", recorded)
    mem.remember_facts([fact("plan", "Pro")])
    assert gate.entered.wait(10)  # the worker is in its first model call
    others = [GraphMem(space=isolation.tenant(), runtime=mem.runtime) for _ in range(2)]
    ids = [r.fact_id for other, value in zip(others, ("Postgres", "MySQL"), strict=True)
           for r in other.remember_facts([fact("database", value)]) if r.fact_id]
    gate.open.set()
    assert mem.records.wait_for_embeddings(60)
    assert has_vector(mem.runtime.graph, ids) == [True, True]
    assert ["database: Postgres", "database: MySQL"] in [sorted(c, reverse=True) for c in calls]
    for other in others:
        other.close()


def test_chunks_share_spaces_and_never_exceed_the_batch() -> None:
    grouped = [("a", ["1", "2", "3"]), ("b", ["4"]), ("c", ["5", "6", "7", "8"])]
    assert chunked(grouped, 4) == [[("a", ["1", "2", "3"]), ("b", ["4"])],
                                   [("c", ["5", "6", "7", "8"])]]
    assert chunked(grouped, 3) == [[("a", ["1", "2", "3"])], [("b", ["4"]), ("c", ["5", "6"])],
                                   [("c", ["7", "8"])]]
    assert chunked([], 3) == []


def test_a_chunk_is_stored_while_the_next_is_embedded(
        make_plain_mem: Callable[..., GraphMem], monkeypatch: pytest.MonkeyPatch) -> None:
    mem = make_plain_mem()
    vectors = mem.runtime.ranker.vectors
    writing, release = threading.Event(), threading.Event()
    overlapped: list[bool] = []  # per model call: was a store held open meanwhile?
    real_write, real_prepare = vectors.write, vectors.prepare

    def write(prepared: Any) -> Any:
        if not writing.is_set():
            writing.set()
            release.wait(30)
        return real_write(prepared)

    def prepare(batch: Any) -> Any:
        overlapped.append(writing.is_set() and not release.is_set())
        return real_prepare(batch)

    monkeypatch.setattr(vectors, "write", write)
    monkeypatch.setattr(vectors, "prepare", prepare)
    ids = [r.fact_id for r in mem.remember_facts([fact(f"k{i}", f"v{i}") for i in range(200)])
           if r.fact_id]
    assert len(ids) == 200 and writing.wait(30)
    wait_for(lambda: len(overlapped) >= 2, timeout=60)
    assert overlapped[:2] == [False, True], "the second chunk was embedded during the first store"
    assert has_vector(mem.runtime.graph, ids[:1]) == [False]
    release.set()
    assert mem.records.wait_for_embeddings(60)
    assert all(has_vector(mem.runtime.graph, ids))
