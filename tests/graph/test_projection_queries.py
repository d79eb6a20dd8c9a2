"""The entity graph's named statements, checked without a database: each takes exactly the
parameters its caller passes, and none is orphaned."""

from __future__ import annotations

import pytest

from graphmem.graph.statements import parameters, registry

CALLERS: dict[str, set[str]] = {
    "graph/collisions": {"space", "rows", "threshold", "limit"},
    "graph/counts": {"space"},  # bench/graph
    "graph/entities": {"space", "prefix", "at"},
    "graph/entities_by_key": {"space", "keys"},
    "graph/entity_create": {"space", "key", "type", "name", "norm", "now"},
    "graph/entity_facts": {"space", "key", "as_of", "valid_at"},
    "graph/entity_get": {"space", "key"},
    "graph/entity_history": {"space", "key", "attribute"},
    "graph/expand": {"space", "frontier", "fanout", "budget", "as_of", "valid_at", "starts"},
    "graph/facts_by_id": {"space", "ids"},
    "graph/find_entities": {"space", "query", "limit"},
    "graph/fsck_edges": {"space", "limit"},
    "graph/fsck_orphans": {"space", "limit"},
    "graph/fsck_slots": {"space", "limit"},
    "graph/fsck_unprojected": {"space", "limit"},
    "graph/lock_space": {"space", "now"},
    "graph/project_facts": {"space", "now", "rows"},
    "graph/projectable_facts": {"space", "after_at", "after_id", "limit"},
    "graph/snapshot": {"space"},
    "graph/spaces": set(),
    "graph/subject_as_of": {"space", "subject", "at"},
    "graph/subject_valid_at": {"space", "subject", "at"},
    "graph/sweep_placeholders": {"space", "types"},
    "graph/sync_facts": {"space", "ids"},
    "graph/unproject_about": {"space", "limit"},
    "graph/unproject_edges": {"space", "limit"},
    "graph/vocabulary": {"space", "limit"},
}


@pytest.mark.parametrize("name", sorted(CALLERS))
def test_statement_takes_what_its_caller_passes(name: str) -> None:
    assert parameters(name) == CALLERS[name]


def test_every_graph_statement_has_a_caller() -> None:
    assert {n for n in registry() if n.startswith("graph/")} == set(CALLERS)


def test_relationship_types_are_never_query_text() -> None:
    """Dynamic types come from a parameter or an existing edge, never from a literal."""
    for name in ("graph/project_facts", "graph/sweep_placeholders"):
        text = registry()[name]
        assert "$(row.rel_type)" in text or "$(type(r))" in text


# Statements whose rows become Facts through row_to_fact.
FACT_READS = ("facts/as_of", "facts/get", "facts/history", "facts/hot", "facts/recent_retired",
              "facts/valid_at", "graph/entity_facts", "graph/entity_history",
              "graph/facts_by_id", "graph/subject_as_of", "graph/subject_valid_at")
FACT_COLUMNS = ("id", "space", "subject", "value", "scope", "kind", "time_ref", "status",
                "confidence", "source", "source_ref", "raw", "metadata", "category", "head",
                "relation", "tail", "cardinality", "proposed_action", "revisions")
TIMES = ("valid_from", "valid_to", "recorded_at", "retired_at")


@pytest.mark.parametrize("name", FACT_READS)
def test_fact_reads_project_what_a_fact_needs_with_times_as_text(name: str) -> None:
    """Every column row_to_fact reads, never `{.*}` (it would ship the embedding), and
    times as ISO strings (driver DateTimes cost three times as much to decode)."""
    text = registry()[name]
    assert "f {.*" not in text and "properties(f)" not in text
    for column in FACT_COLUMNS:
        assert f".{column}," in text or f".{column}\n" in text, column
    for column in TIMES:
        assert f"{column}: toString(f.{column})" in text, column
