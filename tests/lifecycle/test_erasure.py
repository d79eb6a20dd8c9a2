"""Erasure: facts leave Neo4j, the mirror, the event log, embeddings and caches for good;
the receipt verifies; the audit says it happened without saying what."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMem, verify_receipt
from graphmem.errors import InvalidInput, NotFound, StoreUnavailable
from graphmem.lifecycle import erasure
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.mirror import event_log
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.event_log import event_binding
from graphmem.runtime import Runtime

from support import isolation
from support.mirror_support import event_texts, mirrored, stored_bytes, wait_for

pytestmark = pytest.mark.races

Make = Callable[..., GraphMem]
SECRET = "Kilimanjaro-4471"


def graph_facts(runtime: Runtime, space: str) -> dict[str, dict[str, object]]:
    with runtime.graph.session() as s:
        return {r["f"]["id"]: r["f"] for r in s.run(
            "MATCH (f:Fact {space: $space}) RETURN f {.*} AS f", space=space)}


def graph_count(runtime: Runtime, space: str, label: str) -> int:
    with runtime.graph.session() as s:
        query = {"Conflict": "MATCH (n:Conflict {space: $space}) RETURN count(n) AS n",
                 "Entity": "MATCH (n:Entity {space: $space}) RETURN count(n) AS n",
                 "Outbox": "MATCH (n:Outbox {space: $space}) RETURN count(n) AS n"}[label]
        return int(s.run(query, space=space).single()["n"])


def history(mem: GraphMem) -> dict[str, str]:
    """A subject with a past: the secret, superseded, then retracted (a tombstone names it)."""
    ids = {}
    ids["secret"] = mem.remember_facts([{"subject": "city", "value": SECRET,
                                         "confidence": 0.9}], source="crm")[0].fact_id or ""
    ids["next"] = mem.remember_facts([{"subject": "city", "value": "Nairobi",
                                       "confidence": 0.9}], source="crm")[0].fact_id or ""
    ids["kept"] = mem.remember_facts([{"subject": "plan", "value": "pro", "confidence": 0.9,
                                       "head": "acme", "relation": "plan", "tail": "pro"}],
                                     source="crm")[0].fact_id or ""
    return ids


def test_delete_by_fact_id_erases_it_everywhere(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    ids = history(mem)
    mem.records.drain()
    assert SECRET in "".join(event_texts(mirror_runtime, mem.space.key))
    assert mirrored(mirror_runtime, mem.space.key)[ids["secret"]][1] == SECRET
    assert mirror_runtime.mirror.cipher.cached > 0
    receipt = mem.erasure.delete(fact_id=ids["secret"])
    assert mirror_runtime.mirror.cipher.cached == 0, "hard deletes clear the decrypt cache"
    body = receipt["receipt"]
    assert (body["kind"], body["scope"], body["facts"], body["mirror"]) == (
        "erasure", "fact", 1, "erased")
    assert body["fact_ids"] == [ids["secret"]]
    assert verify_receipt(receipt, mem.records.export_public_key())
    assert ids["secret"] not in graph_facts(mirror_runtime, mem.space.key)
    assert {ids["next"], ids["kept"]} <= set(graph_facts(mirror_runtime, mem.space.key))
    assert ids["secret"] not in mirrored(mirror_runtime, mem.space.key)
    assert not any(SECRET in text for text in event_texts(mirror_runtime, mem.space.key))
    assert check_mirror(mirror_runtime, mem.space.key) == []
    rows = mem.records.audit_log(limit=5, operation="delete")
    assert rows[0].outcome == "ok"
    detail = json.loads(rows[0].detail)
    rewritten = detail.pop("rewritten")
    assert len(detail.pop("digest")) == 64
    assert detail == {"event": body["event_id"], "facts": 1, "kind": "erase", "scope": "fact",
                      "all": False}
    stored = {str(r[0]): event_log.row_digest(tuple(r)) for r in mirror_runtime.store.query(
        f"SELECT {event_log.COLUMNS} FROM events WHERE space = ?", (mem.space.key,))}  # noqa: S608
    assert rewritten and all(stored[e] == d for e, d in rewritten.items()), (
        "the events it rewrote, with the digests of their rows now")
    assert not any(SECRET in r.detail for r in mem.records.audit_log(limit=100))
    assert mem.records.verify_audit().ok
    with pytest.raises(NotFound):
        mem.erasure.delete(fact_id=ids["secret"])


def test_erasing_a_fact_takes_the_text_of_the_write_it_came_from(
        make: Make, mirror_runtime: Runtime) -> None:
    """The write's text is stored once and may hold the erased value: it goes from the graph
    and the event log; the write's other facts keep no raw text."""
    mem = make()
    text = f"we moved to {SECRET}, and the plan is pro"
    stored = mem.remember_facts([{"subject": "city", "value": SECRET, "confidence": 0.9},
                                 {"subject": "plan", "value": "pro", "confidence": 0.9}],
                                text=text, source="crm")
    mem.records.drain()
    assert {f.raw for f in mem.active()} == {text}
    assert SECRET in "".join(event_texts(mirror_runtime, mem.space.key))
    mem.erasure.delete(fact_id=stored[0].fact_id)
    with mirror_runtime.graph.session() as s:
        texts = [r["text"] for r in s.run("MATCH (m:Message {space: $space})"
                                          " RETURN m.text AS text", space=mem.space.key)]
    assert texts == []
    assert [(f.subject, f.raw) for f in mem.active()] == [("plan", "")]
    assert not any(SECRET in t for t in event_texts(mirror_runtime, mem.space.key))
    assert check_mirror(mirror_runtime, mem.space.key) == []


