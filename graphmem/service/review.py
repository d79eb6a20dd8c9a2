"""`mem.review`: what waits for a person (flagged facts, pending proposals, conflicts), its
settlement (approve), undo, and the space's reconcile policy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from graphmem.graph import listings, reads, spaces
from graphmem.model import NOW, Conflict, ConflictKind, Fact, Policy, Result, Status, When
from graphmem.model.audit import AuditCall
from graphmem.model.listings import ConflictFilter, FactFilter
from graphmem.model.paging import Page
from graphmem.model.undo import UndoResult
from graphmem.remember.approve import Mode
from graphmem.remember.policy import make_policy, policy_from_json, policy_to_json
from graphmem.remember.proposals import check_text
from graphmem.remember.settle import Settlement, settle
from graphmem.service.audit import Auditor, audited
from graphmem.service.context import SpaceContext, now
from graphmem.service.reads import fact_page
from graphmem.service.undo import Undo
from graphmem.service.writes import Writes


class Review:
    """What waits for a person: flagged facts, pending proposals, conflicts and their
    settlement, and the space's reconcile policy."""

    def __init__(self, ctx: SpaceContext, auditor: Auditor, writes: Writes) -> None:
        self.ctx = ctx
        self.auditor = auditor
        self._undo = Undo(ctx, writes)

    # ---- what waits ------------------------------------------------------------------------
    @audited("flagged")
    def flagged(self, call: AuditCall) -> list[Fact]:
        return self._flagged()

    @audited("pending")
    def pending(self, call: AuditCall) -> list[Fact]:
        """Confirm-gate proposals waiting for someone with the approve capability."""
        waiting = {fid for c in self._conflicts("open") if c.kind == ConflictKind.PENDING
                   for fid in c.fact_ids}
        return [f for f in self._flagged() if f.id in waiting]

    @audited("pending_changes")
    def pending_changes(self, call: AuditCall, when: When = NOW, *, first: int | None = None,
                        after: str | None = None, last: int | None = None,
                        before: str | None = None, count: bool = True) -> Page[Fact]:
        """Confirm-gate proposals waiting (then) for someone with the approve capability."""
        where = FactFilter(statuses=(Status.FLAGGED_CONFLICT,), pending=True)
        return fact_page(self.ctx, where, when,
                         self.ctx.window("fact", first, after, last, before, count))

    @audited("conflicts")
    def conflicts(self, call: AuditCall, status: str | None = "open") -> list[Conflict]:
        return self._conflicts(status)

    @audited("list_conflicts")
    def list_conflicts(self, call: AuditCall, where: ConflictFilter | None = None,
                       when: When = NOW, *, first: int | None = None,
                       after: str | None = None, last: int | None = None,
                       before: str | None = None, count: bool = True) -> Page[Conflict]:
        ctx = self.ctx
        ctx.require("read")
        window = ctx.window("conflict", first, after, last, before, count)
        where = where or ConflictFilter()
        where = replace(where, subject=ctx.subject(where.subject), scope=ctx.scope(where.scope))
        return listings.conflict_page(ctx.graph, ctx.key, where, when, window)

    @audited("conflict")
    def conflict(self, call: AuditCall, conflict_id: str) -> Conflict:
        self.ctx.require("read")
        return reads.conflict(self.ctx.graph, self.ctx.key, conflict_id)[0]

    def _flagged(self) -> list[Fact]:
        self.ctx.require("read")
        return reads.facts(self.ctx.graph, self.ctx.key,
                           statuses=(Status.FLAGGED_CONFLICT.value,))

    def _conflicts(self, status: str | None) -> list[Conflict]:
        self.ctx.require("read")
        return reads.conflicts(self.ctx.graph, self.ctx.key, status)

    # ---- settlement (approve) --------------------------------------------------------------
    @audited("confirm")
    def confirm(self, call: AuditCall, fact_id: str) -> Result:
        """Apply a pending proposal (needs approve); the result says what it applied
        (`Stored: [SUPERSEDE] code_status = DNR`)."""
        return self._settle(call, "confirm", fact_id, None, "", "")

    @audited("reject")
    def reject(self, call: AuditCall, fact_id: str) -> Result:
        """Retire a pending proposal as history (`Rejected: [SUPERSEDE] …`)."""
        return self._settle(call, "reject", fact_id, None, "", "")

    @audited("resolve_conflict")
    def resolve_conflict(self, call: AuditCall, conflict_id: str, winner: str, note: str = "",
                         by: str = "") -> Result:
        """One claim wins; every other held claim of the conflict is superseded by it."""
        return self._settle(call, "resolve", winner, conflict_id, note, by)

    @audited("dismiss_conflict")
    def dismiss_conflict(self, call: AuditCall, conflict_id: str, note: str = "",
                         by: str = "") -> Result:
        """Both claims valid (different contexts): held facts become active beside the rest."""
        return self._settle(call, "dismiss", None, conflict_id, note, by)

    def _settle(self, call: AuditCall, mode: Mode, fact_id: str | None,
                conflict_id: str | None, note: str, by: str) -> Result:
        ctx = self.ctx
        ctx.require("approve")
        req = Settlement(mode, fact_id, conflict_id, check_text(note, "note"),
                         by or ctx.caller.name, ctx.schema, now())
        return ctx.write(call, settle, req)

    @audited("undo")
    def undo(self, call: AuditCall, event_id: str, force: bool = False) -> UndoResult:
        """Revert what one event did (a write's `event_id`, a settlement's, an undo's): what
        it made current is retired, what it retired returns, its flags are withdrawn and its
        refinements refined back; the undo is an event of its own, so undoing it redoes.
        Refused, naming the blocking facts, when later writes built on the event, unless an
        approver passes `force`."""
        return self._undo.undo(call, event_id, force)

    # ---- the reconcile policy --------------------------------------------------------------
    @audited("set_reconcile_policy")
    def set_reconcile_policy(self, call: AuditCall, mode: str,
                             authority: Mapping[str, int] | None = None,
                             curated: Iterable[str] = ()) -> str:
        """How cross-source conflicts resolve in this space (needs admin)."""
        self.ctx.require("admin")
        policy = make_policy(mode, authority, tuple(curated))
        self.ctx.write(call, spaces.change_policy, policy_to_json(policy), now())
        return policy.describe()

    @audited("get_reconcile_policy")
    def get_reconcile_policy(self, call: AuditCall) -> Policy:
        self.ctx.require("read")
        if self.ctx.policy is not None:
            return self.ctx.policy
        return policy_from_json(spaces.stored_policy(self.ctx.graph, self.ctx.key))
