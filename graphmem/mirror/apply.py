"""The relational half of the outbox: entries applied to the mirror exactly once.

An entry whose event id is already in `events` is skipped, so a crash between the two
stores never applies anything twice. The mirror's facts table follows the same batches the
graph applied; an `erase` entry deletes rows and rewrites every event that mentioned them.
Every applied entry gets its audit row, which names the event with the digest of its row
(graphmem.mirror.event_log), so the log restore replays is covered by the chain.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.graph.outbox import OutboxEntry, batches, encode, referenced_ids, scrub
from graphmem.mirror import event_log
from graphmem.mirror.audit import Appender, AuditEntry
from graphmem.mirror.crypto import FieldCipher, binding
from graphmem.mirror.db import Cursor, RelationalStore
from graphmem.mirror.event_log import event_binding
from graphmem.mirror.keys import Signer

RETIRED = ("SUPERSEDED", "HISTORICAL")


def store_id(store: RelationalStore) -> str:
    """The relational store's identity, made once (the mirror_meta row)."""
    with store.transaction() as cur:
        cur.execute("INSERT INTO mirror_meta (id, store_id) VALUES (1, ?)"
                    " ON CONFLICT (id) DO NOTHING", (secrets.token_hex(8),))
        cur.execute("SELECT store_id FROM mirror_meta WHERE id = 1")
        return str(cur.fetchone()[0])


def fact_binding(fact_id: str, space: str, column: str) -> str:
    """Where a mirror fact's sealed column belongs."""
    return binding("fact", fact_id, space, column)


@dataclass(frozen=True)
class Applied:
    """An entry applied here: the digest of its event row, the facts an erasure removed and
    the events it rewrote (with their new digests)."""

    entry: OutboxEntry
    digest: str
    erased: frozenset[str] = frozenset()
    rewritten: dict[str, str] | None = None


def audit_entry(done: Applied) -> AuditEntry:
    """The audit row of an applied entry: the call's (who, which operation, when) when an
    audited call made it, else the system's; it names the event and its row's digest, with
    counts from the payload (never content)."""
    entry = done.entry
    stub = json.loads(entry.audit) if entry.audit else {}
    payload = json.loads(entry.payload)
    detail: dict[str, Any] = {"event": entry.id, "kind": entry.kind, "digest": done.digest}
    if entry.kind == "remember":
        detail["count"] = len(payload.get("results", []))
        if payload.get("redacted"):
            detail["redacted"] = payload["redacted"]
    elif entry.kind == "erase":
        detail.update(scope=payload.get("scope"), facts=len(payload.get("facts", [])),
                      all=bool(payload.get("all")), rewritten=done.rewritten or {})
    elif entry.kind == "settle":
        detail["batches"] = len(payload.get("batches", []))
    elif entry.kind == "undo":
        detail.update(undoes=payload.get("undoes"), forced=bool(payload.get("forced")))
    return AuditEntry(entry.space, str(stub.get("caller", "system")),
                      str(stub.get("operation", entry.kind)), "ok", detail,
                      str(stub.get("tenant", "")), str(stub.get("at", "")))


def apply(store: RelationalStore, cipher: FieldCipher, signer: Signer,
          entries: Iterable[OutboxEntry]) -> list[Applied]:
    """Apply entries in one relational transaction with their audit rows; those already
    there are skipped."""
    with store.transaction() as cur:
        rows = Appender(cur, store.dialect.name, signer)
        applied = []
        for entry in entries:
            done = apply_one(cur, cipher, entry)
            if done is not None:
                rows.add(audit_entry(done))
                applied.append(done)
        rows.finish()
        return applied


def apply_one(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
              now: str | None = None) -> Applied | None:
    """Apply one entry in the caller's transaction (which appends its audit row, see
    `audit_entry`); None when the mirror already has it."""
    applied_at = now or datetime.now(UTC).isoformat()
    sealed = cipher.seal(entry.payload, event_binding(entry.id, entry.space, entry.kind))
    inserted = cur.execute(
        "INSERT INTO events (event_id, space, kind, payload, created_at, applied_at,"
        " graph_seq) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
        (entry.id, entry.space, entry.kind, sealed, entry.now, applied_at, entry.seq))
    if inserted.rowcount == 0:
        return None
    digest = event_log.digest(entry.id, entry.space, entry.kind, sealed, entry.now, applied_at,
                              entry.seq)
    payload = json.loads(entry.payload)
    if entry.kind == "erase":
        erased, rewritten = _apply_erase(cur, cipher, entry, payload)
        return Applied(entry, digest, erased, rewritten)
    for ref in sorted(referenced_ids(payload)):
        cur.execute("INSERT INTO event_facts (fact_id, event_id) VALUES (?, ?)"
                    " ON CONFLICT (fact_id, event_id) DO NOTHING", (ref, entry.id))
    for batch in batches(entry.kind, payload):
        _apply_batch(cur, cipher, entry, batch)
    return Applied(entry, digest)


