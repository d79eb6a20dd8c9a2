"""The graph model's declarations against the real database: the migrated schema holds them,
a constraint or index that goes missing is reported, and a conflict read through
`ConflictNode` is what the write stored. neomodel never opens a connection of its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import neomodel

from graphmem import GraphMem
from graphmem.graph import constraints, nodes, reads
from graphmem.graph.driver import GraphDriver
from graphmem.graph.fsck import SCHEMA, schema
from graphmem.model import ConflictKind, ConflictStatus

from support.schema_probe import Probe


def test_the_migrated_database_holds_every_declared_constraint_and_index(
        graph: GraphDriver) -> None:
    assert constraints.missing(graph, nodes.DECLARED) == []
    found = constraints.present(graph)
    assert {p.name for p in found} >= {"fact_id", "entity_key", "fact_slot", "fact_search",
                                       "fact_vector"}


def test_a_declared_constraint_or_index_that_goes_missing_is_reported(
        graph: GraphDriver, schema_probe: Probe) -> None:
    declared = (*nodes.DECLARED, schema_probe.declaration)
    assert schema(graph, declared).ok
    schema_probe.drop(schema_probe.constraint)
    check = schema(graph, declared)
    assert check.name == SCHEMA and not check.ok and check.fails
    assert check.problems == (f"missing uniqueness constraint on :{schema_probe.label}(id)",)
    schema_probe.drop(schema_probe.index)
    assert schema(graph, declared).problems == (
        f"missing range index on :{schema_probe.label}(space, key)",
        f"missing uniqueness constraint on :{schema_probe.label}(id)")
    assert schema(graph).ok, "the model's own declarations are untouched"


def test_a_conflict_reads_through_its_declaration(mem: GraphMem) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.4}])
    (listed,) = mem.review.conflicts()
    shown, facts = reads.conflict(mem.runtime.graph, mem.space.key, listed.id)
    assert shown == listed and {f.value for f in facts} == {"MySQL", "Postgres"}
    assert listed.kind == ConflictKind.LOW_CONFIDENCE
    assert listed.status == ConflictStatus.OPEN and listed.severity == "low"
    assert listed.created_at is not None and listed.created_at >= before
    assert listed.created_at.tzinfo is not None and listed.closed_at is None
    assert listed.by == "" and listed.winner is None and len(listed.fact_ids) == 2
    mem.review.dismiss_conflict(listed.id, note="both heard", by="alice")
    (closed,) = mem.review.conflicts("dismissed")
    assert (closed.id, closed.note, closed.by) == (listed.id, "both heard", "alice")
    assert closed.closed_at is not None and closed.closed_at >= listed.created_at


def test_neomodel_holds_no_connection_of_its_own(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
    mem.review.conflicts()
    mem.records.fsck()
    assert neomodel.db.driver is None, "neomodel connected: graphmem's driver is the only one"
