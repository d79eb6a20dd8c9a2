"""`fsck` on a graph corrupted on purpose: every check fires, and only its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.graph import nodes
from graphmem.graph.fsck import SCHEMA
from graphmem.graph.migrations import migrations
from graphmem.graph.statements import statements
from graphmem.lifecycle import fsck as checks
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.schema_probe import Probe

# Corruptions, written the way a bug or a hand edit would: straight Cypher, parameters only.
REVIVE = "MATCH (f:Fact {id: $id}) SET f.status = 'ACTIVE'"
CUT_CHAIN = "MATCH (:Fact)-[r:SUPERSEDES]->(f:Fact {id: $id}) DELETE r"
EDGE_STATUS = ("MATCH (:Entity {space: $space})-[r]->(:Entity) WHERE r.fact_id = $id"
               " SET r.status = 'ACTIVE'")
DROP_EDGE = "MATCH (:Entity {space: $space})-[r]->(:Entity) WHERE r.fact_id = $id DELETE r"
DROP_ABOUT = "MATCH (f:Fact {id: $id})-[a:ABOUT]->() DELETE a"

SLOTS = "one active value per single-valued slot"
ORPHANS = "every SUPERSEDED fact is superseded or retracted by another, or undone"
EDGES = "projection edges match their facts"
VECTORS = "every stored vector belongs to a fact of its space"
STRAY_VECTOR = ("CREATE (:FactVector {fact_id: $id, space: $space, seq: 0,"
                " embedding: [x IN range(1, 384) | 0.5]})")
DUPLICATES = "near-duplicate entities (name cosine >= 0.95)"


def corrupt(mem: GraphMem, statement: str, **params: Any) -> None:
    with mem.runtime.graph.session() as session:
        session.run(statement, {"space": mem.space.key, **params}).consume()


def failing(report: checks.Report) -> set[str]:
    """The graph checks that fired (the mirror's own check is asserted where it matters)."""
    return {c.name for c in report.checks if not c.ok} - {checks.MIRROR}


def settled(mem: GraphMem) -> GraphMem:
    """The mirror applies the outbox asynchronously; fsck compares once it caught up."""
    mem.runtime.mirror.drain()
    return mem


@pytest.fixture
def history(mem: GraphMem) -> dict[str, str]:
    """A clean space: a superseded attribute, a superseded relation, a live relation."""
    mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9},
                        {"head": "Alice", "head_type": "person", "relation": "works at",
                         "tail": "Acme", "tail_type": "company", "confidence": 0.9},
                        {"head": "Billing", "head_type": "service", "relation": "calls",
                         "tail": "Auth", "tail_type": "service", "confidence": 0.9}])
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9},
                        {"head": "Alice", "head_type": "person", "relation": "works at",
                         "tail": "Globex", "tail_type": "company", "confidence": 0.9}])
    entries = [*mem.history("db").entries, *mem.history("alice_works_at").entries]
    old = {e.fact.value: e.fact.id for e in entries}
    live = mem.active("billing_calls")[0].id
    settled(mem)
    return {"old_db": old["MySQL"], "old_job": old["Acme"], "live_edge": live}


def test_a_clean_graph_passes(mem: GraphMem, history: dict[str, str]) -> None:
    report = mem.records.fsck(strict=True)
    assert report.ok and failing(report) == set()
    assert [c.name for c in report.checks] == [SCHEMA, SLOTS, ORPHANS, EDGES, VECTORS,
                                               DUPLICATES, checks.MIRROR]


def test_a_declared_constraint_missing_from_the_database_fires(
        mem: GraphMem, history: dict[str, str], schema_probe: Probe,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nodes, "DECLARED", (*nodes.DECLARED, schema_probe.declaration))
    before = mem.records.fsck()
    assert before.ok, str(before)
    schema_probe.drop(schema_probe.constraint)
    report = mem.records.fsck()
    assert not report.ok and failing(report) == {SCHEMA}
    assert f"missing uniqueness constraint on :{schema_probe.label}(id)" in str(
        report.check(SCHEMA))


def test_two_active_values_on_a_single_valued_slot_fire(mem: GraphMem,
                                                        history: dict[str, str]) -> None:
    corrupt(mem, REVIVE, id=history["old_db"])
    report = mem.records.fsck()
    assert not report.ok and failing(report) == {SLOTS}
    assert "db (global): 2 ACTIVE facts" in str(report)


def test_a_superseded_fact_with_no_successor_fires(mem: GraphMem,
                                                   history: dict[str, str]) -> None:
    corrupt(mem, CUT_CHAIN, id=history["old_db"])
    report = mem.records.fsck()
    assert not report.ok and failing(report) == {ORPHANS}
    assert f"#{history['old_db']} db = MySQL" in str(report.check(ORPHANS))


def test_an_edge_disagreeing_with_its_fact_fires(mem: GraphMem,
                                                 history: dict[str, str]) -> None:
    corrupt(mem, EDGE_STATUS, id=history["old_job"])
    report = mem.records.fsck()
    assert failing(report) == {EDGES}
    assert "edge ACTIVE, fact" in str(report) and "SUPERSEDED" in str(report.check(EDGES))


def test_a_missing_edge_or_about_fires(mem: GraphMem, history: dict[str, str]) -> None:
    corrupt(mem, DROP_EDGE, id=history["live_edge"])
    assert "projection edge missing" in str(mem.records.fsck().check(EDGES))
    corrupt(mem, DROP_ABOUT, id=history["live_edge"])
    assert "no ABOUT edge" in str(mem.records.fsck().check(EDGES))
    mem.entities.rebuild_projection()
    assert mem.records.fsck().ok


