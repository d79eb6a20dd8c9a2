"""Review: confirm or reject pending proposals, resolve or dismiss conflicts (approve)."""

from __future__ import annotations

from graphmem.model import Result
from graphmem.model.audit import AuditCall
from graphmem.remember.approve import Mode
from graphmem.remember.proposals import check_text
from graphmem.remember.settle import Settlement, settle
from graphmem.service.context import SpaceContext, now


class Review:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def confirm(self, call: AuditCall, fact_id: str) -> Result:
        self.ctx.require("approve")
        return self._settle(call, "confirm", fact_id, None, "", self.ctx.caller.name)

    def reject(self, call: AuditCall, fact_id: str) -> Result:
        self.ctx.require("approve")
        return self._settle(call, "reject", fact_id, None, "", self.ctx.caller.name)

    def resolve_conflict(self, call: AuditCall, conflict_id: str, winner: str, note: str = "",
                         by: str = "") -> Result:
        self.ctx.require("approve")
        return self._settle(call, "resolve", winner, conflict_id, note,
                            by or self.ctx.caller.name)

    def dismiss_conflict(self, call: AuditCall, conflict_id: str, note: str = "",
                         by: str = "") -> Result:
        self.ctx.require("approve")
        return self._settle(call, "dismiss", None, conflict_id, note,
                            by or self.ctx.caller.name)

    def _settle(self, call: AuditCall, mode: Mode, fact_id: str | None,
                conflict_id: str | None, note: str, by: str) -> Result:
        req = Settlement(mode, fact_id, conflict_id, check_text(note, "note"), by,
                         self.ctx.schema, now())
        return self.ctx.write(call, settle, req)
