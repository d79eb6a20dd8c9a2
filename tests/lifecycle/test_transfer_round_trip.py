"""Export → restore into a new space → export again: the same records (ids re-derived for
the copy, the space replaced), and the copy answers time-travel and multi-hop reads as the
source does. The copy is mirrored and audited like any write, and the mirror's event log
rebuilds it."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.lifecycle.restore import restore
from graphmem.lifecycle.transfer.restore import SpaceNotEmpty
from graphmem.runtime import Runtime

from support.graph_snapshot import snapshot, wipe
from support.transfer_support import (
    CONFIRM_SCHEMA,
    as_copied,
    build_space,
    export_lines,
    facts_view,
    instants,
    paths_view,
    records,
)

Make = Callable[..., GraphMem]


@pytest.fixture
def tenant() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


def copy_of(make: Make, tenant: str, tmp_path: Path) -> tuple[GraphMem, GraphMem, list]:  # type: ignore[type-arg]
    source = make(f"{tenant}/source/a/r", slot_schema=CONFIRM_SCHEMA)
    build_space(source)
    lines = export_lines(source)
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    copy = make(f"{tenant}/copy/a/r", slot_schema=CONFIRM_SCHEMA)
    report = copy.transfer.import_memory(path)
    assert report.mode == "restore" and report.remapped and not report.unmapped, report
    return source, copy, lines


def test_restore_then_export_gives_the_same_records(make_mem: Make, tenant: str,
                                                    tmp_path: Path) -> None:
    source, copy, lines = copy_of(make_mem, tenant, tmp_path)
    kinds = {r["type"] for r in lines}
    assert kinds == {"header", "space", "fact", "entity", "conflict", "pending", "decision",
                     "manifest"}
    statuses = {r["status"] for r in lines if r["type"] == "fact"}
    assert statuses == {"ACTIVE", "FLAGGED_CONFLICT", "SUPERSEDED", "HISTORICAL"}
    outcomes = {r["status"] for r in lines if r["type"] == "conflict"}
    assert outcomes == {"open", "resolved", "dismissed"}
    assert any(r["revisions"] for r in lines if r["type"] == "fact")
    assert any(r["retracts"] for r in lines if r["type"] == "fact")
    assert any(r["restores"] for r in lines if r["type"] == "fact")
    assert any(r["undone_by"] and r["undone_at"] for r in lines if r["type"] == "fact")
    again = export_lines(copy)
    assert records(again) == as_copied(lines, copy.space.key)


def test_the_copy_answers_reads_as_the_source_does(make_mem: Make, tenant: str,
                                                   tmp_path: Path) -> None:
    source, copy, lines = copy_of(make_mem, tenant, tmp_path)
    subjects = sorted({r["subject"] for r in lines if r["type"] == "fact"})
    for at in instants(lines, 20):
        assert facts_view(copy.active(as_of=at)) == facts_view(source.active(as_of=at)), at
        assert facts_view(copy.active(valid_at=at)) == facts_view(
            source.active(valid_at=at)), at
    for subject in subjects:
        assert [(e.value, e.status) for e in copy.history(subject)] == [
            (e.value, e.status) for e in source.history(subject)], subject
    far = source.recall_related(entities=[("service", "Billing")], hops=3, answer=False)
    assert {k.split(":", 1)[1] for p in far.paths for k in p.keys} >= {
        "billing", "auth", "ledger", "finance"}
    assert max(len(p.edges) for p in far.paths) == 3
    for at in (None, *instants(lines, 20)[::5]):
        assert paths_view(copy.recall_related(entities=[("service", "Billing")], hops=3,
                                              as_of=at, answer=False)) == paths_view(
            source.recall_related(entities=[("service", "Billing")], hops=3, as_of=at,
                                  answer=False)), at
    assert [(c.kind, c.status, c.note) for c in copy.review.conflicts(None)] == [
        (c.kind, c.status, c.note) for c in source.review.conflicts(None)]
    assert [(f.subject, f.value) for f in copy.review.pending()] == [
        (f.subject, f.value) for f in source.review.pending()]
    assert copy.review.get_reconcile_policy() == source.review.get_reconcile_policy()
    assert {e.key for e in copy.entities.all()} == {e.key for e in source.entities.all()}


def test_a_restore_refuses_a_space_that_holds_memory(make_mem: Make, tenant: str,
                                                      tmp_path: Path) -> None:
    source = make_mem(f"{tenant}/source/a/r")
    source.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    busy = make_mem(f"{tenant}/busy/a/r")
    busy.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
    with pytest.raises(SpaceNotEmpty, match="only into an empty space"):
        busy.transfer.import_memory(path, mode="restore")
    assert [f.value for f in busy.active()] == ["MySQL"]
    again = make_mem(f"{tenant}/copy/a/r")
    assert again.transfer.import_memory(path).written["facts"] == 1
    assert again.transfer.import_memory(path).already  # the same file again: nothing twice
    assert [f.value for f in again.active()] == ["Postgres"]


def test_an_import_is_mirrored_audited_and_rebuilt_from_the_log(
        make: Make, mirror_runtime: Runtime, tmp_path: Path) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    source, copy, _ = copy_of(make, tenant, tmp_path)
    copy.records.drain()
    assert check_mirror(mirror_runtime, copy.space.key) == []
    assert copy.records.fsck().ok, str(copy.records.fsck())
    rows = copy.records.audit_log(limit=200, operation="import")
    assert rows and all(r.outcome == "ok" for r in rows)
    assert copy.records.verify_audit().ok
    before = snapshot(mirror_runtime.graph, [copy.space.key])
    wipe(mirror_runtime.graph, [copy.space.key])
    restore(mirror_runtime, [copy.space.key], embed=False)
    assert snapshot(mirror_runtime.graph, [copy.space.key]) == before
