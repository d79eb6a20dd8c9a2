"""The mirror's pure parts, without a database: its Cypher's parameters, payload scrubbing,
times, audit summaries, the canonical forms that hashes and signatures cover, and the order
in which one pass writes queued rows and outbox entries."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from graphmem.graph import outbox
from graphmem.graph.statements import parameters
from graphmem.mirror import apply as applying
from graphmem.mirror import audit, receipts
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.audit_queue import Marker
from graphmem.mirror.plan import follows, plan
from graphmem.model.audit import AuditRow, ChainReport
from graphmem.service.audit import summary

PARAMETERS = {
    "outbox/add": {"id", "space", "kind", "payload", "now", "audit"},
    "outbox/pending": {"store", "limit", "spaces"},
    "outbox/pending_count": {"space"},
    "outbox/mark_done": {"ids", "now"},
    "outbox/prune": {"before", "limit", "spaces"},
    "outbox/done_ids": {"space"},
    "outbox/claim_space": {"space", "store", "now"},
    "fsck/mirror_facts": {"space"},
    "erasure/targets_by_id": {"space", "ids"},
    "erasure/targets_by_subject": {"space", "subject"},
    "erasure/targets_all": {"space"},
    "erasure/targets_expired": {"space", "before"},
    "erasure/tombstones": {"space", "ids"},
    "erasure/facts": {"space", "ids"},
    "erasure/space_rest": {"space"},
    "erasure/outbox": {"space"},
    "erasure/rewrite_outbox": {"rows"},
    "spaces/under": {"prefix", "store"},
    "spaces/holding": {"prefix"},
    "restore/space": {"space", "now", "seq", "store"},
    "restore/graph_count": {"space"},
}


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_statements_take_what_the_mirror_passes(name: str) -> None:
    assert parameters(name) == PARAMETERS[name]


PAYLOAD = {
    "source": "crm",
    "results": [{"action": "SUPERSEDE", "fact_id": "f2", "value": "Zustand"},
                {"action": "DEDUP", "fact_id": "f1", "value": "Redux"}],
    "facts": [{"id": "f2", "value": "Zustand", "recorded_at": "2026-01-01T00:00:00+00:00"}],
    "supersedes": [{"new": "f2", "old": "f1", "valid_to": "2026-01-01T00:00:00+00:00"}],
    "retracts": [],
    "refines": [{"id": "f3", "value": "Postgres 16"}],
    "statuses": [{"id": "f1", "status": "SUPERSEDED"}],
    "conflicts": [{"id": "c1", "fact_ids": ["f1", "f4"], "flagged": ["f1"]},
                  {"id": "c2", "fact_ids": ["f1"], "flagged": ["f1"]}],
}


def test_referenced_ids_finds_every_fact_an_event_names() -> None:
    assert outbox.referenced_ids(PAYLOAD) == {"f1", "f2", "f3", "f4", "c1", "c2"}
    nested = {"batches": [PAYLOAD], "close": {"id": "c9", "winner": "f9"}}
    assert outbox.referenced_ids(nested) >= {"f1", "c9"}


def test_scrub_removes_everything_about_the_erased_facts() -> None:
    cleaned = outbox.scrub(PAYLOAD, frozenset({"f1"}))
    assert "f1" not in json.dumps(cleaned) and "Redux" not in json.dumps(cleaned)
    assert cleaned["results"] == [PAYLOAD["results"][0]]
    assert cleaned["supersedes"] == [] and cleaned["statuses"] == []
    assert cleaned["facts"] == PAYLOAD["facts"] and cleaned["refines"] == PAYLOAD["refines"]
    assert cleaned["conflicts"] == [{"id": "c1", "fact_ids": ["f4"], "flagged": []}]
    assert outbox.scrub(PAYLOAD, frozenset()) == PAYLOAD
    settle = {"batches": [PAYLOAD], "close": {"id": "c1", "status": "resolved", "winner": "f1"}}
    assert outbox.scrub(settle, frozenset({"f1"}))["close"] == settle["close"]


def test_batches_and_times() -> None:
    assert outbox.batches("remember", PAYLOAD) == [PAYLOAD]
    assert outbox.batches("settle", {"batches": [PAYLOAD, PAYLOAD]}) == [PAYLOAD, PAYLOAD]
    assert outbox.batches("erase", {"facts": ["f1"]}) == []
    revived = outbox.revive_times(PAYLOAD["facts"][0])
    assert revived["recorded_at"] == datetime(2026, 1, 1, tzinfo=UTC)
    assert revived["value"] == "Zustand"
    text = outbox.encode({"at": datetime(2026, 1, 1, tzinfo=UTC)})
    assert json.loads(text) == {"at": "2026-01-01T00:00:00+00:00"}


def test_audit_summaries_hold_counts_and_ids_only() -> None:
    receipt = {"receipt": {"id": "r1", "kind": "erasure", "scope": "fact", "facts": 2,
                           "fact_ids": ["f1"], "space": "t/u/a/r"}}
    assert summary(receipt) == {"id": "r1", "kind": "erasure", "scope": "fact", "facts": 2}
    assert summary([1, 2, 3]) == {"count": 3}
    assert summary(ChainReport(True, 1, 1, False, [])) == {"ok": True}
    assert summary("Stored: [ADD] plan = pro") == {}


def test_the_chain_hash_covers_the_previous_hash_and_every_field() -> None:
    fields = (7, "2026-01-01T00:00:00+00:00", "t", "t/u/a/r", "bob", "active", "ok", "{}")
    base = audit.chain_hash(audit.GENESIS, audit.canonical(*fields))
    assert base != audit.chain_hash("1" * 64, audit.canonical(*fields))
    others = (8, "2026-01-02T00:00:00+00:00", "x", "t/u/a/x", "eve", "delete", "denied", "{ }")
    for i, other in enumerate(others):
        changed = list(fields)
        changed[i] = other
        assert audit.chain_hash(audit.GENESIS, audit.canonical(*changed)) != base, (
            f"field {i} (seq, at, tenant, space, caller, operation, outcome, detail) is hashed")


def test_old_rows_keep_their_old_hash_form() -> None:
    """Rows written before the upgrade hashed neither tenant nor seq; they still verify."""
    row = AuditRow(3, "2026-01-01T00:00:00+00:00", "t", "t/u/a/r", "bob", "active", "ok",
                         "{}", audit.GENESIS, "", "", "", v=1)
    assert audit.row_canonical(row) == audit.canonical_v1(
        "2026-01-01T00:00:00+00:00", "t/u/a/r", "bob", "active", "ok", "{}")
    moved = AuditRow(3, row.at, "other", row.space, "bob", "active", "ok", "{}",
                           audit.GENESIS, "", "", "", v=1)
    assert audit.row_canonical(moved) == audit.row_canonical(row), (
        "v1 left the tenant out: the seal covers it")


def test_receipt_canonical_form_is_key_order_independent() -> None:
    assert receipts.canonical({"b": 1, "a": [2]}) == receipts.canonical({"a": [2], "b": 1})
    assert receipts.digest([{"id": "f1"}]) == receipts.digest([{"id": "f1"}])
    assert receipts.digest([{"id": "f1"}]) != receipts.digest([{"id": "f2"}])


def _entry(event: str, space: str, seq: int, audit_row: str | None = None
           ) -> outbox.OutboxEntry:
    return outbox.OutboxEntry(event, space, "remember", json.dumps(PAYLOAD),
                              datetime(2026, 1, 1, tzinfo=UTC), seq, audit_row)


def test_a_write_row_comes_from_its_entry_with_counts_only() -> None:
    stub = json.dumps({"caller": "alice", "operation": "remember_facts", "tenant": "acme",
                       "at": "2026-01-01T00:00:00+00:00"})
    row = applying.audit_entry(applying.Applied(_entry("e1", "acme/u/a/r", 3, stub), "d" * 64))
    assert (row.caller, row.operation, row.outcome, row.tenant) == (
        "alice", "remember_facts", "ok", "acme")
    assert row.detail == {"event": "e1", "kind": "remember", "count": 2, "digest": "d" * 64}
    assert "Zustand" not in json.dumps(row.detail)
    system = applying.audit_entry(applying.Applied(_entry("e2", "acme/u/a/r", 4), "e" * 64))
    assert (system.caller, system.operation, system.detail["event"]) == (
        "system", "remember", "e2"), "an entry no call made still names its event"


def test_a_pass_keeps_the_call_order_and_each_space_s_commit_order() -> None:
    read1, read2 = (AuditEntry("s/u/a/r", "bob", op, "ok") for op in ("active", "history"))
    e1, e2, e3 = _entry("e1", "s/u/a/r", 1), _entry("e2", "s/u/a/r", 2), _entry("e3", "t", 1)
    items = [(1, read1), (2, Marker((("s/u/a/r", "e2"),))), (3, read2)]
    steps, taken, whole = plan([e1, e2, e3], items, t0=3, capped=False, applied=set())
    assert steps == [read1, [e1, e2], read2, [e3]]
    assert (taken, whole) == (3, True)


def test_a_pass_stops_at_a_write_committed_after_it_read_the_outbox() -> None:
    read1, read2 = (AuditEntry("s/u/a/r", "bob", op, "ok") for op in ("active", "history"))
    e1 = _entry("e1", "t", 1)
    items = [(1, read1), (2, Marker((("s/u/a/r", "e9"),))), (3, read2)]
    steps, taken, whole = plan([e1], items, t0=1, capped=False, applied=set())
    assert steps == [read1] and (taken, whole) == (1, False), "e1 waits: read2 comes first"
    steps, taken, whole = plan([e1], items, t0=3, capped=False, applied=set())
    assert steps == [read1, read2, [e1]], "a marker read before: its entry was rolled back"


def test_entries_written_here_follow_on_only_without_a_gap() -> None:
    assert not follows(None, [_entry("e1", "s", 5)]), "nothing applied here yet"
    assert follows(4, [_entry("e1", "s", 5), _entry("e2", "s", 6)])
    assert not follows(4, [_entry("e1", "s", 6)]), "seq 5 was written elsewhere"
