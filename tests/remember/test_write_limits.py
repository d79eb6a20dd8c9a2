"""A write costs in proportion to its request: its message is stored once (the facts without a
raw text of their own name it), at most GRAPHMEM_WRITE_MAX_FACTS facts, and at most
GRAPHMEM_WRITE_MAX_STORED_TEXT characters stored (the message, plus each fact's own raw
text); a larger write is refused before it reaches the graph, with what to send instead. A
transaction Neo4j refuses the memory of is a clear error, at once, not an internal one after
the driver's retries."""

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


def test_a_message_is_stored_once_however_many_facts_take_it(
        mem: GraphMem, graph: GraphDriver) -> None:
    text = "a long transcript " * 5_000  # 90,000 characters
    facts = [{"subject": f"s{i}", "value": "v", "confidence": SURE} for i in range(100)]
    results = mem.remember_facts(facts, text=text)
    assert len(results) == 100
    with graph.session() as session:
        stored = session.run(
            "MATCH (f:Fact {space: $space}) OPTIONAL MATCH (m:Message {id: f.message_id})"
            " RETURN count(DISTINCT m) AS messages, sum(size(coalesce(f.raw, ''))) AS copied,"
            " sum(size(m.text)) AS referenced", space=mem.space.key).single()
    assert stored is not None
    assert (stored["messages"], stored["copied"]) == (1, 0)
    assert stored["referenced"] == 100 * len(text), "every fact names the one message"
    assert {f.raw for f in mem.active()} == {text}, "each fact reads the message as its raw"
    mem.remember_facts([{"subject": "t", "value": "w", "raw": "an excerpt", "confidence": SURE}],
                       text=text)
    assert [f.raw for f in mem.active() if f.subject == "t"] == ["an excerpt"]


def test_a_write_storing_more_text_than_the_cap_is_refused_before_it_is_stored(
        mem: GraphMem) -> None:
    excerpt = "x" * 10_000
    facts = [{"subject": f"s{i}", "value": "v", "raw": excerpt, "confidence": SURE}
             for i in range(900)]
    with pytest.raises(InvalidInput, match=r"would store 9,000,010 characters .*"
                                           r"GRAPHMEM_WRITE_MAX_STORED_TEXT"):
        mem.remember_facts(facts, text="0123456789")
    assert mem.active() == []


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
