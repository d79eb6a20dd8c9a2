"""A write costs in proportion to its request: at most GRAPHMEM_WRITE_MAX_FACTS facts, and
at most GRAPHMEM_WRITE_MAX_STORED_TEXT characters stored (the message once, plus each fact's
raw text, the message again for a fact without one); a larger write is refused before it
reaches the graph, with what to send instead. A transaction Neo4j refuses the memory of is
a clear error, at once, not an internal one after the driver's retries."""

from __future__ import annotations

import pytest
from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.graph.driver import GraphDriver

SURE = 0.9


def test_a_write_of_more_facts_than_the_cap_is_refused(mem: GraphMem) -> None:
    facts = [{"subject": f"s{i}", "value": "v", "confidence": SURE} for i in range(1001)]
    with pytest.raises(InvalidInput, match=r"1001 facts in one write: at most 1000"
                                           r" \(GRAPHMEM_WRITE_MAX_FACTS\)"):
        mem.remember_facts(facts)
    assert mem.active() == []


def test_a_message_copied_into_every_fact_is_refused_before_it_is_stored(
        mem: GraphMem) -> None:
    text = "a long transcript " * 5_000  # 90,000 characters
    facts = [{"subject": f"s{i}", "value": "v", "confidence": SURE} for i in range(100)]
    with pytest.raises(InvalidInput, match=r"would store 9,090,000 characters .* copied into"
                                           r" the raw text of each of its 100 fact\(s\)"):
        mem.remember_facts(facts, text=text)
    assert mem.active() == []
    excerpts = [{**f, "raw": "an excerpt"} for f in facts]
    assert len(mem.remember_facts(excerpts, text=text)) == 100, "each fact's own raw is cheap"


def test_neo4j_refusing_a_transaction_memory_is_a_clear_error_at_once(
        graph: GraphDriver) -> None:
    attempts: list[int] = []

    def greedy(tx: ManagedTransaction) -> None:
        attempts.append(1)
        tx.run("RETURN 1").consume()
        raise Neo4jError._hydrate_neo4j(  # what the server sends when the pool is full
            code="Neo.TransientError.General.MemoryPoolOutOfMemoryError",
            message="The allocation of an extra 137.4 MiB would use more than the limit")

    with pytest.raises(InvalidInput, match="needs more memory than Neo4j allows one"
                                           " transaction .*MemoryPoolOutOfMemoryError"):
        graph.execute(greedy)
    assert attempts == [1], "never retried"
