"""What an export holds: as of an instant, for a whole tenant (an erased user's spaces leave
no trace), and sealed content only for a caller who may read it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.errors import AccessDenied
from graphmem.lifecycle.transfer.records import FACT_FIELDS, FACT_TIMES, LINKS, iso
from graphmem.service.context import Caller

from support.transfer_support import export_lines

Make = Callable[..., GraphMem]
T1, T2, T3 = (datetime(2024, m, 1, tzinfo=UTC) for m in (1, 4, 8))


def timeline(mem: GraphMem) -> None:
    for value, at in (("Free", T1), ("Pro", T2), ("Team", T3)):
        mem.remember_facts([{"subject": "plan", "value": value, "confidence": 0.9,
                             "recorded_at": at.isoformat()}], source="crm")
    mem.remember_facts([{"subject": "seats", "value": "5", "confidence": 0.9,
                         "recorded_at": T1.isoformat()}], source="crm")
    mem.remember_facts([{"subject": "seats", "value": "7", "action": "REFINE",
                         "confidence": 0.9, "recorded_at": T3.isoformat()}], source="crm")


def test_an_export_as_of_an_instant_holds_memory_as_it_was_then(make_mem: Make,
                                                                tmp_path: Path) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    source = make_mem(f"{tenant}/source/a/r")
    timeline(source)
    middle = datetime(2024, 6, 1, tzinfo=UTC)
    lines = export_lines(source, as_of=middle)
    facts = [r for r in lines if r["type"] == "fact"]
    assert sorted((r["subject"], r["value"], r["status"]) for r in facts) == [
        ("plan", "Free", "SUPERSEDED"), ("plan", "Pro", "ACTIVE"), ("seats", "5", "ACTIVE")]
    assert lines[0]["as_of"] == middle.isoformat()
    path = tmp_path / "then.jsonl"
    source.transfer.export(path, as_of=middle)
    copy = make_mem(f"{tenant}/copy/a/r")
    copy.transfer.import_memory(path)
    assert sorted((f.subject, f.value) for f in copy.active()) == sorted(
        (f.subject, f.value) for f in source.active(as_of=middle))


def test_an_erased_users_data_never_appears_in_a_tenant_export(make_mem: Make) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    alice = make_mem(f"{tenant}/alice-7741/a/r")
    bob = make_mem(f"{tenant}/bob/a/r")
    alice.remember_facts([{"subject": "city", "value": "Kilimanjaro-4471", "confidence": 0.9,
                           "head": "alice-7741", "relation": "lives in",
                           "tail": "Kilimanjaro-4471"}])
    alice.records.record_decision("book a flight", ["city"])
    bob.remember_facts([{"subject": "city", "value": "Oslo", "confidence": 0.9}])
    alice.erasure.erase_subtree("user")
    text = "\n".join(json.dumps(r) for r in export_lines(bob, tenant=True))
    assert "Oslo" in text
    assert "alice-7741" not in text and "Kilimanjaro-4471" not in text


def test_sealed_content_is_decrypted_only_for_a_caller_with_verify(make_mem: Make) -> None:
    space = f"t-{uuid.uuid4().hex[:12]}/u/a/r"
    owner = make_mem(space)
    owner.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    owner.records.record_decision("migrate billing off MySQL", ["db"])
    auditor = make_mem(space, caller=Caller("auditor", frozenset({"read", "verify"})))
    reader = make_mem(space, caller=Caller("reader", frozenset({"read"})))
    opened = [r for r in export_lines(auditor) if r["type"] == "decision"]
    assert opened[0]["action"] == "migrate billing off MySQL" and not opened[0]["sealed"]
    assert opened[0]["snapshot"][0]["value"] == "Postgres" and opened[0]["receipt"]
    sealed = [r for r in export_lines(reader) if r["type"] == "decision"]
    assert sealed[0]["sealed"] and sealed[0]["action"] is None
    assert sealed[0]["snapshot"] is None and sealed[0]["receipt"] is None
    assert sealed[0]["digest"] == opened[0]["digest"]
    nobody = make_mem(space, caller=Caller("nobody", frozenset({"write"})))
    with pytest.raises(AccessDenied, match="read"):
        export_lines(nobody)


def test_a_tenant_export_imports_into_another_tenant(make_mem: Make, tmp_path: Path) -> None:
    tenant, other = (f"t-{uuid.uuid4().hex[:12]}" for _ in range(2))
    for user, value in (("ann", "Postgres"), ("ben", "MySQL")):
        make_mem(f"{tenant}/{user}/a/r").remember_facts([{"subject": "db", "value": value,
                                                          "confidence": 0.9}])
    path = tmp_path / "tenant.jsonl"
    make_mem(f"{tenant}/ann/a/r").transfer.export(path, tenant=True)
    report = make_mem(f"{other}/default/default/default").transfer.import_memory(path, tenant=True)
    assert sorted(report.spaces) == [f"{other}/ann/a/r", f"{other}/ben/a/r"]
    assert [f.value for f in make_mem(f"{other}/ben/a/r").active()] == ["MySQL"]


def test_a_fact_record_holds_every_stored_value_under_its_own_name(make_mem: Make) -> None:
    mem = make_mem(f"t-{uuid.uuid4().hex[:12]}/fields/a/r")
    mem.remember_facts([{"head": "Billing", "head_type": "service", "relation": "calls",
                         "tail": "Auth", "tail_type": "team", "cardinality": "many",
                         "confidence": 0.8}], source="alice", text="billing calls auth",
                       metadata={"channel": "standup"})
    timeline(mem)
    moved = mem.remember_facts([{"subject": "region", "value": "us-east",
                                 "confidence": 0.9}])[0]
    mem.review.undo(mem.review.undo(moved.event_id or "").event_id)  # undone, then redone
    with mem.runtime.graph.session() as session:
        stored = {row["node"]["id"]: row for row in session.run(
            "MATCH (f:Fact {space: $space})"
            " RETURN f {.*, raw: coalesce(f.raw, COLLECT {"
            "   MATCH (m:Message {id: f.message_id}) RETURN m.text }[0])} AS node,"
            " [(f)-[r:SUPERSEDES]->(o) | o.id] AS supersedes,"
            " [(f)-[r:RETRACTS]->(o) | o.id] AS retracts,"
            " [(f)-[r:RESTORES]->(o) | o.id] AS restores", space=mem.space.key)}
    facts = [r for r in export_lines(mem) if r["type"] == "fact"]
    assert {r["id"] for r in facts} == set(stored)
    assert any(r["supersedes"] for r in facts) and any(r["head_type"] for r in facts)
    assert any(r["restores"] for r in facts) and any(r["undone_by"] for r in facts)
    for record in facts:
        node = stored[record["id"]]["node"]
        assert {k: record[k] for k in FACT_FIELDS} == {k: node.get(k) for k in FACT_FIELDS}
        assert {k: record[k] for k in FACT_TIMES} == {k: iso(node.get(k)) for k in FACT_TIMES}
        assert record["metadata"] == json.loads(node["metadata"])
        assert record["revisions"] == [json.loads(r) for r in node.get("revisions") or ()]
        for kind in LINKS:
            assert [link["id"] for link in record[kind]] == sorted(stored[record["id"]][kind])
