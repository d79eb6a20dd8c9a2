"""A host that dies before its background embedding ran leaves facts without vectors; a
server's sweep finds them in every space, by their recording time, and embeds them with the
real model."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.recall.embed_sweep import EmbedSweep, unembedded_recent
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, wait_for, with_store

pytestmark = pytest.mark.races

PERIOD = 30.0


def has_vectors(graph: GraphDriver, ids: list[str]) -> int:
    with graph.session() as session:
        return int(session.run("MATCH (v:FactVector) WHERE v.fact_id IN $ids AND v.seq IS NOT"
                               " NULL RETURN count(v) AS n", ids=ids).single()["n"])


def test_facts_another_host_left_without_vectors_are_embedded_by_the_sweep(
        settings: Settings, graph: GraphDriver, embedding_runtime: Runtime) -> None:
    dead = open_runtime(with_store(settings, embedding_runtime.store.url, **NO_EMBEDDER), graph)
    try:
        spaces = [isolation.space(), isolation.space()]
        ids: dict[str, list[str]] = {}
        for space in spaces:
            with GraphMem(space, runtime=dead) as mem:
                done = mem.remember_facts([{"subject": f"service_{i}", "value": f"team {i}"}
                                           for i in range(3)])
                dead.embed_worker.flush(30)
                ids[mem.space.key] = [r.fact_id for r in done]
    finally:
        close_runtime(dead)
    every = [i for found in ids.values() for i in found]
    assert has_vectors(graph, every) == 0

    # one period later, the facts are in the sweep's window, every space at once
    later = datetime.now(UTC) + timedelta(seconds=PERIOD * 1.5)
    found = unembedded_recent(graph, PERIOD, later)
    assert {k: sorted(v) for k, v in found.items() if k in ids} == {
        k: sorted(v) for k, v in ids.items()}
    # younger than a period: their writer may be embedding them still
    assert not set(unembedded_recent(graph, PERIOD)) & set(ids)

    live = embedding_runtime

    def submit(space: str, found: list[str]) -> None:
        if space in ids:  # other tests' spaces in the shared graph are theirs to embed
            live.embed_worker.submit(space, found)

    sweep = EmbedSweep(graph, submit, PERIOD)
    assert sweep.once(later) >= len(every)
    assert live.embed_worker.flush(120)
    assert has_vectors(graph, every) == len(every)
    assert not set(unembedded_recent(graph, PERIOD, later)) & set(ids)


def test_a_server_with_a_backlog_of_its_own_leaves_the_sweep_for_later(
        graph: GraphDriver) -> None:
    """Its own queue may hold the facts the sweep would find: it sweeps once it is empty."""
    busy = [True]
    sweeps: list[int] = []
    sweep = EmbedSweep(graph, lambda space, ids: None, 0.05, busy=lambda: busy[0])
    sweep.once = lambda now=None: sweeps.append(1) or 0  # type: ignore[method-assign]
    sweep.start()
    try:
        time.sleep(0.5)  # ten periods
        assert sweeps == []
        busy[0] = False
        wait_for(lambda: bool(sweeps), timeout=10)
    finally:
        sweep.stop()
