"""What subscribers are told, derived from outbox entries without a database: each kind of
entry gives its events in order, keyed by (seq, entry, index); nothing else gives any."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from graphmem.graph.outbox import OutboxEntry
from graphmem.service.changes import (
    CONFLICT_CLOSED,
    CONFLICT_OPENED,
    FACT_CHANGED,
    PENDING_CHANGED,
    events,
)

AT = datetime(2026, 3, 1, tzinfo=UTC)


def entry(kind: str, payload: Any, seq: int = 7) -> OutboxEntry:
    return OutboxEntry("e1", "t/u/a/r", kind, json.dumps(payload), AT, seq)


def test_a_remember_entry_tells_stored_changes_and_opened_conflicts() -> None:
    found = events(entry("remember", {
        "results": [
            {"action": "ADD", "subject": "state", "value": "Redux", "fact_id": "f1",
             "message": "Stored: [ADD] state = Redux"},
            {"action": "DEDUP", "subject": "db", "value": "x", "fact_id": "f0"},
            {"action": "FLAG", "subject": "med", "value": "7mg", "fact_id": "f2",
             "message": "Stored: [FLAG] med = 7mg"},
            {"action": "RETRACT", "subject": "cache", "value": "Redis", "fact_id": "f3"}],
        "conflicts": [{"id": "c1", "kind": "pending", "subject": "med", "flagged": ["f2"],
                       "fact_ids": ["f2", "f9"]}]}))
    assert [(c.channel, c.change, c.fact_id) for c in found] == [
        (FACT_CHANGED, "remembered", "f1"), (FACT_CHANGED, "remembered", "f2"),
        (FACT_CHANGED, "retracted", "f3"), (CONFLICT_OPENED, "opened", "f2"),
        (PENDING_CHANGED, "proposed", "f2")]
    assert [c.key for c in found] == [(7, "e1", i) for i in range(5)]
    assert found[2].message == "Stored: [RETRACT] cache = Redis"
    assert found[3].conflict_id == "c1" and found[3].fact_ids == ("f2", "f9")
    assert found[4].value == "7mg" and found[4].message == "Stored: [FLAG] med = 7mg"


def test_a_settle_entry_tells_its_changes_then_the_closed_conflict() -> None:
    found = events(entry("settle", {
        "batches": [{"statuses": [{"id": "f2", "status": "ACTIVE"}],
                     "supersedes": [{"new": "f2", "old": "f1"}], "facts": []}],
        "close": {"id": "c1", "status": "resolved", "winner": "f2", "note": "ok", "by": "ann"},
        "kind": "pending", "mode": "confirm"}))
    assert [(c.channel, c.change) for c in found] == [
        (FACT_CHANGED, "confirmed"), (FACT_CHANGED, "confirmed"),
        (CONFLICT_CLOSED, "confirmed"), (PENDING_CHANGED, "confirmed")]
    assert (found[2].conflict_id, found[2].status, found[2].winner, found[2].by) == (
        "c1", "resolved", "f2", "ann")


def test_a_settle_entry_that_leaves_its_conflict_open_tells_only_the_pending_channel() -> None:
    found = events(entry("settle", {
        "batches": [{"statuses": [{"id": "f2", "status": "HISTORICAL"}], "supersedes": [],
                     "facts": []}],
        "conflict": "c1", "close": None, "kind": "pending", "mode": "reject"}))
    assert [(c.channel, c.change) for c in found] == [
        (FACT_CHANGED, "rejected"), (PENDING_CHANGED, "rejected")]
    pending = found[1]
    assert (pending.conflict_id, pending.status, pending.fact_id, pending.winner) == (
        "c1", "open", "f2", None)
    assert pending.message == "Conflict c1 open: reject, other proposals still wait"


def test_an_erase_entry_tells_ids_only() -> None:
    found = events(entry("erase", {"facts": ["f1", "f2"], "conflicts": ["c1"], "all": False}))
    assert [(c.channel, c.change) for c in found] == [
        (FACT_CHANGED, "erased"), (CONFLICT_CLOSED, "erased"), (PENDING_CHANGED, "erased")]
    assert found[0].fact_ids == ("f1", "f2") and found[0].value is None


def test_other_entries_tell_nothing() -> None:
    assert events(entry("policy", {"policy": "{}"})) == []
    assert events(entry("entity", {"key": "person:ann"})) == []
    assert events(OutboxEntry("e2", "t/u/a/r", "remember", "not json", AT, 1)) == []
    assert events(entry("remember", [1, 2])) == []
