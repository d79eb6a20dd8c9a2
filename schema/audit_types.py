"""Output types of the audit chain."""

from __future__ import annotations

import json

import strawberry

from graphmem.model import Space
from graphmem.model.audit import AuditRow, ChainReport
from graphmem.model.receipts import Verdict
from graphmem.schema.relay import Node, global_id
from graphmem.schema.scalars import JSON


@strawberry.type(description="One audit row: who did what, with which outcome; never content.")
class AuditEntry(Node):
    seq: int
    at: str
    tenant: str
    space: str
    caller: str
    operation: str
    outcome: str
    detail: JSON
    hash: str
    signature: str
    key_id: str

    @classmethod
    def from_model(cls, r: AuditRow) -> AuditEntry:
        return cls(id=global_id("AuditEntry", Space(r.tenant).key, str(r.seq)), seq=r.seq,
                   at=r.at, tenant=r.tenant, space=r.space, caller=r.caller,
                   operation=r.operation, outcome=r.outcome, detail=JSON(json.loads(r.detail)),
                   hash=r.hash, signature=r.signature, key_id=r.key_id)


@strawberry.type(description="The audit chain's check: hashes, links, the signed head.")
class AuditReport:
    ok: bool
    rows: int
    head_seq: int
    deep: bool
    problems: list[str]
    text: str

    @classmethod
    def from_model(cls, r: ChainReport) -> AuditReport:
        return cls(ok=r.ok, rows=r.rows, head_seq=r.head_seq, deep=r.deep,
                   problems=list(r.problems), text=str(r))


@strawberry.type(description="Whether a receipt's signature (and the facts given with it)"
                             " check out, and why not.")
class ReceiptVerdict:
    ok: bool
    reason: str

    @classmethod
    def from_model(cls, v: Verdict) -> ReceiptVerdict:
        return cls(ok=v.ok, reason=v.reason)
