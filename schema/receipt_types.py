"""Signed receipts and decisions as typed objects.

A receipt is signed JSON (graphmem.mirror.receipts); each kind gets its own type behind the
`Receipt` interface, and `document` keeps the exact signed JSON, which is what
`verifyReceipt` (or a third party with the public key) checks.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graphmem.schema.scalars import JSON


@strawberry.type(description="A fact as a receipt snapshot it: the exact fields a decision"
                             " or an attestation relied on.")
class ReceiptFact:
    fact_id: strawberry.ID
    subject: str
    scope: str
    value: str
    status: str
    confidence: float | None
    source: str | None
    recorded_at: datetime | None


@strawberry.interface(description="A signed receipt; `document` is the exact signed JSON to"
                                  " keep, or to check with verifyReceipt.")
class Receipt:
    receipt_id: strawberry.ID
    kind: str
    tenant: str
    space: str
    issued_at: datetime | None
    key_id: str
    signature: str
    public_key: str | None = strawberry.field(description="The signer's key (base64), a"
                                                          " convenience: verify against a key"
                                                          " you trust.")
    audit_head: str | None = strawberry.field(description="The audit chain's head hash when"
                                                          " it was issued: verifyAudit(receipt:)"
                                                          " fails once the chain no longer"
                                                          " holds it.")
    document: JSON


@strawberry.type(description="A decision's receipt: the ACTIVE facts an action relied on,"
                             " signed by their digest.")
class DecisionReceipt(Receipt):
    decision_id: str
    action: str
    caller: str
    subjects: list[str]
    fact_ids: list[strawberry.ID]
    digest: str
    facts: list[ReceiptFact] = strawberry.field(description="The snapshot the digest covers"
                                                            " (absent from stored copies).")


@strawberry.type(description="A signed statement of a space's ACTIVE facts and of the audit"
                             " chain's head when it was made.")
class AttestationReceipt(Receipt):
    subjects: list[str] | None
    fact_ids: list[strawberry.ID]
    digest: str
    facts: list[ReceiptFact]


@strawberry.type(description="An erasure's receipt: what left both stores (counts and ids,"
                             " never content).")
class ErasureReceipt(Receipt):
    scope: str = strawberry.field(description="fact, subject, space, expired, user or tenant.")
    fact_count: int = strawberry.field(description="How many facts were erased.")
    fact_ids: list[strawberry.ID]
    conflict_count: int | None
    event_id: str | None
    mirror: str = strawberry.field(description="`erased` once the mirror took it, `pending`"
                                               " while it catches up.")
    retired_before: datetime | None
    user: str | None
    spaces: list[str]
    space_receipts: list[str]


@strawberry.type(description="A decision recorded with the facts it relied on, and its"
                             " signed receipt.")
class Decision:
    decision_id: str
    action: str
    caller: str
    subjects: list[str]
    facts: list[ReceiptFact]
    receipt: DecisionReceipt


def _time(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def _ids(values: Any) -> list[strawberry.ID]:
    return [strawberry.ID(str(v)) for v in values or ()]


def _facts(items: Any) -> list[ReceiptFact]:
    return [ReceiptFact(fact_id=strawberry.ID(str(f.get("id"))), subject=str(f.get("subject")),
                        scope=str(f.get("scope") or "global"), value=str(f.get("value")),
                        status=str(f.get("status")), confidence=f.get("confidence"),
                        source=f.get("source"), recorded_at=_time(f.get("recorded_at")))
            for f in items or ()]


def receipt(document: dict[str, Any]) -> Receipt:
    """The typed receipt of a signed document, by its kind."""
    body: dict[str, Any] = document.get("receipt") or {}
    common: dict[str, Any] = dict(
        receipt_id=strawberry.ID(str(body.get("id"))), kind=str(body.get("kind")),
        tenant=str(body.get("tenant")), space=str(body.get("space")),
        issued_at=_time(body.get("issued_at")), key_id=str(body.get("key_id")),
        signature=str(document.get("signature")), public_key=document.get("public_key"),
        audit_head=body.get("audit_head"), document=JSON(document))
    kind = body.get("kind")
    if kind == "decision":
        return decision_receipt(document)
    if kind == "attestation":
        return AttestationReceipt(**common, subjects=body.get("subjects"),
                                  fact_ids=_ids(body.get("fact_ids")),
                                  digest=str(body.get("digest")),
                                  facts=_facts(document.get("facts")))
    return ErasureReceipt(**common, scope=str(body.get("scope")),
                          fact_count=int(body.get("facts") or 0),
                          fact_ids=_ids(body.get("fact_ids")),
                          conflict_count=body.get("conflicts"), event_id=body.get("event_id"),
                          mirror=str(body.get("mirror")),
                          retired_before=_time(body.get("retired_before")),
                          user=body.get("user"), spaces=list(body.get("spaces") or ()),
                          space_receipts=list(body.get("space_receipts") or ()))


def decision_receipt(document: dict[str, Any]) -> DecisionReceipt:
    body: dict[str, Any] = document.get("receipt") or {}
    return DecisionReceipt(
        receipt_id=strawberry.ID(str(body.get("id"))), kind="decision",
        tenant=str(body.get("tenant")), space=str(body.get("space")),
        issued_at=_time(body.get("issued_at")), key_id=str(body.get("key_id")),
        signature=str(document.get("signature")), public_key=document.get("public_key"),
        audit_head=body.get("audit_head"), document=JSON(document),
        decision_id=str(body.get("decision_id")),
        action=str(body.get("action")), caller=str(body.get("caller")),
        subjects=[str(s) for s in body.get("subjects") or ()],
        fact_ids=_ids(body.get("fact_ids")), digest=str(body.get("digest")),
        facts=_facts(document.get("facts")))


def decision(document: dict[str, Any]) -> Decision:
    signed = decision_receipt(document)
    return Decision(decision_id=signed.decision_id, action=signed.action, caller=signed.caller,
                    subjects=signed.subjects, facts=signed.facts, receipt=signed)
