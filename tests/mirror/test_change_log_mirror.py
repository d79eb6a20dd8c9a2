"""The change feed's older half, on SQLite and on Postgres: once the graph let a space's
applied entries go (pruned, or dropped by an erasure), a cursor still reads every later
change from the mirror's `events` table, in the graph's commit order, erased values never."""

from __future__ import annotations

from collections.abc import Callable

from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.service.changes import END, FACT_CHANGED
from graphmem.service.feed import ChangeLog


def test_a_cursor_older_than_the_graphs_outbox_reads_the_mirror(
        make: Callable[..., GraphMem]) -> None:
    mem = make()
    for value in ("one", "two", "three"):
        mem.remember_facts([{"subject": f"s_{value}", "value": value}])
    log = ChangeLog(mem.runtime)
    before, _, _ = log.after(mem.space.key, (0, "", END))
    mem.records.drain()
    floor, kept = outbox.since(mem.runtime.graph, mem.space.key, 0, "", 10)
    assert floor == 0 and len(kept) == 3
    secret = mem.remember_facts([{"subject": "pin", "value": "4321"}])[0]
    mem.erasure.delete(fact_id=secret.fact_id)  # drops the applied entries, rewrites the mirror's
    floor, kept = outbox.since(mem.runtime.graph, mem.space.key, 0, "", 10)
    assert floor > 0 and [e.kind for e in kept] == ["erase"]
    after, reached, more = log.after(mem.space.key, before[0].key)
    assert not more and reached > before[-1].key
    assert [(c.channel, c.change, c.value) for c in after] == [
        (FACT_CHANGED, "remembered", "two"), (FACT_CHANGED, "remembered", "three"),
        (FACT_CHANGED, "erased", None), ("pendingChanged", "erased", None)]
    assert all("4321" != c.value for c in after)
