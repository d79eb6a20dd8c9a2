"""Signed receipts: decisions, attestations and erasures, checkable with the public key alone.

A receipt is plain JSON:

    {"receipt": {"id", "kind", "tenant", "space", "issued_at", "audit_head", "key_id", ...},
     "signature": "<base64 Ed25519 over the canonical receipt>",
     "public_key": "<base64 raw key, a convenience: verify against a key you trust>",
    "facts": [...]}   (decisions and attestations: the snapshot the signed digest covers)

`verify_receipt(receipt, public_key)` needs nothing else: no database, no graphmem service.
Every receipt carries `audit_head`, the hash of the audit chain's head when it was issued:
kept by whoever holds the receipt, outside the database, it anchors the chain (`graphmem
audit verify --since-receipt FILE` fails when the chain no longer holds that head). Only the
hash: the head's position would tell any reader how busy the whole deployment is.
Receipts are stored (body sealed like other content, bound to its row) and stamped with the
caller's tenant.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.errors import InvalidInput, NotFound
from graphmem.mirror import audit
from graphmem.mirror.crypto import FieldCipher, binding
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.keys import (
    Signer,
    key_id,
    load_public_key,
    public_bytes,
    verify_signature,
)
from graphmem.mirror.verify import Anchor
from graphmem.model import Fact
from graphmem.model.receipts import Verdict


def canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str).encode()


def digest(items: Any) -> str:
    """SHA-256 of a canonical JSON rendering: what a receipt commits to."""
    return hashlib.sha256(canonical({"items": items})).hexdigest()


def fact_snapshot(fact: Fact) -> dict[str, Any]:
    """The exact fields of a fact a decision relied on."""
    return {"id": fact.id, "subject": fact.subject, "scope": fact.scope, "value": fact.value,
            "status": fact.status.value, "confidence": fact.confidence, "source": fact.source,
            "recorded_at": fact.recorded_at.isoformat() if fact.recorded_at else None}


def sign(signer: Signer, body: dict[str, Any]) -> dict[str, Any]:
    body = {**body, "key_id": signer.key_id}
    return {"receipt": body, "signature": signer.sign(canonical(body)),
            "public_key": base64.b64encode(public_bytes(signer.public)).decode()}


def receipt_binding(receipt_id: str, tenant: str) -> str:
    return binding("receipt", receipt_id, tenant)


def decision_binding(decision_id: str, space: str, column: str) -> str:
    return binding("decision", decision_id, space, column)


def issue(store: RelationalStore, signer: Signer, cipher: FieldCipher, kind: str, space: str,
          fields: Mapping[str, Any]) -> dict[str, Any]:
    """Sign, store and return a receipt of `kind` for `space`, with the audit head it saw."""
    tenant = space.split("/", 1)[0]
    now = datetime.now(UTC).isoformat()
    body = {"id": "r" + secrets.token_hex(8), "kind": kind, "tenant": tenant, "space": space,
            "issued_at": now, "audit_head": audit.head(store)[1], **fields}
    receipt = sign(signer, body)
    sealed = cipher.seal(json.dumps(receipt["receipt"]), receipt_binding(body["id"], tenant))
    with store.transaction() as cur:
        cur.execute("INSERT INTO receipts (id, tenant, space, kind, body, signature, key_id,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (body["id"], tenant, space, kind, sealed, receipt["signature"],
                     signer.key_id, now))
    return receipt


def forget_subtree(store: RelationalStore, anchor: str, keep: Iterable[str]) -> None:
    """Drop the receipts and decisions of `anchor` (a tenant, or tenant/user) and of every
    space under it, but the receipts in `keep` (an erasure's own: ids and counts only):
    the others name subjects and actions of what was erased."""
    prefix = anchor + "/"
    kept = sorted(set(keep))
    marks = ", ".join("?" for _ in kept) or "''"
    with store.transaction() as cur:
        cur.execute("DELETE FROM decisions WHERE space = ? OR substr(space, 1, ?) = ?",
                    (anchor, len(prefix), prefix))
        cur.execute("DELETE FROM receipts WHERE (space = ? OR substr(space, 1, ?) = ?)"  # noqa: S608 - placeholders only
                    f" AND id NOT IN ({marks})", (anchor, len(prefix), prefix, *kept))


def stored(store: RelationalStore, cipher: FieldCipher, receipt_id: str,
           tenant: str | None) -> dict[str, Any]:
    """A stored receipt, found only from inside its tenant (None: any, for operators)."""
    rows = store.query("SELECT tenant, body, signature FROM receipts WHERE id = ?",
                       (receipt_id,))
    if not rows or (tenant is not None and rows[0][0] != tenant):
        raise NotFound(f"no receipt {receipt_id!r}")
    body = cipher.open(rows[0][1], receipt_binding(receipt_id, str(rows[0][0])))
    return {"receipt": json.loads(body or "{}"), "signature": rows[0][2]}


def anchor(receipt: Mapping[str, Any], keys: Mapping[str, Ed25519PublicKey]) -> Anchor | str:
    """The audit head a receipt saw, as an anchor for `verify`, or why it cannot serve as one
    (a string)."""
    verdict = check(receipt, keys)
    if not verdict:
        return f"the receipt given to anchor the chain does not verify: {verdict.reason}"
    body = receipt["receipt"]
    head = body.get("audit_head")
    if not isinstance(head, str) or len(head) != 64:
        return (f"receipt {body.get('id')} carries no audit head (issued before receipts"
                " anchored the chain)")
    return Anchor(head, f"receipt {body.get('id')} ({body.get('kind')}, issued"
                        f" {body.get('issued_at')})", str(body.get("tenant", "")))


def check(receipt: Mapping[str, Any], keys: Mapping[str, Ed25519PublicKey]) -> Verdict:
    """A clear verdict for anything a client sends, a malformed receipt included."""
    given: Mapping[str, Any] = receipt if isinstance(receipt, Mapping) else {}
    inner = given.get("receipt")
    body: Mapping[str, Any] = inner if isinstance(inner, Mapping) else {}
    kid, signature = body.get("key_id"), given.get("signature")
    if not isinstance(kid, str) or not isinstance(signature, str):
        return Verdict(False, "not a receipt: it needs `receipt` (an object with a string"
                              " key_id) and a string `signature`")
    key = keys.get(kid)
    if key is None:
        return Verdict(False, f"signed by key {kid}, which is not one of the trusted keys")
    if not verify_signature(key, signature, canonical(body)):
        return Verdict(False, "the signature does not match the receipt (altered or forged)")
    if "facts" in given and digest(given["facts"]) != body.get("digest"):
        return Verdict(False, "the facts given with the receipt are not the ones it signed")
    return Verdict(True, f"valid {body.get('kind', 'receipt')} receipt signed by key {kid}")


def verify_receipt(receipt: Mapping[str, Any] | str,
                   public_key: str | bytes | Ed25519PublicKey) -> Verdict:
    """Check a receipt against a public key you trust (PEM, base64 or hex); needs nothing
    else. A receipt may be given as its JSON text."""
    if isinstance(receipt, str):
        try:
            receipt = json.loads(receipt)
        except json.JSONDecodeError as e:
            raise InvalidInput(f"the receipt is not JSON: {e}") from None
        if not isinstance(receipt, Mapping):
            raise InvalidInput("the receipt is not a JSON object")
    key = public_key if isinstance(public_key, Ed25519PublicKey) else load_public_key(public_key)
    return check(receipt, {key_id(key): key})


def snapshot_receipt(store: RelationalStore, signer: Signer, cipher: FieldCipher, kind: str,
                     space: str, facts: list[Fact], fields: Mapping[str, Any]
                     ) -> dict[str, Any]:
    """A receipt over exact facts: it signs their digest and carries them beside it."""
    snapshot = [fact_snapshot(f) for f in facts]
    body = {**fields, "fact_ids": [f.id for f in facts], "digest": digest(snapshot)}
    return {**issue(store, signer, cipher, kind, space, body), "facts": snapshot}


def record_decision(store: RelationalStore, signer: Signer, cipher: FieldCipher, space: str,
                    caller: str, action: str, subjects: list[str], facts: list[Fact]
                    ) -> dict[str, Any]:
    """Snapshot the facts behind an action and sign it; the snapshot is kept (sealed) until
    an erasure of one of its facts drops it, with the digest and the stored receipt."""
    decision_id = "d" + secrets.token_hex(8)
    receipt = snapshot_receipt(store, signer, cipher, "decision", space, facts, {
        "decision_id": decision_id, "action": action, "subjects": subjects, "caller": caller})
    body = receipt["receipt"]
    with store.transaction() as cur:
        cur.execute("INSERT INTO decisions (id, tenant, space, caller, action, snapshot,"
                    " fact_ids, digest, receipt_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (decision_id, body["tenant"], space, caller,
                     cipher.seal(action, decision_binding(decision_id, space, "action")),
                     cipher.seal(json.dumps(receipt["facts"]),
                                 decision_binding(decision_id, space, "snapshot")),
                     json.dumps(body["fact_ids"]), body["digest"], body["id"],
                     body["issued_at"]))
    return receipt