def _apply_batch(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                 batch: dict[str, Any]) -> None:
    """The mirror's facts table follows what `remember/apply` did to the graph."""
    space, now = entry.space, entry.now
    for row in batch.get("facts", []):
        _insert_fact(cur, cipher, entry, row)
    for row in batch.get("refines", []):
        cur.execute("UPDATE mirror_facts SET value = ?, confidence = ?, event_id = ?"
                    " WHERE id = ? AND space = ?",
                    (cipher.seal(row["value"], fact_binding(row["id"], space, "value")),
                     row.get("confidence"), entry.id, row["id"], space))
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
    fact_id, space = str(row["id"]), entry.space

    def seal(column: str, text: str | None) -> str | None:
        return cipher.seal(text, fact_binding(fact_id, space, column))

    cur.execute(
        "INSERT INTO mirror_facts (id, space, tenant, status, scope, kind, confidence,"
        " subject_index, subject, value, raw, metadata, source, triple, valid_from, valid_to,"
        " recorded_at, retired_at, event_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (id) DO NOTHING",
        (fact_id, space, space.split("/", 1)[0], row["status"],
         row.get("scope", "global"), row.get("kind", "state"), row.get("confidence"),
         cipher.index(space, subject), seal("subject", subject),
         seal("value", str(row.get("value", ""))), seal("raw", row.get("raw")),
         seal("metadata", row.get("metadata")), seal("source", row.get("source")),
         seal("triple", triple), row.get("valid_from"), row.get("valid_to"),
         row.get("recorded_at"),
         row.get("retired_at"), entry.id))


def _apply_erase(cur: Cursor, cipher: FieldCipher, entry: OutboxEntry,
                 payload: dict[str, Any]) -> tuple[frozenset[str], dict[str, str]]:
    """Rows of the erased facts leave the mirror; the events that mention them are rewritten
    without them (returned: event id -> the new row's digest); a decision whose snapshot
    includes them loses the snapshot, its digest (a hash over the values confirms a guess)
    and its stored receipt (which names the subjects); the decision's id, caller and action
    stay. Emptying a space also drops its receipts and decisions, which name its
    subjects."""
    ids = sorted(set(payload.get("facts", [])))
    space = entry.space
    if payload.get("all"):
        cur.execute("DELETE FROM mirror_facts WHERE space = ?", (space,))
        cur.execute("DELETE FROM mirror_edges WHERE space = ?", (space,))
        cur.execute("DELETE FROM event_facts WHERE event_id IN (SELECT event_id FROM events"
                    " WHERE space = ? AND event_id <> ?)", (space, entry.id))
        cur.execute("DELETE FROM events WHERE space = ? AND event_id <> ?", (space, entry.id))
        cur.execute("DELETE FROM decisions WHERE space = ?", (space,))
        cur.execute("DELETE FROM receipts WHERE space = ?", (space,))
        return frozenset(ids), {}
    touched: set[str] = set()
    for fact_id in ids:
        cur.execute("DELETE FROM mirror_facts WHERE id = ? AND space = ?", (fact_id, space))
        cur.execute("DELETE FROM mirror_edges WHERE src = ? OR dst = ?", (fact_id, fact_id))
        cur.execute("SELECT event_id FROM event_facts WHERE fact_id = ?", (fact_id,))
        touched.update(str(r[0]) for r in cur.fetchall())
        cur.execute("DELETE FROM event_facts WHERE fact_id = ?", (fact_id,))
    erased = frozenset(ids)
    rewritten = {event_id: new for event_id in sorted(touched - {entry.id})
                 if (new := _scrub_event(cur, cipher, event_id, erased)) is not None}
    cur.execute("SELECT id, fact_ids, receipt_id FROM decisions WHERE space = ?"
                " AND digest <> ''", (space,))
    for decision_id, fact_ids, receipt_id in cur.fetchall():
        if erased & set(json.loads(fact_ids)):
            cur.execute("UPDATE decisions SET snapshot = NULL, digest = '' WHERE id = ?",
                        (decision_id,))
            cur.execute("DELETE FROM receipts WHERE id = ?", (receipt_id,))
    return erased, rewritten


def _scrub_event(cur: Cursor, cipher: FieldCipher, event_id: str, ids: frozenset[str]
                 ) -> str | None:
    """Rewrite one event without the erased facts; the new row's digest (None: no row)."""
    cur.execute(f"SELECT {event_log.COLUMNS} FROM events WHERE event_id = ?",  # noqa: S608
                (event_id,))
    row = cur.fetchone()
    if row is None:
        return None
    bound = event_binding(str(row[0]), str(row[1]), str(row[2]))
    payload = json.loads(cipher.open(row[3], bound) or "{}")
    sealed = cipher.seal(encode(scrub(payload, ids)), bound)
    cur.execute("UPDATE events SET payload = ? WHERE event_id = ?", (sealed, event_id))
    return event_log.row_digest((row[0], row[1], row[2], sealed, *row[4:]))
