"""What an export carries from the relational store, and what an import puts back there:
decisions with their signed receipts, and a space's retention period.

Decision actions, snapshots and receipt bodies are sealed in the store; an export decrypts
them only when asked to (the caller holds the capability), else it keeps what is not
content: ids, times, the facts' ids, the digest and the signature.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from graphmem.mirror import retention
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.receipts import decision_binding, receipt_binding

Remap = Callable[[str], str]


def retention_days(store: RelationalStore, space: str) -> float | None:
    seconds = retention.period(store, space)
    return None if seconds is None else seconds / 86400


def decisions(store: RelationalStore, cipher: FieldCipher, space: str, decrypt: bool,
              as_of: datetime | None) -> Iterator[dict[str, Any]]:
    rows = store.query(
        "SELECT d.id, d.caller, d.action, d.snapshot, d.fact_ids, d.digest, d.receipt_id,"
        " d.created_at, r.body, r.signature, r.key_id FROM decisions d LEFT JOIN receipts r"
        " ON r.id = d.receipt_id WHERE d.space = ? ORDER BY d.created_at, d.id", (space,))
    for (decision_id, caller, action, snapshot, fact_ids, digest, receipt_id, created_at,
         body, signature, key_id) in rows:
        if as_of is not None and datetime.fromisoformat(created_at) > as_of:
            continue
        record: dict[str, Any] = {
            "type": "decision", "space": space, "id": decision_id, "caller": caller,
            "created_at": created_at, "fact_ids": json.loads(fact_ids), "digest": digest,
            "receipt_id": receipt_id, "signature": signature, "key_id": key_id,
            "erased": snapshot is None, "sealed": not decrypt,
            "action": None, "snapshot": None, "receipt": None}
        if decrypt:
            record["action"] = cipher.open(action, decision_binding(decision_id, space, "action"))
            opened = cipher.open(snapshot, decision_binding(decision_id, space, "snapshot"))
            record["snapshot"] = json.loads(opened) if opened else None
            receipt = cipher.open(body, receipt_binding(str(receipt_id), space.split("/", 1)[0]))
            record["receipt"] = json.loads(receipt) if receipt else None
        yield record


def restore_decision(store: RelationalStore, cipher: FieldCipher, record: dict[str, Any],
                     space: str, remap: Remap) -> None:
    """A decision and its receipt as the exporting deployment signed them (idempotent). Its
    snapshot and receipt keep the exporter's ids and space (they are signed); the fact ids
    an erasure looks decisions up by are this space's."""
    tenant = space.split("/", 1)[0]
    decision_id, receipt_id = remap(str(record["id"])), remap(str(record["receipt_id"]))
    snapshot = None if record.get("snapshot") is None else json.dumps(record["snapshot"])
    with store.transaction() as cur:
        cur.execute("INSERT INTO decisions (id, tenant, space, caller, action, snapshot,"
                    " fact_ids, digest, receipt_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                    (decision_id, tenant, space, record["caller"],
                     cipher.seal(record.get("action") or "",
                                 decision_binding(decision_id, space, "action")),
                     cipher.seal(snapshot, decision_binding(decision_id, space, "snapshot")),
                     json.dumps([remap(str(f)) for f in record["fact_ids"]]),
                     record["digest"], receipt_id, record["created_at"]))
        if record.get("receipt") is not None and record.get("signature"):
            cur.execute("INSERT INTO receipts (id, tenant, space, kind, body, signature,"
                        " key_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (id) DO NOTHING",
                        (receipt_id, tenant, space, "decision",
                         cipher.seal(json.dumps(record["receipt"]),
                                     receipt_binding(receipt_id, tenant)),
                         record["signature"],
                         record["key_id"], record["created_at"]))

