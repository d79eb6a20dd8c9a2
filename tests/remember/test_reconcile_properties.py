"""Property: after any random sequence of proposals on a real graph, the invariants hold."""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem
from graphmem.runtime import Runtime

SUBJECTS = ("db", "cache", "state")
VALUES = ("MySQL", "Postgres", "Redis", "Zustand", "MobX")

proposal = st.fixed_dictionaries({
    "subject": st.sampled_from(SUBJECTS),
    "value": st.sampled_from(VALUES),
    "scope": st.sampled_from(("global", "global", "mobile")),
    "action": st.sampled_from(("ADD", "SUPERSEDE", "RETRACT", "REFINE", "COEXIST", "FLAG",
                               "SKIP")),
    "kind": st.sampled_from(("state", "state", "state", "event")),
    "time_ref": st.sampled_from(("current", "current", "past", "future")),
    "confidence": st.sampled_from((0.4, 0.8, 0.95, 1.0)),
})
write = st.tuples(st.lists(proposal, min_size=1, max_size=4),
                  st.sampled_from(("", "crm", "bot")),
                  st.sampled_from(("", "we dropped Redis", "maybe we dropped MySQL?")))

SINGLE_SLOT_VIOLATIONS = """
MATCH (f:Fact {space: $space, status: 'ACTIVE', kind: 'state', cardinality: 'one'})
WHERE coalesce(f.coexist, false) = false
WITH f.subject AS subject, f.scope AS scope, count(*) AS n
WHERE n > 1
RETURN subject, scope, n
"""
ORPHAN_SUPERSEDED = """
MATCH (f:Fact {space: $space, status: 'SUPERSEDED'})
WHERE NOT EXISTS { (:Fact)-[:SUPERSEDES|RETRACTS]->(f) }
RETURN f.id AS id
"""
RETIRED_IDS = """
MATCH (f:Fact {space: $space}) WHERE f.status IN ['SUPERSEDED', 'HISTORICAL']
RETURN collect(f.id) AS ids
"""


def _check(runtime: Runtime, mem: GraphMem) -> None:
    with runtime.graph.session() as session:
        assert session.run(SINGLE_SLOT_VIOLATIONS, space=mem.key).data() == []
        assert session.run(ORPHAN_SUPERSEDED, space=mem.key).data() == []
        retired = set(session.run(RETIRED_IDS, space=mem.key).single()["ids"])
    assert not retired & {f.id for f in mem.active()}


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=st.lists(write, min_size=1, max_size=6))
def test_invariants_hold_after_any_sequence(runtime: Runtime,
                                            writes: list[tuple[list[dict[str, Any]], str, str]]
                                            ) -> None:
    with GraphMem(space=f"prop-{uuid.uuid4().hex[:10]}", runtime=runtime) as mem:
        for facts, source, text in writes:
            mem.remember_facts(facts, text=text, source=source)
        _check(runtime, mem)
