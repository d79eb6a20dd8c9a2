"""In-memory vector ranking stays exact and current on a real Neo4j: new vectors arrive by
sequence number, retired facts drop out, refined facts are re-embedded, and a space too big
for the cache ranks through Neo4j instead."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.model import HOT_STATUSES
from graphmem.recall.retrieve import VECTOR, Pool
from graphmem.recall.vector_cache import VectorCache

POOL = Pool(HOT_STATUSES)


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": 0.95, **kw}


def crowd(mem: GraphMem, n: int = 60) -> None:
    mem.remember_facts([fact(f"service_{i}_owner", f"team {i}") for i in range(n)])


def top(mem: GraphMem, question: str, n: int = 3) -> tuple[str, ...]:
    return mem._ctx.ranked().rank(mem.space.key, question, POOL, VECTOR, n).ids


@pytest.fixture
def mem(make_plain_mem: Callable[..., GraphMem]) -> GraphMem:
    return make_plain_mem()


def test_a_new_fact_reaches_vector_ranking_right_after_its_write(mem: GraphMem) -> None:
    crowd(mem)
    top(mem, "who owns service 3?")  # the space's vectors are now held in memory
    mem.remember_facts([fact("primary_database", "Postgres")])
    assert top(mem, "Which RDBMS runs in production?")[0] == mem.active("primary_database")[0].id


def test_a_retired_fact_leaves_vector_ranking(mem: GraphMem) -> None:
    crowd(mem)
    mem.remember_facts([fact("primary_database", "Postgres")])
    old = mem.active("primary_database")[0].id
    assert top(mem, "Which RDBMS runs in production?")[0] == old
    mem.remember_facts([fact("primary_database", "MySQL")])
    new = mem.active("primary_database")[0].id
    ranked = top(mem, "Which RDBMS runs in production?", 10)
    assert ranked[0] == new and old not in ranked
    mem.forget(facts=[fact("primary_database", "MySQL")])
    assert new not in top(mem, "Which RDBMS runs in production?", 60)


def test_a_refined_fact_is_ranked_by_its_new_value(mem: GraphMem) -> None:
    crowd(mem)
    mem.remember_facts([fact("office", "Berlin")])
    office = mem.active("office")[0].id
    mem.remember_facts([fact("office", "Berlin, Kreuzberg, next to the fruit market",
                             action="REFINE")])
    assert mem.active("office")[0].id == office
    assert top(mem, "where can I buy bananas and apples?")[0] == office


def test_the_cache_pages_through_everything_stored(mem: GraphMem) -> None:
    crowd(mem, 45)
    assert mem.records.wait_for_embeddings()
    cache = VectorCache(mem.runtime.graph, budget=1000, page=7)
    entry = cache.space(mem.space.key, 384)
    assert entry is not None and len(entry) == 45
    mem.remember_facts([fact("primary_database", "Postgres")])
    assert mem.records.wait_for_embeddings()
    again = cache.space(mem.space.key, 384)
    assert again is entry and len(entry) == 46


def test_a_space_over_the_cache_budget_ranks_through_neo4j(
        make_plain_mem: Callable[..., GraphMem], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="graphmem.recall.vector_cache")
    mem = make_plain_mem(settings={"vector_cache": 10})
    crowd(mem)
    mem.remember_facts([fact("primary_database", "Postgres")])
    assert top(mem, "Which RDBMS runs in production?")[0] == mem.active("primary_database")[0].id
    assert "holds more than GRAPHMEM_VECTOR_CACHE=10 vectors" in caplog.text
    result = mem.recall("what is the primary database?")
    assert result.method == "fused" and result.facts[0].fact.subject == "primary_database"
