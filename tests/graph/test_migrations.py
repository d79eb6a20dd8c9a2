"""Schema versions: the graph's on the real Neo4j, the relational one on SQLite and Postgres.

The session's Neo4j is shared with other tests (and other people), so these tests never
lower the version node: they re-apply what is there and check that nothing changes, and the
one that re-runs every statement (dropping and rebuilding indexes) runs on a private server.
"""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.graph import migrations as graph_migrations
from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import statements
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation

CONSTRAINTS = {"fact_id", "space_key", "entity_key", "conflict_id", "outbox_id", "message_id",
               "fact_vector_fact"}
INDEXES = {"fact_slot", "fact_space_status", "fact_message", "conflict_space_status",
           "outbox_pending", "fact_search", "entity_name", "fact_vector", "message_space",
           "fact_vector_seq_order", "fact_recorded", "fact_held_from", "fact_retired_at",
           "fact_refined_at", "fact_valid_from", "fact_valid_to"}
UNREAD = {"fact_text"}  # dropped by version 5: no statement read it


def rows(graph: GraphDriver, cypher: str, **params: Any) -> list[dict[str, Any]]:
    with graph.session() as session:
        return [record.data() for record in session.run(cypher, params)]


def test_graph_schema_is_current_and_up_again_is_a_no_op(graph: GraphDriver) -> None:
    latest = graph_migrations.latest_version()
    assert graph_migrations.current_version(graph) == latest
    assert graph_migrations.pending(graph) == []
    assert graph_migrations.up(graph) == []
    assert graph_migrations.current_version(graph) == latest


def test_one_schema_version_node(graph: GraphDriver) -> None:
    found = rows(graph, "MATCH (v:SchemaVersion {id: 'graph'}) RETURN v.version AS version,"
                        " v.name AS name, v.applied_at IS NOT NULL AS stamped")
    last = graph_migrations.migrations()[-1]
    assert found == [{"version": last.version, "name": last.name, "stamped": True}]


def test_constraints_and_indexes_are_installed(graph: GraphDriver) -> None:
    constraints = {r["name"] for r in rows(graph, "SHOW CONSTRAINTS YIELD name")}
    indexes = {r["name"]: r["state"] for r in rows(graph, "SHOW INDEXES YIELD name, state")}
    assert constraints >= CONSTRAINTS
    assert set(indexes) >= INDEXES
    assert not set(indexes) & UNREAD
    assert all(indexes[name] == "ONLINE" for name in INDEXES)


def model_schema(graph: GraphDriver) -> set[tuple[str, str]]:
    """The model's indexes and constraints by name, leaving out other tests' probe labels.

    The shared server may gain or lose a probe label's schema at any moment (another worker's
    schema-check test), so the model's own names are compared, never a count.
    """
    probe = "any(l IN coalesce(labelsOrTypes, []) WHERE l STARTS WITH 'GraphmemProbe')"
    found = rows(graph, f"SHOW INDEXES YIELD name, labelsOrTypes WHERE NOT {probe}"
                        " RETURN 'index' AS kind, name")
    found += rows(graph, f"SHOW CONSTRAINTS YIELD name, labelsOrTypes WHERE NOT {probe}"
                         " RETURN 'constraint' AS kind, name")
    return {(r["kind"], r["name"]) for r in found}


def test_reapplying_every_statement_is_harmless(private_neo4j: Settings) -> None:
    """A step that was half applied (crash before the version node moved) can run again.

    On a server of its own: re-applying drops and rebuilds the full-text index, which every
    other test's lexical search and schema check on the shared server would see missing.
    """
    graph = GraphDriver(private_neo4j)
    try:
        before = model_schema(graph)
        assert {name for _, name in before} >= CONSTRAINTS | INDEXES
        for migration in graph_migrations.migrations():
            with graph.session() as session:
                for statement in statements(migration.query_name):
                    session.run(statement).consume()
        assert model_schema(graph) == before
    finally:
        graph.close()


def test_runtime_migrate_covers_both_stores(
    settings: Settings, graph: GraphDriver, relational_url: str
) -> None:
    store = RelationalStore(relational_url)
    runtime = Runtime(settings, graph, store)
    try:
        first = runtime.migrate()
        assert first == {
            "graph": [],
            "relational": [f"{m.version:03d}_{m.name}" for m in store_migrations.MIGRATIONS],
        }
        assert runtime.migrate() == {"graph": [], "relational": []}
        assert runtime.readiness() == {"neo4j": "ok", "relational": "ok"}
    finally:
        store.close()


