"""`graph restore --from-mirror`: the event log rebuilds exactly the graph it mirrored."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.lifecycle.restore import GraphNotEmpty, restore
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation
from support.graph_snapshot import snapshot, wipe

pytestmark = pytest.mark.races

Make = Callable[..., GraphMem]
SURE = 0.9


def build_history(mem: GraphMem, other: GraphMem) -> None:
    """Every kind of event: writes of each action, approvals, policy, an erasure."""
    mem.remember_facts([
        {"subject": "stack", "value": "Redux", "confidence": SURE, "head": "web app",
         "relation": "uses", "tail": "Redux"},
        {"subject": "db", "value": "Postgres", "confidence": SURE},
        {"subject": "tools", "value": "Sentry", "confidence": SURE, "cardinality": "many"},
        {"subject": "tools", "value": "Grafana", "confidence": SURE, "cardinality": "many"},
    ], source="alice", text="we use Redux, Postgres, Sentry and Grafana",
        metadata={"channel": "standup"})
    mem.remember_facts([{"subject": "stack", "value": "Zustand", "confidence": SURE,
                         "action": "SUPERSEDE", "head": "web app", "relation": "uses",
                         "tail": "Zustand"}], source="alice")
    mem.forget(facts=[{"subject": "tools", "value": "Sentry", "confidence": SURE}],
                     source="alice")
    mem.remember_facts([{"subject": "db", "value": "Postgres 16", "action": "REFINE",
                         "confidence": SURE}], source="alice")
    mem.remember_facts([{"subject": "launched", "value": "beta", "kind": "event",
                         "time_ref": "past", "confidence": SURE}], source="alice")
    mem.review.set_reconcile_policy("REVIEW")
    held = mem.remember_facts([{"subject": "owner", "value": "bob", "confidence": SURE}],
                              source="sales")[0]
    rival = mem.remember_facts([{"subject": "owner", "value": "carol", "confidence": SURE}],
                               source="hr")[0]
    assert held.conflict_id is None and rival.conflict_id is not None
    mem.review.resolve_conflict(rival.conflict_id, rival.fact_id or "", note="hr is right")
    flagged = mem.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.4}],
                                 source="alice")[0]
    assert flagged.conflict_id is not None
    mem.review.dismiss_conflict(flagged.conflict_id, note="both hold")
    moved = mem.remember_facts([{"subject": "city", "value": "Oslo", "confidence": SURE}],
                               source="alice")[0]
    undone = mem.review.undo(moved.event_id or "")  # an undo, and an undo undone
    mem.review.undo(undone.event_id)
    mistake = mem.remember_facts([{"subject": "stack", "value": "MobX", "confidence": SURE,
                                   "action": "SUPERSEDE"}], source="alice")[0]
    mem.review.undo(mistake.event_id or "")  # Zustand returns as a copy
    doomed = mem.remember_facts([{"subject": "pin", "value": "1234", "confidence": SURE}],
                                source="alice")[0]
    mem.erasure.delete(fact_id=doomed.fact_id)
    other.remember_facts([{"subject": "plan", "value": "pro"}])
    other.remember_facts([{"subject": "plan", "value": "free", "confidence": SURE}])
    entity_events(mem)


def entity_events(mem: GraphMem) -> None:
    """Entity writes outside remember: a seeded entity, a sweep, a projection rebuild."""
    mem.remember_facts([{"subject": "vendor", "value": "Initech", "confidence": SURE,
                         "head": "web app", "relation": "bought from", "tail": "Initech"}],
                       source="alice")  # no typed Initech yet: a placeholder
    mem.entities.create("company", "Initech")
    mem.entities.create("person", "Dana Scully")  # seeded, no fact mentions her
    swept = mem.entities.sweep_placeholders()
    assert ("unknown:initech", "organisation:initech") in swept.attached
    mem.remember_facts([{"subject": "region", "value": "eu-west", "confidence": SURE,
                         "head": "web app", "relation": "runs in", "tail": "eu-west"}],
                       source="alice")
    rebuilt = mem.entities.rebuild_projection()
    assert rebuilt.removed_about > 0 and rebuilt.facts > 0


def test_restore_rebuilds_what_the_graph_held(make: Make, mirror_runtime: Runtime) -> None:
    mem, other = make(), make()
    build_history(mem, other)
    spaces = sorted([mem.space.key, other.space.key])
    mem.records.drain()
    other.records.drain()
    before = snapshot(mirror_runtime.graph, spaces)
    assert len(before["facts"]) >= 10 and before["conflicts"] and before["projection"]
    wipe(mirror_runtime.graph, spaces)
    assert snapshot(mirror_runtime.graph, spaces)["facts"] == []
    result = restore(mirror_runtime, spaces, embed=False)
    assert result.spaces == tuple(spaces)
    after = snapshot(mirror_runtime.graph, spaces)
    for part in before:
        assert after[part] == before[part], part
    with pytest.raises(GraphNotEmpty, match="already holds"):
        restore(mirror_runtime, [mem.space.key], embed=False)
    # the restored graph takes new writes, and the mirror follows them
    mem.remember_facts([{"subject": "stack", "value": "Jotai", "confidence": SURE}],
                       source="alice")
    mem.records.drain()
    assert check_mirror(mirror_runtime, mem.space.key) == []


@pytest.mark.slow
def test_cli_restores_an_empty_database(private_neo4j: Settings) -> None:
    """The whole path on its own server: fill it, lose it, `graphmem graph restore`."""
    runtime = Runtime.open(private_neo4j)
    runtime.migrate()
    try:
        tenant = isolation.tenant("restore")
        mem, other = (GraphMem(f"{tenant}/{u}/a/r", runtime=runtime) for u in ("u1", "u2"))
        build_history(mem, other)
        mem.records.drain()
        other.records.drain()
        spaces = [mem.space.key, other.space.key]
        before = snapshot(runtime.graph, spaces)
        wipe_all(runtime.graph)
    finally:
        runtime.close()
    env = {**os.environ, "GRAPHMEM_HOME": str(private_neo4j.home),
           "GRAPHMEM_NEO4J_BOLT_PORT": str(private_neo4j.neo4j_bolt_port),
           "GRAPHMEM_NEO4J_HTTP_PORT": str(private_neo4j.neo4j_http_port),
           "GRAPHMEM_DATABASE_URL": private_neo4j.relational_url,
           "GRAPHMEM_EMBEDDING_BASE_URL": str(private_neo4j.embedding_base_url)}
    for name in ("GRAPHMEM_NEO4J_URI", "GRAPHMEM_NEO4J_USER", "GRAPHMEM_NEO4J_PASSWORD",
                 "GRAPHMEM_NEO4J_DATABASE"):  # the private server's own, from its home
        env.pop(name, None)
    cli = [sys.executable, "-c", "from graphmem.cli import main; main()", "graph", "restore"]
    refused = subprocess.run(cli, env=env, capture_output=True, text=True, check=False,
                             timeout=300)
    assert refused.returncode == 1 and "--from-mirror" in refused.stderr
    done = subprocess.run([*cli, "--from-mirror", "--no-embed"], env=env,
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "restored" in done.stdout  # these spaces and any an earlier test left there
    again = subprocess.run([*cli, "--from-mirror", "--no-embed"], env=env,
                           capture_output=True, text=True, check=False, timeout=300)
    assert again.returncode == 1 and "only into an empty database" in again.stderr
    graph = GraphDriver(private_neo4j)
    try:
        assert snapshot(graph, spaces) == before
    finally:
        graph.close()


def wipe_all(graph: GraphDriver) -> None:
    with graph.session() as session:
        session.run("MATCH (n) WHERE NOT n:SchemaVersion DETACH DELETE n").consume()
