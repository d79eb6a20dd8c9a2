"""The entity graph's named statements, checked without a database: each takes exactly the
parameters its caller passes, and none is orphaned."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.graph.statements import parameters, registry

TIMES_ARGS = ("as_of", "valid_at", "valid_start", "valid_end")
PAGE_ARGS = ("after", "before", "backward", "limit")
CALLERS: dict[str, set[str]] = {
    "facts/collisions": {"space", "rows", "threshold", "limit"},
    "projection/counts": {"space"},  # bench/graph
    "entities/list": {"space", "prefix", "at"},
    "entities/by_key": {"space", "keys"},
    "entities/create": {"space", "key", "type", "name", "norm", "now"},
    "entities/facts": {"space", "key", "as_of", "valid_at", "limit"},
    "entities/get": {"space", "key"},
    "entities/history": {"space", "key", "attribute"},
    "traversal/expand": {"space", "frontier", "fanout", "budget", "as_of", "valid_at", "starts"},
    "traversal/facts_by_id": {"space", "ids"},
    "traversal/expand_groups": {"space", "frontier", "per_group", "probe", "as_of", "valid_at"},
    "traversal/relation_types": {"space"},
    "traversal/follow": {"space", "frontier", "type", "forward", "cap", "as_of", "valid_at"},
    "entities/find": {"space", "query", "limit"},
    "fsck/edges": {"space", "limit"},
    "fsck/orphans": {"space", "limit"},
    "fsck/slots": {"space", "limit"},
    "fsck/unprojected": {"space", "limit"},
    "fsck/vectors": {"space", "limit"},
    "spaces/lock": {"space", "now"},
    "projection/project_facts": {"space", "now", "rows"},
    "projection/projectable_facts": {"space", "after_at", "after_id", "limit"},
    "projection/snapshot": {"space"},
    "spaces/list": set(),
    "traversal/subject_as_of": {"space", "subject", "at"},
    "traversal/subject_valid_at": {"space", "subject", "at"},
    "entities/sweep_placeholders": {"space", "types"},
    "projection/sync_facts": {"space", "ids"},
    "projection/unproject_about": {"space", "limit"},
    "projection/unproject_edges": {"space", "limit"},
    "entities/vocabulary": {"space", "limit"},
    "entities/vocabulary_at": {"space", "limit", *TIMES_ARGS},
    "entities/page": {"space", "prefix", "search", *TIMES_ARGS, *PAGE_ARGS},
    "entities/count": {"space", "prefix", "search", *TIMES_ARGS},
    "entities/history_page": {"space", "key", "attribute", "scope", "believed", *TIMES_ARGS,
                              *PAGE_ARGS},
    "entities/history_count": {"space", "key", "attribute", "scope", "believed", *TIMES_ARGS},
    "entities/aliases": {"space", "keys", "limit"},
}


@pytest.mark.parametrize("name", sorted(CALLERS))
def test_statement_takes_what_its_caller_passes(name: str) -> None:
    assert parameters(name) == CALLERS[name]


GROUPS = ("entities", "projection", "traversal")


def test_every_graph_statement_has_a_caller() -> None:
    assert {n for n in registry() if n.split("/")[0] in GROUPS} == {
        n for n in CALLERS if n.split("/")[0] in GROUPS}


def test_relationship_types_are_never_query_text() -> None:
    """Dynamic types come from a parameter or an existing edge, never from a literal."""
    for name in ("projection/project_facts", "entities/sweep_placeholders"):
        text = registry()[name]
        assert "$(row.rel_type)" in text or "$(type(r))" in text


# Statements whose rows become Facts through row_to_fact.
FACT_READS = ("facts/as_of", "facts/get", "facts/history", "facts/hot", "facts/subject_hot",
              "facts/recent_retired",
              "facts/valid_at", "entities/facts", "entities/history",
              "traversal/facts_by_id", "traversal/subject_as_of", "traversal/subject_valid_at",
              "remember/lock_and_load", "facts/page", "facts/by_ids", "facts/superseded_by",
              "facts/history_page", "entities/history_page")
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


CYPHER_DIR = Path(__file__).resolve().parents[2] / "cypher"


def test_the_fact_columns_are_written_once() -> None:
    """Each fact read names the shared fragment; no statement file repeats the column list."""
    for name in FACT_READS:
        source = (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8")
        assert "f {@include(fragments/fact_columns)" in source, name
    for path in CYPHER_DIR.rglob("*.cypher"):
        if path.parent.name != "fragments":
            assert ".cardinality, .proposed_action" not in path.read_text(encoding="utf-8"), path
