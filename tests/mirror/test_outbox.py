"""The outbox and the mirror on the real stores: every graph change reaches the relational
store once, in order, encrypted; audit rows for every operation, denials included."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from graphmem import Caller, GraphMem
from graphmem.errors import AccessDenied, NotFound
from graphmem.graph import outbox
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.mirror import apply as applying
from graphmem.runtime import Runtime

from support.mirror_support import mirrored, stored_bytes, wait_for

Make = Callable[..., GraphMem]


def graph_outbox(runtime: Runtime, space: str) -> list[dict[str, object]]:
    with runtime.graph.session() as s:
        return [r.data() for r in s.run(
            "MATCH (o:Outbox {space: $space}) RETURN o.id AS id, o.seq AS seq, o.done AS done,"
            " o.kind AS kind ORDER BY o.seq", space=space)]


def test_writes_reach_the_mirror_once_and_in_order(make: Make,
                                                   mirror_runtime: Runtime) -> None:
    mem = make()
    first = mem.remember_facts([{"subject": "state", "value": "Redux", "confidence": 0.9}],
                               source="alice")[0]
    mem.remember_facts([{"subject": "state", "value": "Zustand", "action": "SUPERSEDE",
                         "confidence": 0.9}, {"subject": "db", "value": "Postgres"}],
                       source="alice")
    mem.forget(facts=[{"subject": "db", "value": "Postgres"}])
    mem.records.drain()
    rows = mirrored(mirror_runtime, mem.space.key)
    facts = [e.fact for subject in ("state", "db") for e in mem.history(subject).entries]
    assert rows == {f.id: (f.status.value, f.value) for f in facts}
    assert rows[first.fact_id] == ("SUPERSEDED", "Redux")
    entries = graph_outbox(mirror_runtime, mem.space.key)
    assert [e["kind"] for e in entries] == ["remember"] * 3
    assert all(e["done"] for e in entries)
    seqs = [e["seq"] for e in entries]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    events = mirror_runtime.store.query(
        "SELECT event_id FROM events WHERE space = ? ORDER BY seq", (mem.space.key,))
    assert [e[0] for e in events] == [e["id"] for e in entries]
    assert check_mirror(mirror_runtime, mem.space.key) == []


def test_applying_an_entry_twice_changes_nothing(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    mem.remember_facts([{"subject": "plan", "value": "pro"}])
    with mirror_runtime.graph.session() as s:
        s.run("MATCH (o:Outbox {space: $space}) SET o.done = false", space=mem.space.key).consume()
    entries = outbox.pending(mirror_runtime.graph, mirror_runtime.mirror.store_id, 100,
                             [mem.space.key])
    mem.records.drain()
    before = mirror_runtime.store.query("SELECT count(*) FROM events WHERE space = ?",
                                        (mem.space.key,))
    assert applying.apply(mirror_runtime.store, mirror_runtime.mirror.cipher,
                          mirror_runtime.mirror.signer, entries) == []
    assert mirror_runtime.store.query("SELECT count(*) FROM events WHERE space = ?",
                                      (mem.space.key,)) == before == [(1,)]
    assert len(mirrored(mirror_runtime, mem.space.key)) == 1


def test_approvals_and_policy_reach_the_mirror(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    mem.review.set_reconcile_policy("REVIEW")
    mem.remember_facts([{"subject": "owner", "value": "ann"}], source="hr")
    held = mem.remember_facts([{"subject": "owner", "value": "bob"}], source="sales")[0]
    assert held.conflict_id is not None
    mem.review.resolve_conflict(held.conflict_id, held.fact_id)
    mem.records.drain()
    assert check_mirror(mirror_runtime, mem.space.key) == []
    kinds = [e["kind"] for e in graph_outbox(mirror_runtime, mem.space.key)]
    assert kinds == ["policy", "remember", "remember", "settle"]
    assert mirrored(mirror_runtime, mem.space.key)[held.fact_id] == ("ACTIVE", "bob")


def test_content_columns_are_encrypted_at_rest(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    secrets = {"value": "Zanzibar-7741-blue", "subject": "favourite_islandx",
               "raw": "the raw sentence quokka-9931", "source": "source-wombat-5512",
               "meta": "meta-narwhal-3392", "head": "entity-okapi-8820"}
    mem.remember_facts([{"subject": secrets["subject"], "value": secrets["value"],
                         "raw": secrets["raw"], "head": secrets["head"], "relation": "likes",
                         "tail": secrets["value"]}], source=secrets["source"],
                       metadata={"note": secrets["meta"]})
    mem.records.record_decision("travel", [secrets["subject"]])
    mem.records.drain()
    assert mirrored(mirror_runtime, mem.space.key) != {}
    blobs = stored_bytes(mirror_runtime)
    assert blobs and sum(len(b) for b in blobs) > 0
    for name, text in secrets.items():
        for blob in blobs:
            assert text.encode() not in blob, f"{name} is stored in the clear"
    plain = mirror_runtime.store.query("SELECT id, status, scope, confidence, recorded_at"
                                       " FROM mirror_facts WHERE space = ?", (mem.space.key,))
    assert plain[0][1:3] == ("ACTIVE", "global")


def test_every_operation_is_audited_denials_included(make: Make,
                                                     mirror_runtime: Runtime) -> None:
    owner = make()
    owner.remember_facts([{"subject": "plan", "value": "pro"}])
    reader = make(owner.space.key, caller=Caller("bob", frozenset({"read"})))
    assert [f.value for f in reader.active()] == ["pro"]
    with pytest.raises(AccessDenied):
        reader.remember_facts([{"subject": "plan", "value": "free"}])
    with pytest.raises(AccessDenied):
        reader.erasure.delete_all()
    with pytest.raises(NotFound):
        owner.records.fact("f-missing")
    owner.review.pending()  # calls conflicts() and flagged(): one row, not three
    rows = [(r.caller, r.operation, r.outcome) for r in reversed(owner.records.audit_log(limit=20))]
    assert rows == [
        ("local", "remember_facts", "ok"), ("bob", "active", "ok"),
        ("bob", "remember_facts", "denied"), ("bob", "delete_all", "denied"),
        ("local", "fact", "error"), ("local", "pending", "ok"),
    ]
    denied = owner.records.audit_log(limit=20, operation="remember_facts")[0]
    assert json.loads(denied.detail) == {
        "reason": "Access denied: 'bob' lacks the write capability"}
    report = owner.records.verify_audit()
    assert report.ok, report.problems


def test_audit_log_stays_inside_the_tenant(make: Make) -> None:
    a, b = make(), make()
    a.active()
    b.active()
    assert {r.tenant for r in a.records.audit_log(limit=100)} == {a.space.tenant}
    assert {r.space for r in b.records.audit_log(limit=100)} == {b.space.key}


def test_a_relational_store_that_fails_never_fails_a_write(make: Make,
                                                           mirror_runtime: Runtime) -> None:
    """Rows and entries wait (outbox in Neo4j, audit rows in memory) and catch up."""
    mem = make()
    store = mirror_runtime.store
    with store.transaction() as cur:
        cur.execute("ALTER TABLE events RENAME TO events_away")
    try:
        ids = [mem.remember_facts([{"subject": f"s{i}", "value": "v"}])[0].fact_id
               for i in range(3)]
        assert [f.id for f in mem.active()] == ids
        pending, _ = outbox.pending_count(mirror_runtime.graph, mem.space.key)
        assert pending == 3
    finally:
        with store.transaction() as cur:
            cur.execute("ALTER TABLE events_away RENAME TO events")
    mem.records.drain()  # (the worker may have caught up already: it retries every interval)
    assert set(mirrored(mirror_runtime, mem.space.key)) == set(ids)
    assert mem.records.verify_audit().ok


def test_the_drainer_catches_up_by_itself(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    store = mirror_runtime.store
    with store.transaction() as cur:
        cur.execute("ALTER TABLE mirror_facts RENAME TO mirror_facts_away")
    try:
        fact_id = mem.remember_facts([{"subject": "x", "value": "y"}])[0].fact_id
        wait_for(lambda: mirror_runtime.mirror.last_error is not None)
    finally:
        with store.transaction() as cur:
            cur.execute("ALTER TABLE mirror_facts_away RENAME TO mirror_facts")
    wait_for(lambda: fact_id in mirrored(mirror_runtime, mem.space.key)
             and mirror_runtime.mirror.last_error is None,
             timeout=mirror_runtime.settings.mirror_interval * 5)
