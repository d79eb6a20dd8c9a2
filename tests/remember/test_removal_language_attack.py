"""Removal language in a hostile message, through the real write path: the check runs inside
the write transaction that holds the space's lock, so it must decide in linear time."""

from __future__ import annotations

import time

from graphmem import GraphMem
from graphmem.model import Action
from graphmem.remember.language import MAX_TEXT

MEGABYTE = 1_000_000
NEGATED_REMOVALS = "we did not really drop Redis, " * (MEGABYTE // 30)


def test_a_megabyte_of_negated_removals_is_decided_well_under_a_second(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "cache", "value": "Redis"}])
    started = time.perf_counter()
    (result,) = mem.remember_facts([{"subject": "cache", "value": "Redis"}],
                                   text=NEGATED_REMOVALS)
    elapsed = time.perf_counter() - started
    assert result.action == Action.DEDUP  # over the cap: no upgrade, the label stands
    assert [f.value for f in mem.active("cache")] == ["Redis"]
    assert elapsed < 1.0, f"the write took {elapsed:.2f}s"


def test_hostile_padding_under_the_cap_is_still_judged(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "cache", "value": "Redis"}])
    padding = ("x" + " " * 99) * ((MAX_TEXT - 100) // 100)
    started = time.perf_counter()
    (result,) = mem.remember_facts([{"subject": "cache", "value": "Redis", "confidence": 0.95}],
                                   text="We dropped Redis." + padding)
    elapsed = time.perf_counter() - started
    assert result.action == Action.RETRACT
    assert mem.active("cache") == []
    assert elapsed < 1.0, f"the write took {elapsed:.2f}s"
