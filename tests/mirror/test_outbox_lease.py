"""Hosts sharing the stores: an entry its writer never applied (the host died between its
graph commit and its mirror write) is claimed by another host's sweep once the lease is over,
applied once, and never by two sweepers at a time."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.mirror_support import NO_EMBEDDER, close_runtime, mirrored, open_runtime, with_store

pytestmark = pytest.mark.races

SHORT = 0.2  # seconds: the lease of the host that takes over


@pytest.fixture
def hosts(settings: Settings, graph: GraphDriver,
          relational_url: str) -> Iterator[dict[str, Runtime]]:
    """Over one relational store: a writer that dies right after its commits, a host whose
    lease is long and one whose lease is short."""
    made = {name: open_runtime(with_store(settings, relational_url, outbox_lease_seconds=lease,
                                          **NO_EMBEDDER), graph)
            for name, lease in (("dead", 30.0), ("patient", 30.0), ("eager", SHORT))}
    made["dead"].mirror._ensure_thread = lambda: None  # type: ignore[method-assign]
    yield made
    for rt in made.values():
        close_runtime(rt)


def applied_events(rt: Runtime, space: str) -> list[str]:
    return [str(r[0]) for r in rt.store.query(
        "SELECT event_id FROM events WHERE space = ? ORDER BY graph_seq", (space,))]


def dead_writes(rt: Runtime, count: int) -> tuple[str, list[str]]:
    """`count` writes committed to the graph that their writer never applied to the mirror."""
    with GraphMem(isolation.space(), runtime=rt) as mem:
        ids = [mem.remember_facts([{"subject": f"s{i}", "value": "v"}])[0].fact_id
               for i in range(count)]
        return mem.space.key, ids


def test_a_dead_writers_entries_wait_out_the_lease_then_another_host_applies_them_once(
        hosts: dict[str, Runtime]) -> None:
    key, ids = dead_writes(hosts["dead"], 3)
    assert outbox.pending_count(hosts["patient"].graph, key)[0] == 3
    hosts["patient"].mirror.sweep()  # within the lease: the writer may still apply them
    assert outbox.pending_count(hosts["patient"].graph, key)[0] == 3
    assert applied_events(hosts["patient"], key) == []

    time.sleep(SHORT * 1.5)
    assert hosts["eager"].mirror.sweep() == 3
    hosts["eager"].mirror.mark_applied()
    assert outbox.pending_count(hosts["eager"].graph, key)[0] == 0
    events = applied_events(hosts["eager"], key)
    assert len(events) == len(set(events)) == 3
    assert set(mirrored(hosts["eager"], key)) == set(ids)
    with GraphMem(key, runtime=hosts["patient"]) as mem:
        assert mem.records.verify_audit().ok


def test_two_sweepers_never_claim_the_same_space(hosts: dict[str, Runtime]) -> None:
    keys = {dead_writes(hosts["dead"], 1)[0] for _ in range(6)}
    time.sleep(SHORT * 1.5)
    eager = hosts["eager"]
    claims = [eager.mirror._claims, hosts["patient"].mirror._claims]
    claims[1].holder = "another host"
    got: list[set[str]] = [set(), set()]
    start = threading.Barrier(2)

    def sweep(n: int) -> None:
        start.wait()
        got[n] = set(claims[n].stale_spaces(SHORT)) & keys

    threads = [threading.Thread(target=sweep, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not got[0] & got[1]
    assert got[0] | got[1] == keys
    # a claim is the holder's for a lease: the other sweeper takes it only once it lapsed
    loser = 1 if got[0] else 0
    assert not set(claims[loser].stale_spaces(SHORT)) & got[1 - loser]
    time.sleep(SHORT * 1.5)
    assert set(claims[loser].stale_spaces(SHORT)) >= got[1 - loser]
