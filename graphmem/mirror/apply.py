"""The relational half of the outbox: entries applied to the mirror exactly once.

An entry whose event id is already in `events` is skipped, so a crash between the two
stores never applies anything twice. The mirror's facts table follows the same batches the
graph applied; an `erase` entry deletes rows and rewrites every event that mentioned them.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.graph.outbox import OutboxEntry, batches, encode, referenced_ids, scrub
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import Cursor, RelationalStore

RETIRED = ("SUPERSEDED", "HISTORICAL")


def store_id(store: RelationalStore) -> str:
    """The relational store's identity, made once (the mirror_meta row)."""
    with store.transaction() as cur:
        cur.execute("INSERT INTO mirror_meta (id, store_id) VALUES (1, ?)"
                    " ON CONFLICT (id) DO NOTHING", (secrets.token_hex(8),))
        cur.execute("SELECT store_id FROM mirror_meta WHERE id = 1")
        return str(cur.fetchone()[0])


def audit_entry(entry: OutboxEntry) -> AuditEntry | None:
    """The audit row an entry carries, with ids and counts from its payload (never content);
    None for entries no audited call made."""
    if not entry.audit:
        return None
    stub = json.loads(entry.audit)
    payload = json.loads(entry.payload)
    detail: dict[str, Any] = {"event": entry.id, "kind": entry.kind}
    if entry.kind == "remember":
        detail["count"] = len(payload.get("results", []))
    elif entry.kind == "erase":
        detail.update(scope=payload.get("scope"), facts=len(payload.get("facts", [])))
    elif entry.kind == "settle":
        detail["batches"] = len(payload.get("batches", []))
    return AuditEntry(entry.space, str(stub.get("caller", "")), str(stub.get("operation", "")),
                      "ok", detail, str(stub.get("tenant", "")), str(stub.get("at", "")))


@dataclass(frozen=True)
class Applied:
    entry: OutboxEntry
    erased: frozenset[str]


def apply(store: RelationalStore, cipher: FieldCipher, entries: Iterable[OutboxEntry]
          ) -> list[Applied]:
    """Apply entries in one relational transaction; those already there are skipped."""
    with store.transaction() as cur:
        return [done for entry in entries if (done := apply_one(cur, cipher, entry))]


def apply_one(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
              now: str | None = None) -> Applied | None:
    """Apply one entry in the caller's transaction; None when the mirror already has it."""
    inserted = cur.execute(
        "INSERT INTO events (event_id, space, kind, payload, created_at, applied_at,"
        " graph_seq) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
        (entry.id, entry.space, entry.kind, cipher.seal(entry.payload), entry.now,
         now or datetime.now(UTC).isoformat(), entry.seq))
    if inserted.rowcount == 0:
        return None
    payload = json.loads(entry.payload)
    return Applied(entry, _apply_payload(cur, cipher, entry, payload))


def _apply_payload(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                   payload: dict[str, Any]) -> frozenset[str]:
    if entry.kind == "erase":
        return _apply_erase(cur, cipher, entry, payload)
    refs = sorted(referenced_ids(payload))
    for ref in refs:
        cur.execute("INSERT INTO event_facts (fact_id, event_id) VALUES (?, ?)"
                    " ON CONFLICT (fact_id, event_id) DO NOTHING", (ref, entry.id))
    for batch in batches(entry.kind, payload):
        _apply_batch(cur, cipher, entry, batch)
    return frozenset()


def _apply_batch(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                 batch: dict[str, Any]) -> None:
    """The mirror's facts table follows what `remember/apply` did to the graph."""
    space, now = entry.space, entry.now
    for row in batch.get("facts", []):
        _insert_fact(cur, cipher, entry, row)
    for row in batch.get("refines", []):
        cur.execute("UPDATE mirror_facts SET value = ?, confidence = ?, event_id = ?"
                    " WHERE id = ? AND space = ?",
                    (cipher.seal(row["value"]), row.get("confidence"), entry.id, row["id"],
                     space))
    for row in batch.get("statuses", []):
        if row["status"] in RETIRED:
            cur.execute("UPDATE mirror_facts SET status = ?, retired_at = ?, event_id = ?"
                        " WHERE id = ? AND space = ?",
                        (row["status"], now, entry.id, row["id"], space))
        else:
            cur.execute("UPDATE mirror_facts SET status = ?, event_id = ? WHERE id = ?"
                        " AND space = ?", (row["status"], entry.id, row["id"], space))
    for edge_type, key in (("SUPERSEDES", "supersedes"), ("RETRACTS", "retracts")):
        for edge in batch.get(key, []):
            at = edge.get("at") or now  # a backfilled change carries its own instant
            cur.execute("UPDATE mirror_facts SET status = 'SUPERSEDED', retired_at = ?,"
                        " valid_to = COALESCE(valid_to, ?), event_id = ? WHERE id = ?"
                        " AND space = ?",
                        (at, edge.get("valid_to") or at, entry.id, edge["old"], space))
            cur.execute("INSERT INTO mirror_edges (src, dst, type, space, at)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (src, dst, type) DO NOTHING",
                        (edge["new"], edge["old"], edge_type, space, at))


