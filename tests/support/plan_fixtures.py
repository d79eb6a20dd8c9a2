"""A database for the query-plan tests, once empty and once populated.

Neo4j's planner costs a plan from the store's counts and index statistics, so one statement
can be planned with an index seek on a populated database and with a label scan on an empty
one. `plan_graph` gives each plan test both: the private server's database (support/
mirror_fixtures.py, the suite's alone, so it may be wiped) first emptied, then filled through
graphmem's own write path with facts in several spaces, superseded values, entities, projection
edges and open conflicts. Each time the index statistics are resampled and the plan cache is
cleared, so the plans are made for the data as it is.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.runtime import Runtime
from graphmem.settings import Settings

SPACES = 8
ROUNDS = 3
FACTS = 20


def wipe(graph: GraphDriver) -> None:
    """Every node but the schema version (constraints and indexes stay)."""
    with graph.session() as session:
        session.run("MATCH (n) WHERE NOT n:SchemaVersion"
                    " CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS").consume()


def replan(graph: GraphDriver) -> None:
    """Fresh index statistics and an empty plan cache (db.prepareForReplanning does both)."""
    with graph.session() as session:
        session.run("CALL db.prepareForReplanning()").consume()


def _round(space: int, n: int) -> list[dict[str, object]]:
    plain = [{"subject": f"attr_{k}", "value": f"value {n}-{k}", "confidence": 0.9,
              "category": "critical" if k == 0 else None} for k in range(FACTS // 2)]
    related = [{"head": f"Person {k}", "head_type": "person", "relation": "works_on",
                "tail": f"Project {(k + n + space) % 6}", "tail_type": "project",
                "confidence": 0.9} for k in range(FACTS // 2)]
    return plain + related


def populate(settings: Settings) -> int:
    """Facts in SPACES spaces, each slot rewritten ROUNDS times, and a conflict per space;
    returns how many Fact nodes the database holds."""
    runtime = Runtime.open(settings)
    runtime.migrate()
    try:
        for space in range(SPACES):
            with GraphMem(f"plan-{space}/u/a/r", runtime=runtime) as mem:
                for n in range(ROUNDS):
                    mem.remember_facts(_round(space, n), text=f"round {n} in space {space}")
                doubt = mem.remember_facts([{"subject": "attr_1", "value": "doubtful",
                                             "action": "SUPERSEDE", "confidence": 0.3}])
                assert doubt[0].action.value == "FLAG"
                mem.records.drain()
        with runtime.graph.session() as session:
            return int(session.run("MATCH (f:Fact) RETURN count(f) AS n").single(strict=True)["n"])
    finally:
        runtime.close()


@pytest.fixture(scope="module", params=["empty", "populated"])
def plan_graph(request: pytest.FixtureRequest, private_neo4j: Settings) -> Iterator[GraphDriver]:
    """The private server's database, empty or populated, for EXPLAIN."""
    graph = GraphDriver(private_neo4j)
    try:
        wipe(graph)
        if request.param == "populated":
            assert populate(private_neo4j) >= SPACES * ROUNDS * FACTS
        replan(graph)
        yield graph
    finally:
        wipe(graph)
        graph.close()