def test_a_vector_whose_fact_is_gone_fires(mem: GraphMem, history: dict[str, str]) -> None:
    corrupt(mem, STRAY_VECTOR, id=f"{mem.space.key}:erased")
    report = mem.records.fsck()
    assert failing(report) == {VECTORS}
    assert f"vector of #{mem.space.key}:erased: the fact is gone" in str(report.check(VECTORS))


def test_near_duplicate_entities_are_reported_not_merged(mem: GraphMem,
                                                         history: dict[str, str]) -> None:
    mem.entities.create("organisation", "Acme Corp")
    mem.entities.create("product", "acme corp")
    report = mem.records.fsck()
    dupes = report.check(DUPLICATES)
    assert report.ok, "candidates only: they fail the run under strict"
    assert "Acme Corp (organisation) ~ acme corp (product)" in str(dupes)
    assert not mem.records.fsck(strict=True).ok
    assert {e.key for e in mem.entities.all()} >= {"organisation:acme corp", "product:acme corp"}


def test_the_mirror_check_fires_when_the_graph_was_changed_behind_its_back(
        mem: GraphMem, history: dict[str, str]) -> None:
    corrupt(mem, REVIVE, id=history["old_db"])
    mirror = mem.records.fsck().check(checks.MIRROR)
    assert not mirror.ok and history["old_db"] in str(mirror)


def reinstall(runtime: Runtime, names: tuple[str, ...]) -> None:
    """Run again the migration statements (all IF NOT EXISTS) that create `names`."""
    with runtime.graph.session() as session:
        for statement in [s for m in migrations() for s in statements(m.query_name)
                          if any(f" {name} " in s for name in names)]:
            session.run(statement).consume()


@pytest.mark.slow
def test_the_models_own_constraint_and_index_dropped_on_a_private_server_fire(
        private_neo4j: Settings, settings: Settings) -> None:
    """The real declarations on a server of the test's own: the shared one is never altered."""
    assert private_neo4j.bolt_uri != settings.bolt_uri
    runtime = Runtime.open(private_neo4j)
    runtime.migrate()
    dropped = ("fact_id", "fact_slot")
    mem = GraphMem(isolation.tenant(), runtime=runtime)
    try:
        assert mem.records.fsck().check(SCHEMA).ok
        with runtime.graph.session() as session:
            session.run("DROP CONSTRAINT fact_id").consume()
            session.run("DROP INDEX fact_slot").consume()
        report = mem.records.fsck()
        assert not report.ok and failing(report) == {SCHEMA}
        assert report.check(SCHEMA).problems == (
            "missing range index on :Fact(space, subject, scope, status)",
            "missing uniqueness constraint on :Fact(id)")
        reinstall(runtime, dropped)
        assert mem.records.fsck().check(SCHEMA).ok
    finally:
        reinstall(runtime, dropped)
        mem.close()
        runtime.close()


# ---- the command line ------------------------------------------------------------------------
@pytest.fixture
def cli_env(mem: GraphMem, tmp_path: Path) -> Iterator[dict[str, str]]:
    yield {"GRAPHMEM_DATABASE_URL": mem.runtime.settings.relational_url,
           "GRAPHMEM_HOME": str(mem.runtime.settings.home)}


def test_cli_fsck_exits_non_zero_on_a_problem(mem: GraphMem, history: dict[str, str],
                                              cli_env: dict[str, str]) -> None:
    runner = CliRunner()
    clean = runner.invoke(app, ["fsck", "--space", mem.space.key], env=cli_env)
    assert clean.exit_code == 0, clean.output
    assert f"space {mem.space.key}:" in clean.output and "FAIL" not in clean.output
    corrupt(mem, CUT_CHAIN, id=history["old_db"])
    broken = runner.invoke(app, ["fsck", "--space", mem.space.key], env=cli_env)
    assert broken.exit_code == 1 and f"FAIL  {ORPHANS}: 1 problem(s)" in broken.output


def test_cli_fsck_names_a_missing_declared_index(
        mem: GraphMem, history: dict[str, str], cli_env: dict[str, str], schema_probe: Probe,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nodes, "DECLARED", (*nodes.DECLARED, schema_probe.declaration))
    schema_probe.drop(schema_probe.index)
    result = CliRunner().invoke(app, ["fsck", "--space", mem.space.key], env=cli_env)
    assert result.exit_code == 1, result.output
    assert f"FAIL  {SCHEMA}: 1 problem(s)" in result.output
    assert f"missing range index on :{schema_probe.label}(space, key)" in result.output


def test_cli_graph_rebuild_and_sweep(mem: GraphMem, history: dict[str, str],
                                     cli_env: dict[str, str]) -> None:
    corrupt(mem, DROP_EDGE, id=history["live_edge"])
    runner = CliRunner()
    rebuilt = runner.invoke(app, ["graph", "rebuild", "--space", mem.space.key], env=cli_env)
    assert rebuilt.exit_code == 0 and "projection rebuilt from 3 fact(s)" in rebuilt.output
    swept = runner.invoke(app, ["graph", "sweep", "--space", mem.space.key], env=cli_env)
    assert swept.exit_code == 0 and "0 placeholder(s) attached" in swept.output
    assert mem.records.fsck().ok
