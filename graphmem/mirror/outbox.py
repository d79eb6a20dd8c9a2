"""The outbox: graph changes committed with an entry, applied to the relational mirror once.

Every graph write commits `(:Outbox {id, space, kind, payload, seq, done: false})` in its own
transaction; `seq` is the space's write counter, taken under the space lock, so it orders one
space's entries as their transactions committed. `drain` reads pending entries in that order,
applies them to the relational store in one transaction (an entry whose event id is already
there is skipped, so a crash between the two stores never applies anything twice), then marks
them done in the graph.

An entry committed by an audited call also carries that call's audit row (`audit`: who,
which operation, when), stamped in the same transaction: whoever applies the entry appends
the row to the chain in the same relational transaction, so a write's audit row survives
a crash after the graph commit and is appended exactly once.

Payloads are the graph batches themselves (`graphmem.remember.write.Batch` lists: facts,
refines, statuses, supersedes, retracts, conflicts), so the event log replays through the
write path's own statements (`restore`), and the mirror's facts table follows the same
changes here. Kinds: `remember` (one batch), `settle` (approval or conflict settlement: a list
of batches and the conflict it closes), `policy`, `entity` (create_entity), `sweep`
(placeholders attached), `rebuild` (the projection rebuilt) and `erase` (hard deletion, ids
only).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction
from neo4j.time import DateTime as NeoDateTime

from graphmem.graph.driver import GraphDriver, run
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import Cursor, RelationalStore

log = logging.getLogger(__name__)

RETIRED = ("SUPERSEDED", "HISTORICAL")
TIME_KEYS = frozenset({"recorded_at", "held_from", "valid_from", "valid_to", "retired_at"})
_ID_KEYS = ("id", "fact_id", "new", "old")
_REF_KEYS = frozenset({*_ID_KEYS, "fact_ids", "flagged"})


@dataclass(frozen=True)
class OutboxEntry:
    id: str
    space: str
    kind: str
    payload: str
    created_at: datetime
    seq: int | None
    audit: str | None = None

    @property
    def now(self) -> str:
        return self.created_at.isoformat()


# ---- the audited call a transaction runs under ---------------------------------------------
@dataclass
class AuditCall:
    """Set by the audit wrapper for the length of one operation: entries its transactions
    commit keep its row (`stub`), and `events` lists them, which is where the call's row
    sits in the audit order."""

    caller: str
    operation: str
    tenant: str
    events: list[tuple[str, str]] = field(default_factory=list)

    def stub(self) -> str:
        return json.dumps({"caller": self.caller, "operation": self.operation,
                           "tenant": self.tenant, "at": datetime.now(UTC).isoformat()},
                          sort_keys=True)


CALL: ContextVar[AuditCall | None] = ContextVar("graphmem_audit_call", default=None)


# Entries the current transaction function reported as it wrote them (`created`), each with
# its audit row already on it; None outside a Stamped transaction function.
_CREATED: ContextVar[list[OutboxEntry] | None] = ContextVar("graphmem_outbox_created",
                                                            default=None)


def call_stub() -> str | None:
    """The current audited call's row, for an entry written in its transaction."""
    call = CALL.get()
    return call.stub() if call is not None else None


def created(space: str, entries: Sequence[dict[str, Any]], now: datetime, seq: int | None
            ) -> None:
    """Report entries a statement just wrote with their audit row (remember/apply does), so
    the transaction needs no `stamp` round trip to find them."""
    found = _CREATED.get()
    if found is not None:
        found.extend(OutboxEntry(str(e["id"]), space, str(e["kind"]), str(e["payload"]), now,
                                 seq, e.get("audit")) for e in entries)


def stamp(tx: ManagedTransaction, space: str) -> list[OutboxEntry]:
    """The entries this transaction created in `space`, given the current call's audit row
    where they have none (those written by statements that do not go through `record`, like
    remember/apply)."""
    call = CALL.get()
    rows = run(tx, "mirror/outbox_stamp", space=space,
               audit=call.stub() if call is not None else None)
    entries = [OutboxEntry(r["id"], r["space"], r["kind"], r["payload"],
                           _native(r["created_at"]), r["seq"], r["audit"]) for r in rows]
    if call is not None:
        call.events.extend((space, e.id) for e in entries if (space, e.id) not in call.events)
    return entries


class Stamped:
    """A transaction function that stamps its outbox entries (see `stamp`) before commit;
    after the commit, `entries` holds what its last (the committed) attempt wrote."""

    def __init__(self, fn: Any, space: str) -> None:
        self.fn, self.space = fn, space
        self.entries: list[OutboxEntry] = []

    def __call__(self, tx: ManagedTransaction, *args: Any) -> Any:
        token = _CREATED.set([])
        try:
            result = self.fn(tx, *args)
            reported = _CREATED.get() or []
        finally:
            _CREATED.reset(token)
        if reported and all(e.space == self.space for e in reported):
            self.entries = reported  # written with their rows: nothing to stamp or read back
            call = CALL.get()
            if call is not None:
                call.events.extend((e.space, e.id) for e in reported
                                   if (e.space, e.id) not in call.events)
        else:
            self.entries = stamp(tx, self.space)
        return result


def stamped(fn: Any, space: str) -> Stamped:
    return Stamped(fn, space)


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


# ---- writing entries (inside a graph transaction) ------------------------------------------
def _json_default(value: Any) -> Any:
    if isinstance(value, NeoDateTime):
        return value.to_native().isoformat()
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, default=_json_default, sort_keys=True)