def test_erasure_takes_the_tombstones_that_name_the_value(make: Make,
                                                          mirror_runtime: Runtime) -> None:
    mem = make()
    kept = mem.remember_facts([{"subject": "tool", "value": "Redis", "confidence": 0.9}],
                              source="ops")[0].fact_id
    mem.forget(facts=[{"subject": "tool", "value": "Redis", "confidence": 0.9}], source="ops")
    values = {f["value"] for f in graph_facts(mirror_runtime, mem.space.key).values()}
    assert "(retracted: Redis)" in values
    receipt = mem.erasure.delete(fact_id=kept)
    assert receipt["receipt"]["facts"] == 2
    assert graph_facts(mirror_runtime, mem.space.key) == {}
    assert mirrored(mirror_runtime, mem.space.key) == {}


def test_delete_by_subject_keeps_the_other_subjects(make: Make,
                                                    mirror_runtime: Runtime) -> None:
    mem = make()
    ids = history(mem)
    receipt = mem.erasure.delete(subject="City")
    assert receipt["receipt"]["facts"] == 2
    assert set(graph_facts(mirror_runtime, mem.space.key)) == {ids["kept"]}
    assert set(mirrored(mirror_runtime, mem.space.key)) == {ids["kept"]}
    assert mem.history("city").entries == ()
    assert [f.value for f in mem.active("plan")] == ["pro"]
    assert check_mirror(mirror_runtime, mem.space.key) == []
    assert mem.erasure.delete(subject="nothing_here")["receipt"]["facts"] == 0
    with pytest.raises(InvalidInput):
        mem.erasure.delete()


def test_delete_all_empties_the_space_in_both_stores(make: Make,
                                                     mirror_runtime: Runtime) -> None:
    mem, other = make(), make()
    history(mem)
    mem.review.set_reconcile_policy("REVIEW")
    mem.remember_facts([{"subject": "plan", "value": "free", "confidence": 0.9}],
                       source="sales")
    assert graph_count(mirror_runtime, mem.space.key, "Conflict") == 1
    assert graph_count(mirror_runtime, mem.space.key, "Entity") > 0
    other.remember_facts([{"subject": "city", "value": SECRET}])
    receipt = mem.erasure.delete_all()
    assert receipt["receipt"]["scope"] == "space"
    assert graph_facts(mirror_runtime, mem.space.key) == {}
    for label in ("Conflict", "Entity"):
        assert graph_count(mirror_runtime, mem.space.key, label) == 0
    assert graph_count(mirror_runtime, mem.space.key, "Outbox") == 1, "only the erase entry"
    assert mirrored(mirror_runtime, mem.space.key) == {}
    texts = event_texts(mirror_runtime, mem.space.key)
    assert len(texts) == 1 and json.loads(texts[0])["all"] is True
    assert [f.value for f in other.active()] == [SECRET], "other spaces are untouched"
    assert check_mirror(mirror_runtime, mem.space.key) == []
    mem.remember_facts([{"subject": "city", "value": "Oslo"}])
    mem.records.drain()
    assert [v for _, v in mirrored(mirror_runtime, mem.space.key).values()] == ["Oslo"]