def test_readiness_names_an_outdated_relational_schema(
    settings: Settings, graph: GraphDriver, relational_url: str
) -> None:
    store = RelationalStore(relational_url)
    try:
        checks = Runtime(settings, graph, store).readiness()
    finally:
        store.close()
    assert checks["neo4j"] == "ok"
    assert "run `graphmem migrate up`" in checks["relational"]


@pytest.fixture
def cli_env(settings: Settings, relational_url: str) -> dict[str, str]:
    env = {"GRAPHMEM_HOME": str(settings.home), "GRAPHMEM_DATABASE_URL": relational_url,
           "GRAPHMEM_NEO4J_BOLT_PORT": str(settings.neo4j_bolt_port)}
    if settings.neo4j_uri:
        env["GRAPHMEM_NEO4J_URI"] = settings.neo4j_uri
    user, password = settings.neo4j_auth()
    env.update(GRAPHMEM_NEO4J_USER=user, GRAPHMEM_NEO4J_PASSWORD=password,
               GRAPHMEM_NEO4J_DATABASE=settings.neo4j_database)
    return env


def test_migrate_commands(graph: GraphDriver, cli_env: dict[str, str]) -> None:
    runner = CliRunner()
    latest_graph = graph_migrations.latest_version()
    latest_store = store_migrations.latest_version()

    status = runner.invoke(app, ["migrate", "status"], env=cli_env)
    assert status.exit_code == 0, status.output
    assert f"graph: version {latest_graph} of {latest_graph}" in status.output
    assert f"relational: version 0 of {latest_store}" in status.output

    first = runner.invoke(app, ["migrate", "up"], env=cli_env)
    assert first.exit_code == 0, first.output
    assert "graph: already current" in first.output
    assert "relational: 001_events" in first.output

    second = runner.invoke(app, ["migrate", "up"], env=cli_env)
    assert second.exit_code == 0, second.output
    assert second.output.splitlines() == ["graph: already current", "relational: already current"]


def test_a_spaces_vector_sequence_moves_off_its_space_node(graph: GraphDriver) -> None:
    """A space whose Space node still numbers its vectors (before version 7) keeps counting
    from where it was, on its VectorSeq node; moving again changes nothing."""
    space = isolation.space("vseq")
    rows(graph, "CREATE (:Space {key: $space, vector_seq: 41})", space=space)
    moves = [s for s in statements("migrations/007_vector_seq") if s.lstrip().startswith("MATCH")]
    for _ in range(2):
        for statement in moves:
            rows(graph, statement)
        found = rows(graph, "MATCH (s:Space {key: $space}), (v:VectorSeq {space: s.key})"
                            " RETURN s.vector_seq AS old, v.seq AS seq", space=space)
        assert found == [{"old": None, "seq": 41}]


def test_a_facts_vector_moves_to_a_fact_vector_node(graph: GraphDriver) -> None:
    """A fact that still carries its vector (before version 10) gets a FactVector node with
    the same vector and sequence number; the fact keeps neither; moving again changes
    nothing, and a fact that never had a vector gets no node."""
    space = isolation.space("fvec")
    vector = [0.5] * 384
    rows(graph, "CREATE (:Fact {id: $space + ':a', space: $space, embedding: $v,"
                " vector_seq: 7}), (:Fact {id: $space + ':b', space: $space})",
         space=space, v=vector)
    moves = [s for s in statements("migrations/010_fact_vectors")
             if s.lstrip().startswith("MATCH")]
    assert len(moves) == 1
    for _ in range(2):
        rows(graph, moves[0])
        found = rows(graph, "MATCH (f:Fact {space: $space}) OPTIONAL MATCH"
                            " (v:FactVector {fact_id: f.id}) RETURN f.id AS id,"
                            " f.embedding AS old, f.vector_seq AS old_seq, v.space AS space,"
                            " v.seq AS seq, v.embedding AS vector ORDER BY id", space=space)
        assert found == [
            {"id": f"{space}:a", "old": None, "old_seq": None, "space": space, "seq": 7,
             "vector": vector},
            {"id": f"{space}:b", "old": None, "old_seq": None, "space": None, "seq": None,
             "vector": None}]