def _insert_fact(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                 row: dict[str, Any]) -> None:
    triple = None
    if row.get("head") or row.get("relation") or row.get("tail"):
        triple = json.dumps([row.get("head"), row.get("relation"), row.get("tail")])
    subject = str(row["subject"])
    cur.execute(
        "INSERT INTO mirror_facts (id, space, tenant, status, scope, kind, confidence,"
        " subject_index, subject, value, raw, metadata, source, triple, valid_from, valid_to,"
        " recorded_at, retired_at, event_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO NOTHING",
        (row["id"], entry.space, entry.space.split("/", 1)[0], row["status"],
         row.get("scope", "global"), row.get("kind", "state"), row.get("confidence"),
         cipher.index(entry.space, subject), cipher.seal(subject),
         cipher.seal(str(row.get("value", ""))), cipher.seal(row.get("raw")),
         cipher.seal(row.get("metadata")), cipher.seal(row.get("source")), cipher.seal(triple),
         row.get("valid_from"), row.get("valid_to"), row.get("recorded_at"),
         row.get("retired_at"), entry.id))


def _apply_erase(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                 payload: dict[str, Any]) -> frozenset[str]:
    """Rows of the erased facts leave the mirror; the events that mention them are rewritten
    without them; decision snapshots that include them are dropped (their digest stays)."""
    ids = sorted(set(payload.get("facts", [])))
    space = entry.space
    if payload.get("all"):
        cur.execute("DELETE FROM mirror_facts WHERE space = ?", (space,))
        cur.execute("DELETE FROM mirror_edges WHERE space = ?", (space,))
        cur.execute("DELETE FROM event_facts WHERE event_id IN (SELECT event_id FROM events"
                    " WHERE space = ? AND event_id <> ?)", (space, entry.id))
        cur.execute("DELETE FROM events WHERE space = ? AND event_id <> ?", (space, entry.id))
        cur.execute("UPDATE decisions SET snapshot = NULL WHERE space = ?", (space,))
        return frozenset(ids)
    touched: set[str] = set()
    for fact_id in ids:
        cur.execute("DELETE FROM mirror_facts WHERE id = ? AND space = ?", (fact_id, space))
        cur.execute("DELETE FROM mirror_edges WHERE src = ? OR dst = ?", (fact_id, fact_id))
        cur.execute("SELECT event_id FROM event_facts WHERE fact_id = ?", (fact_id,))
        touched.update(str(r[0]) for r in cur.fetchall())
        cur.execute("DELETE FROM event_facts WHERE fact_id = ?", (fact_id,))
    erased = frozenset(ids)
    for event_id in sorted(touched - {entry.id}):
        _scrub_event(cur, cipher, event_id, erased)
    cur.execute("SELECT id, fact_ids FROM decisions WHERE space = ? AND snapshot IS NOT NULL",
                (space,))
    for decision_id, fact_ids in cur.fetchall():
        if erased & set(json.loads(fact_ids)):
            cur.execute("UPDATE decisions SET snapshot = NULL WHERE id = ?", (decision_id,))
    return erased


def _scrub_event(cur: Cursor, cipher: FieldCipher, event_id: str, ids: frozenset[str]) -> None:
    cur.execute("SELECT payload FROM events WHERE event_id = ?", (event_id,))
    row = cur.fetchone()
    if row is None:
        return
    payload = json.loads(cipher.open(row[0]) or "{}")
    cleaned = encode(scrub(payload, ids))
    cur.execute("UPDATE events SET payload = ? WHERE event_id = ?",
                (cipher.seal(cleaned), event_id))