def test_a_space_too_large_for_one_transaction_is_erased_a_page_at_a_time(
        make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    history(mem)
    mem.remember_facts([{"subject": f"service_{i}", "value": f"team {i}", "confidence": 0.9,
                         "head": f"service {i}", "relation": "owned by", "tail": f"team {i}"}
                        for i in range(11)])
    every = set(graph_facts(mirror_runtime, mem.space.key))
    assert len(every) == 14 and graph_count(mirror_runtime, mem.space.key, "Entity") > 11
    mem.records.drain()
    receipt = erasure.erase(mirror_runtime, mem.space.key, erasure.Target("space"), page=4)
    assert receipt["receipt"]["facts"] == 14
    assert set(receipt["receipt"]["fact_ids"]) == every, "the receipt names every page"
    assert graph_facts(mirror_runtime, mem.space.key) == {}
    assert graph_count(mirror_runtime, mem.space.key, "Entity") == 0
    mem.records.drain()
    assert mirrored(mirror_runtime, mem.space.key) == {}
    assert check_mirror(mirror_runtime, mem.space.key) == []


def test_erasure_leaves_no_trace_in_the_stored_bytes(make: Make,
                                                     mirror_runtime: Runtime) -> None:
    """Not even the ciphertext: SQLite overwrites deleted cells (secure_delete)."""
    mem = make()
    ids = history(mem)
    mem.records.record_decision("visit", ["city"])
    mem.records.drain()
    store = mirror_runtime.store
    sealed = [r[0] for r in store.query("SELECT value FROM mirror_facts WHERE id = ?",
                                        (ids["secret"],))]
    sealed += [r[0] for r in store.query("SELECT snapshot FROM decisions WHERE space = ?",
                                         (mem.space.key,))]
    cipher = mirror_runtime.mirror.cipher
    sealed += [r[2] for r in store.query("SELECT event_id, kind, payload FROM events"
                                         " WHERE space = ?", (mem.space.key,))
               if SECRET in (cipher.open(r[2], event_binding(r[0], mem.space.key, r[1])) or "")]
    assert len(sealed) == 3  # the fact's value, the decision snapshot, the event that added it
    mem.erasure.delete(subject="city")
    decisions = store.query("SELECT snapshot, digest FROM decisions WHERE space = ?",
                            (mem.space.key,))
    assert decisions[0] == (None, ""), "the snapshot goes, and the digest over its values"
    if store.url.startswith("sqlite"):
        with sqlite3.connect(store.url[len("sqlite:///"):]) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    blobs = stored_bytes(mirror_runtime)
    for blob in blobs:
        assert SECRET.encode() not in blob
        for token in sealed:
            assert token[3:40].encode() not in blob, "erased ciphertext is still stored"


def test_the_longest_retention_period_still_names_a_date() -> None:
    """`now - period` must be a date: a period reaching before year 1 (835,312 days, found by
    the MCP fuzz) is refused as bad input, not an overflow in the purge."""
    longest = timedelta(days=erasure.MAX_RETENTION_DAYS)
    assert erasure.days(longest) == erasure.MAX_RETENTION_DAYS
    assert datetime(2026, 1, 1, tzinfo=UTC) - longest > datetime.min.replace(tzinfo=UTC)
    with pytest.raises(InvalidInput, match="at most 100,000 days"):
        erasure.days(835_312.66)


def test_purge_expired_removes_old_history_only(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    ids = history(mem)
    with pytest.raises(InvalidInput, match="no retention period"):
        mem.erasure.purge_expired()
    assert mem.erasure.set_retention(1) == "retention: 1 days"
    assert mem.erasure.purge_expired()["receipt"]["facts"] == 0, "nothing retired long enough ago"
    time.sleep(0.4)
    assert mem.erasure.set_retention(timedelta(milliseconds=300)) == "retention: 3.47222e-06 days"
    receipt = mem.erasure.purge_expired()
    assert receipt["receipt"]["scope"] == "expired" and receipt["receipt"]["facts"] == 1
    assert set(graph_facts(mirror_runtime, mem.space.key)) == {ids["next"], ids["kept"]}
    assert set(mirrored(mirror_runtime, mem.space.key)) == {ids["next"], ids["kept"]}
    assert mem.erasure.set_retention(None) == "retention: default"
    assert mem.erasure.purge_expired(30)["receipt"]["facts"] == 0


def test_subtree_erasure_takes_every_space_of_a_user(make: Make,
                                                     mirror_runtime: Runtime) -> None:
    first = make()
    tenant = first.space.tenant
    second = make(f"{tenant}/u/other-agent/r")
    neighbour = make(f"{tenant}/someone-else/a/r")
    for mem in (first, second, neighbour):
        mem.remember_facts([{"subject": "city", "value": SECRET}])
    receipt = first.erasure.erase_subtree("user")
    body = receipt["receipt"]
    assert body["scope"] == "user" and body["spaces"] == sorted([first.space.key, second.space.key])
    assert body["facts"] == 2 and len(body["space_receipts"]) == 2
    assert verify_receipt(receipt, first.records.export_public_key())
    assert first.active() == [] and second.active() == []
    assert [f.value for f in neighbour.active()] == [SECRET]
    whole = neighbour.erasure.erase_subtree("tenant")
    assert whole["receipt"]["scope"] == "tenant"
    assert neighbour.active() == []
    assert mirrored(mirror_runtime, neighbour.space.key) == {}


def test_a_subtree_erasure_rotates_the_transaction_log_only_when_it_erased_facts(
        make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rotating pads the log with a megabyte in three transactions: an erasure that found
    nothing (a user erased again, a user never seen) has no value to push out of it."""
    rotations: list[object] = []
    real = erasure.txlog.rotate
    monkeypatch.setattr(erasure.txlog, "rotate", lambda graph: rotations.append(graph)
                        or real(graph))
    mem = make()
    mem.remember_facts([{"subject": "city", "value": SECRET}])
    assert mem.erasure.erase_subtree("user")["receipt"]["facts"] == 1
    assert len(rotations) == 1
    again = mem.erasure.erase_subtree("user")["receipt"]
    assert again["facts"] == 0 and again["spaces"] == [], "nothing left to erase"
    assert len(rotations) == 1


def test_nothing_is_erased_while_the_relational_store_is_down(
        make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    ids = history(mem)
    real = mirror_runtime.store
    mirror_runtime.store = RelationalStore("postgresql://x:y@127.0.0.1:1/none")
    try:
        with pytest.raises(StoreUnavailable):
            mem.erasure.delete(fact_id=ids["secret"])
    finally:
        mirror_runtime.store.close()
        mirror_runtime.store = real
    assert ids["secret"] in graph_facts(mirror_runtime, mem.space.key)


def test_forget_stays_soft_and_keeps_history(make: Make) -> None:
    mem = make()
    mem.remember_facts([{"subject": "tool", "value": "Redis", "confidence": 0.9}], source="o")
    mem.forget(facts=[{"subject": "tool", "value": "Redis", "confidence": 0.9}], source="o")
    assert mem.active("tool") == []
    assert [e.fact.value for e in mem.history("tool").entries] == ["Redis",
                                                                    "(retracted: Redis)"]


def test_embeddings_go_with_the_fact(embedding_runtime: Runtime) -> None:
    mem = GraphMem(isolation.space("embed"), runtime=embedding_runtime)
    fact_id = mem.remember_facts([{"subject": "city", "value": SECRET}])[0].fact_id

    def embedded() -> bool:  # vectors are computed in the background after the commit
        with embedding_runtime.graph.session() as s:
            found = s.run("MATCH (v:FactVector {fact_id: $id})"
                          " RETURN v.embedding IS NOT NULL AS e", id=fact_id).single()
            return found is not None and bool(found["e"])

    wait_for(embedded, timeout=60)
    mem.erasure.delete(fact_id=fact_id)
    with embedding_runtime.graph.session() as s:
        assert s.run("MATCH (f:Fact {id: $id}) RETURN f", id=fact_id).single() is None
        assert s.run("MATCH (v:FactVector {fact_id: $id}) RETURN v", id=fact_id).single() is None
        hits = s.run("CALL db.index.vector.queryNodes('fact_vector', 50, $v)"
                     " YIELD node RETURN collect(node.fact_id) AS ids",
                     v=embedding_runtime.embedder.query(f"city {SECRET}")).single()
        assert fact_id not in hits["ids"]
    mem.close()


def test_erasing_a_subject_drops_what_a_decision_receipt_kept_of_it(
        make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    mem.remember_facts([{"subject": "home_address", "value": SECRET, "confidence": 0.9},
                        {"subject": "plan", "value": "Pro", "confidence": 0.9}])
    about_home = mem.records.record_decision("send a letter", ["home_address"])["receipt"]
    about_plan = mem.records.record_decision("bill", ["plan"])["receipt"]
    mem.erasure.delete(subject="home_address")
    mem.records.drain()
    with pytest.raises(NotFound):
        mem.records.receipt(about_home["id"])
    assert mem.records.receipt(about_plan["id"])["receipt"]["subjects"] == ["plan"]
    rows = mirror_runtime.store.query(
        "SELECT receipt_id, digest, snapshot FROM decisions WHERE space = ? ORDER BY created_at",
        (mem.space.key,))
    assert [(r[0], r[1], r[2] is None) for r in rows] == [
        (about_home["id"], "", True), (about_plan["id"], about_plan["digest"], False)]
