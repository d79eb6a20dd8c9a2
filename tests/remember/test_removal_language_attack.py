"""Removal language in a hostile message, through the real write path: the check runs inside
the write transaction that holds the space's lock, so it must decide in linear time. A
quadratic check would take hours on these texts; the timeout marks catch it without asserting
how fast this machine is."""

from __future__ import annotations

import pytest

from graphmem import GraphMem
from graphmem.model import Action
from graphmem.remember.language import MAX_TEXT

MEGABYTE = 1_000_000
NEGATED_REMOVALS = "we did not really drop Redis, " * (MEGABYTE // 30)


@pytest.mark.timeout(60)
def test_a_megabyte_of_negated_removals_is_decided(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "cache", "value": "Redis"}])
    (result,) = mem.remember_facts([{"subject": "cache", "value": "Redis"}],
                                   text=NEGATED_REMOVALS)
    assert result.action == Action.DEDUP  # over the cap: no upgrade, the label stands
    assert [f.value for f in mem.active("cache")] == ["Redis"]


@pytest.mark.timeout(60)
def test_hostile_padding_under_the_cap_is_still_judged(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "cache", "value": "Redis"}])
    padding = ("x" + " " * 99) * ((MAX_TEXT - 100) // 100)
    (result,) = mem.remember_facts([{"subject": "cache", "value": "Redis", "confidence": 0.95}],
                                   text="We dropped Redis." + padding)
    assert result.action == Action.RETRACT
    assert mem.active("cache") == []
