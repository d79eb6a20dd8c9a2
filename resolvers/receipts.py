"""Receipts: attestations, stored receipts, the public key, and checking a receipt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.model.receipts import Verdict
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("attest", "read")
def attest(call: Call, subjects: Sequence[str] | None = None) -> dict[str, Any]:
    """A signed statement of the space's ACTIVE facts (or some subjects') right now."""
    return call.mem().records.attest(subjects)


@operation("receipt", "read", reach="tenant")
def receipt(call: Call, id: str) -> dict[str, Any]:
    """A receipt issued earlier in the caller's tenant (any of its spaces)."""
    return call.mem().records.receipt(id)


@operation("exportPublicKey", "read", reach="tenant")
def export_public_key(call: Call) -> str:
    return call.mem().records.export_public_key()


@operation("verifyReceipt", "verify", reach="tenant")
def verify_receipt(call: Call, receipt: Mapping[str, Any],
                   public_key: str | None = None) -> Verdict:
    """Against the given public key alone (what a third party does), else against this
    deployment's signing keys, retired ones included."""
    return call.mem().records.verify_receipt(receipt, public_key)
