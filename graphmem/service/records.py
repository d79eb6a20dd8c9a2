"""Records: the audit chain and its log, decisions, attestations and receipts.

Whatever reads the chain (`verify_audit`, `audit_log`, `attest`) flushes the audit queue
first, so it sees every row queued before the call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from graphmem.errors import AccessDenied, InvalidInput, NotFound
from graphmem.graph import reads
from graphmem.mirror import audit, listings, receipts
from graphmem.mirror.keys import public_pem
from graphmem.model import Fact
from graphmem.model.audit import AuditRow, ChainReport
from graphmem.model.paging import Page, Window
from graphmem.model.receipts import Verdict
from graphmem.service.context import SpaceContext


class Records:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    # ---- the audit chain ----------------------------------------------------------------
    def verify_audit(self, deep: bool = False, receipt: Mapping[str, Any] | None = None,
                     tenant: str | None = None) -> ChainReport:
        """The chain against its anchors (and the head `receipt` saw); for one `tenant`,
        deep checks only its rows' signatures and other tenants' problems are counted."""
        self.ctx.require("verify")
        if receipt is not None and not isinstance(receipt, Mapping):
            raise InvalidInput("the receipt must be a JSON object (a receipt graphmem issued)")
        own = self.ctx.caller.tenant
        if own is not None:  # a key reads its own tenant's part of the chain, never the rest
            if tenant not in (None, own):
                raise AccessDenied(f"the audit chain of tenant {tenant!r} is not this key's")
            tenant = own
        return self.ctx.runtime.mirror.verify(deep, tenant=tenant,
                                              receipt=None if receipt is None else dict(receipt))

    def audit_log(self, limit: int = 50, before: int | None = None,
                  operation: str | None = None) -> list[AuditRow]:
        self.ctx.require("verify")
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000")
        self.ctx.runtime.mirror.flush()
        return audit.listing(self.ctx.runtime.store, self.ctx.space.tenant, limit, before,
                             operation)

    def audit_page(self, window: Window, operation: str | None = None) -> Page[AuditRow]:
        """This tenant's rows newest first, a page after the cursor's row (by sequence
        number: rows only ever append, so pages never shift)."""
        self.ctx.require("verify")
        if window.backward or window.before is not None:
            raise InvalidInput("the audit log reads newest first: page with first and after")
        self.ctx.runtime.mirror.flush()
        store, tenant = self.ctx.runtime.store, self.ctx.space.tenant
        before = None if window.after is None else int(window.after[0])
        rows = audit.listing(store, tenant, window.size + 1, before, operation)
        total = listings.audit_count(store, tenant, operation) if window.count else None
        return window.page(rows, lambda r: (r.seq,), total)

    def audit_entry(self, seq: int) -> AuditRow:
        self.ctx.require("verify")
        self.ctx.runtime.mirror.flush()
        found = listings.audit_row(self.ctx.runtime.store, self.ctx.space.tenant, seq)
        if found is None:
            raise NotFound(f"no audit row {seq} in this tenant")
        return found

    # ---- decisions and receipts ---------------------------------------------------------
    def _active_of(self, subjects: Iterable[str] | None) -> tuple[list[str], list[Fact]]:
        graph, key = self.ctx.graph, self.ctx.key
        if subjects is None:
            return [], reads.facts(graph, key)
        names = self.ctx.subjects(subjects)
        if not names:
            raise InvalidInput("name at least one subject")
        return names, [f for name in dict.fromkeys(names) for f in reads.facts(graph, key, name)]

    def record_decision(self, action: str, subjects: Iterable[str]) -> dict[str, Any]:
        self.ctx.require("write")
        if not action.strip():
            raise InvalidInput("describe the action the decision is about")
        names, facts = self._active_of(subjects)
        mirror = self.ctx.runtime.mirror
        return receipts.record_decision(
            self.ctx.runtime.store, mirror.ensure_registered(), mirror.cipher, self.ctx.key,
            self.ctx.caller.name, action, names, facts)

    def attest(self, subjects: Iterable[str] | None = None) -> dict[str, Any]:
        self.ctx.require("read")
        names, facts = self._active_of(subjects)
        runtime = self.ctx.runtime
        runtime.mirror.flush()  # the head it carries covers every row queued before
        fields = {"subjects": names or None}
        return receipts.snapshot_receipt(runtime.store, runtime.mirror.ensure_registered(),
                                         runtime.mirror.cipher, "attestation", self.ctx.key,
                                         facts, fields)

    def receipt(self, receipt_id: str) -> dict[str, Any]:
        self.ctx.require("read")
        return receipts.stored(self.ctx.runtime.store, self.ctx.runtime.mirror.cipher,
                               receipt_id, self.ctx.space.tenant)

    def export_public_key(self) -> str:
        return public_pem(self.ctx.runtime.mirror.signer.public)

    def verify_receipt(self, receipt: Mapping[str, Any], public_key: str | None = None
                       ) -> Verdict:
        if public_key is not None:
            return receipts.verify_receipt(receipt, public_key)  # a bad key: InvalidInput
        return receipts.check(receipt, self.ctx.runtime.mirror.trusted())