def new_event_id() -> str:
    return "e" + secrets.token_hex(6)


def record(tx: ManagedTransaction, space: str, kind: str, payload: dict[str, Any],
           now: datetime) -> str:
    """Add an entry in the caller's transaction, which must hold the space's lock (with the
    current audited call's row, if any)."""
    event_id = new_event_id()
    call = CALL.get()
    entry = {"id": event_id, "kind": kind, "payload": encode(payload),
             "audit": call.stub() if call is not None else None}
    rows = run(tx, "mirror/outbox_add", space=space, now=now, **entry)
    if call is not None:
        call.events.append((space, event_id))
    if rows:
        created(space, [entry], now, rows[0]["seq"])
    return event_id


def batch_payload(batch: Any) -> dict[str, Any]:
    """A write Batch's lists as an event payload (its own outbox entries excluded)."""
    return {f.name: getattr(batch, f.name) for f in fields(batch) if f.name != "outbox"}


def revive_times(row: dict[str, Any]) -> dict[str, Any]:
    """JSON carried times as ISO strings; the graph stores them as datetimes."""
    return {k: datetime.fromisoformat(v) if k in TIME_KEYS and isinstance(v, str) else v
            for k, v in row.items()}


# ---- reading and marking (graph side) -------------------------------------------------------
def _native(value: Any) -> datetime:
    if isinstance(value, NeoDateTime):
        return value.to_native()
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def pending(graph: GraphDriver, store: str, limit: int, spaces: Sequence[str] | None = None
            ) -> list[OutboxEntry]:
    """What waits for `store`'s mirror, in order (see cypher/mirror/pending.cypher)."""
    rows = graph.read("mirror/pending", store=store, limit=limit,
                      spaces=None if spaces is None else list(spaces))
    return [OutboxEntry(r["id"], r["space"], r["kind"], r["payload"], _native(r["created_at"]),
                        r["seq"], r["audit"]) for r in rows]


def store_id(store: RelationalStore) -> str:
    """The relational store's identity, made once (migration 2's mirror_meta row)."""
    with store.transaction() as cur:
        cur.execute("INSERT INTO mirror_meta (id, store_id) VALUES (1, ?)"
                    " ON CONFLICT (id) DO NOTHING", (secrets.token_hex(8),))
        cur.execute("SELECT store_id FROM mirror_meta WHERE id = 1")
        return str(cur.fetchone()[0])


def claim(graph: GraphDriver, space: str, store: str) -> str:
    """Claim a space for `store` unless another store did; returns the claiming store."""
    rows = graph.write("mirror/claim_space", space=space, store=store, now=datetime.now(UTC))
    return str(rows[0]["store"])


def mark_done(graph: GraphDriver, ids: Sequence[str]) -> None:
    graph.write("mirror/mark_done", ids=list(ids), now=datetime.now(UTC))


def prune(graph: GraphDriver, keep_seconds: int, limit: int = 1000) -> int:
    before = datetime.now(UTC) - timedelta(seconds=keep_seconds)
    return int(graph.write("mirror/prune", before=before, limit=limit)[0]["pruned"])


def pending_count(graph: GraphDriver, space: str | None = None
                  ) -> tuple[int, datetime | None]:
    row = graph.read("mirror/pending_count", space=space)[0]
    return int(row["pending"]), _native(row["oldest"]) if row["oldest"] is not None else None


# ---- payload helpers (pure) -----------------------------------------------------------------
def batches(kind: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The write batches an event carries, in the order they were applied."""
    if kind == "remember":
        return [payload]
    if kind == "settle":
        return list(payload.get("batches", []))
    return []


def referenced_ids(payload: Any) -> set[str]:
    """Every fact (and conflict) id an event mentions, for finding it again on erasure."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in _REF_KEYS and isinstance(value, str):
                found.add(value)
            elif key in _REF_KEYS and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            else:
                found |= referenced_ids(value)
    elif isinstance(payload, list):
        for item in payload:
            found |= referenced_ids(item)
    return found


def _belongs(item: dict[str, Any], ids: frozenset[str]) -> bool:
    return any(item.get(key) in ids for key in _ID_KEYS)


def scrub(payload: Any, ids: frozenset[str]) -> Any:
    """The payload without anything about the erased facts: their rows, edges, refines, status
    changes and results go; a conflict keeps only its remaining facts, or goes."""
    if isinstance(payload, dict):
        out = {k: scrub(v, ids) for k, v in payload.items()}
        for key in ("fact_ids", "flagged"):
            if isinstance(out.get(key), list):
                out[key] = [v for v in out[key] if v not in ids]
        return out
    if isinstance(payload, list):
        kept = []
        for item in payload:
            if isinstance(item, str) and item in ids:
                continue
            if isinstance(item, dict):
                if "fact_ids" in item:
                    item = scrub(item, ids)
                    if not item["fact_ids"]:
                        continue
                elif _belongs(item, ids):
                    continue
                else:
                    item = scrub(item, ids)
            kept.append(item)
        return kept
    return payload


# ---- applying entries (relational side) -----------------------------------------------------
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
            cur.execute("UPDATE mirror_facts SET status = 'SUPERSEDED', retired_at = ?,"
                        " valid_to = COALESCE(valid_to, ?), event_id = ? WHERE id = ?"
                        " AND space = ?",
                        (now, edge.get("valid_to") or now, entry.id, edge["old"], space))
            cur.execute("INSERT INTO mirror_edges (src, dst, type, space, at)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (src, dst, type) DO NOTHING",
                        (edge["new"], edge["old"], edge_type, space, now))


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
