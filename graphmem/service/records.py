"""`mem.records`: what memory holds and what happened to it: facts by id and by page,
counts, the space listing, the check before an action, the write path's catching up
(prefilter, embeddings); the signed record (the audit chain and its log, decision and state
receipts), the consistency check of the space and the mirror's drain.

Whatever reads the chain (`verify_audit`, `audit_log`, `attest`) flushes the audit queue
first, so it sees every row queued before the call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from graphmem import consistency
from graphmem.errors import AccessDenied, InvalidInput, NotFound
from graphmem.graph import differences, listings, reads, timelines
from graphmem.graph.stats import space_info, space_page, stats
from graphmem.lifecycle import fsck
from graphmem.mirror import audit, receipts
from graphmem.mirror import listings as mirror_listings
from graphmem.mirror.keys import public_pem
from graphmem.model import NOW, Fact, Result, Status, When
from graphmem.model.audit import AuditCall, AuditRow, ChainReport
from graphmem.model.differences import Clock, SlotChange
from graphmem.model.fsck import Report
from graphmem.model.history import HistoryEntry
from graphmem.model.listings import FactFilter
from graphmem.model.paging import Page
from graphmem.model.recall import ActCheck
from graphmem.model.receipts import Verdict
from graphmem.model.stats import SpaceInfo, SpaceStats
from graphmem.recall.check import check_before_act
from graphmem.service.audit import Auditor, audited
from graphmem.service.context import SpaceContext, now
from graphmem.service.reads import fact_page
from graphmem.service.writes import prefilter

HOT = (Status.ACTIVE, Status.FLAGGED_CONFLICT)


@dataclass(frozen=True)
class Listing:
    """`list_memories`: active facts, flagged ones marked ⚠, the 20 most recent retired."""

    active: tuple[Fact, ...]
    flagged: tuple[Fact, ...]
    retired: tuple[Fact, ...]
    next_cursor: str | None = None

    def __str__(self) -> str:
        lines = [f"#{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.active]
        lines += [f"⚠ #{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.flagged]
        if self.retired:
            lines.append("Recently retired:")
            lines += [f"  #{f.id} {f.subject} = {f.value} [{f.status.value}]"
                      for f in self.retired]
        if self.next_cursor:
            lines.append(f'More: call again with cursor="{self.next_cursor}".')
        return "\n".join(lines) if lines else "No memories stored."


def _scope(f: Fact) -> str:
    return "" if f.scope == "global" else f" ({f.scope})"


def _between(start: datetime, end: datetime | None, clock: Clock | str
             ) -> tuple[datetime, datetime, Clock]:
    """Two instants of a clock, checked: each with a timezone, the first before the second."""
    try:
        chosen = Clock(str(clock).upper())
    except ValueError:
        raise InvalidInput(f"clock {clock!r}: use RECORDED or VALID") from None
    first = reads.aware(start, "from")
    last = reads.aware(end, "to") or now()
    if first is None or first >= last:
        raise InvalidInput("from must come before to")
    return first, last, chosen


class Records:
    """What memory holds and what happened to it, and the signed record of both."""

    def __init__(self, ctx: SpaceContext, auditor: Auditor) -> None:
        self.ctx = ctx
        self.auditor = auditor

    # ---- the write path catching up --------------------------------------------------------
    @audited("prefilter")
    def prefilter(self, call: AuditCall, text: str) -> list[Result] | None:
        """The dedup prefilter: the exact message already produced facts, all still ACTIVE."""
        return prefilter(self.ctx, text)

    @audited("wait_for_embeddings")
    def wait_for_embeddings(self, call: AuditCall, timeout: float | None = None) -> bool:
        """Block until this process's queued fact embeddings are stored (tools, tests, batch
        jobs that rank right after loading); False when `timeout` seconds pass first."""
        runtime = self.ctx.runtime
        return not runtime.has_embed_worker or runtime.embed_worker.flush(timeout)

    def read_after(self, token: str) -> AbstractContextManager[consistency.Tracker]:
        """Reads inside the block first wait for the state a write's `consistency_token`
        names, on whichever server serves them: read-your-writes across hosts."""
        return consistency.tracking(after=token)

    # ---- facts -----------------------------------------------------------------------------
    @audited("check_before_act")
    def check_before_act(self, call: AuditCall, subjects: Iterable[str],
                         max_age: timedelta | float | None = None,
                         as_of: datetime | None = None,
                         valid_at: datetime | None = None) -> ActCheck:
        """Refuses, with reasons, when a fact the action depends on is not safe to use (as
        it would have at `as_of`; only facts true at `valid_at` when given)."""
        when = When(as_of=as_of, valid_at=valid_at)
        ctx = self.ctx
        ctx.require("read")
        return check_before_act(ctx.graph, ctx.key, ctx.subjects(subjects), max_age,
                                ctx.settings.change_window_seconds, now(), when.as_of,
                                when.valid_at)

    @audited("fact")
    def fact(self, call: AuditCall, fact_id: str, as_of: datetime | None = None) -> Fact:
        """One fact by id (as memory held it at `as_of`, when given)."""
        self.ctx.require("read")
        if as_of is None:
            return reads.get(self.ctx.graph, self.ctx.key, fact_id)[0]
        found = self._by_id([fact_id], as_of)
        if fact_id not in found:
            raise NotFound(f"no fact {fact_id!r} in this space at {as_of.isoformat()}")
        return found[fact_id]

    @audited("facts_by_id")
    def facts_by_id(self, call: AuditCall, ids: Iterable[str], as_of: datetime | None = None
                    ) -> dict[str, Fact]:
        """Facts by id in one read (as they stood at `as_of`); unknown ids are absent."""
        return self._by_id(ids, as_of)

    def _by_id(self, ids: Iterable[str], as_of: datetime | None) -> dict[str, Fact]:
        self.ctx.require("read")
        return listings.by_ids(self.ctx.graph, self.ctx.key, list(ids),
                               When(as_of=as_of).as_of)

    @audited("superseded_by")
    def superseded_by(self, call: AuditCall, ids: Iterable[str],
                      as_of: datetime | None = None) -> dict[str, Fact]:
        """For each fact id, the fact that superseded (or the tombstone that retracted) it."""
        self.ctx.require("read")
        return listings.superseded_by(self.ctx.graph, self.ctx.key, list(ids),
                                      When(as_of=as_of).as_of)

    @audited("list_memories")
    def list_memories(self, call: AuditCall, *, first: int | None = None,
                      after: str | None = None) -> Listing:
        """Active and flagged facts, then the 20 most recently retired; with `first` one
        page of them (`after`: the previous page's `next_cursor`)."""
        ctx = self.ctx
        window = (None if first is None and after is None else
                  ctx.window("fact", first, after, None, None, False))
        ctx.require("read")
        graph, key = ctx.graph, ctx.key
        if window is not None:
            page = fact_page(ctx, FactFilter(statuses=HOT), NOW, window)
            retired = () if window.after else tuple(reads.recent_retired(graph, key, 20))
            return Listing(tuple(f for f in page.items if f.status == Status.ACTIVE),
                           tuple(f for f in page.items if f.status == Status.FLAGGED_CONFLICT),
                           retired, page.next_cursor)
        hot = reads.hot(graph, key)
        return Listing(tuple(f for f in hot if f.status == Status.ACTIVE),
                       tuple(f for f in hot if f.status == Status.FLAGGED_CONFLICT),
                       tuple(reads.recent_retired(graph, key, 20)))

    @audited("list_facts")
    def page(self, call: AuditCall, where: FactFilter | None = None, when: When = NOW, *,
             first: int | None = None, after: str | None = None, last: int | None = None,
             before: str | None = None, count: bool = True) -> Page[Fact]:
        """Facts of any status, filtered, at any point of either clock, a page at a time
        (`first`/`after` forwards, `last`/`before` backwards, cursors from a page)."""
        return fact_page(self.ctx, where or FactFilter(), when,
                         self.ctx.window("fact", first, after, last, before, count))

    @audited("history_page")
    def history_page(self, call: AuditCall, subject: str, scope: str | None = None,
                     when: When = NOW, *, first: int | None = None, after: str | None = None,
                     last: int | None = None, before: str | None = None,
                     count: bool = True) -> Page[HistoryEntry]:
        """A page of a subject's timeline, oldest → newest (`last` reads it backwards)."""
        ctx = self.ctx
        window = ctx.window("entry", first, after, last, before, count)
        ctx.require("read")
        return timelines.history_page(ctx.graph, ctx.key, ctx.subject(subject) or "", scope,
                                      when, window)

    @audited("changes")
    def changes(self, call: AuditCall, from_: datetime, to: datetime | None = None,
                clock: Clock | str = Clock.RECORDED, subject: str | None = None, *,
                first: int | None = None, after: str | None = None, last: int | None = None,
                before: str | None = None, count: bool = True) -> Page[SlotChange]:
        """What changed between two instants: each slot whose current facts at `from_`
        differ from those at `to` (now when None), on the RECORDED clock (what memory held)
        or the VALID one (what was true in the world), with the events that did it; a page
        of slots at a time, in (subject, scope) order."""
        ctx = self.ctx
        window = ctx.window("slot", first, after, last, before, count)
        ctx.require("read")
        start, end, chosen = _between(from_, to, clock)
        found = differences.changes(ctx.graph, ctx.key, start, end, chosen,
                                    ctx.subject(subject))
        inside = [c for c in found if (window.after is None or c.key > window.after)
                  and (window.before is None or c.key < window.before)]
        reading = inside[::-1] if window.backward else inside
        return window.page(reading[:window.size + 1], lambda c: c.key,
                           len(found) if window.count else None)

    # ---- counts and spaces -----------------------------------------------------------------
    @audited("stats")
    def stats(self, call: AuditCall, when: When = NOW) -> SpaceStats:
        """Counts of the space's facts by status, open conflicts, pending proposals and
        entities, by aggregation."""
        self.ctx.require("read")
        found = stats(self.ctx.graph, [self.ctx.key], when)
        return found.get(self.ctx.key) or SpaceStats(self.ctx.key)

    @audited("spaces")
    def spaces(self, call: AuditCall, *, first: int | None = None, after: str | None = None,
               last: int | None = None, before: str | None = None,
               count: bool = True) -> Page[SpaceInfo]:
        """The spaces of this space's tenant that something wrote to, in key order."""
        window = self.ctx.window("space", first, after, last, before, count)
        self.ctx.require("read")
        return space_page(self.ctx.graph, self._tenant_prefix(), window)

    @audited("space_info")
    def space_info(self, call: AuditCall) -> SpaceInfo:
        """This space, when something wrote to it (NotFound otherwise)."""
        self.ctx.require("read")
        found = space_info(self.ctx.graph, self.ctx.key)
        if found is None:
            raise NotFound(f"no space {self.ctx.key!r}: nothing was written to it")
        return found

    @audited("spaces_stats")
    def spaces_stats(self, call: AuditCall, keys: Iterable[str], when: When = NOW
                     ) -> dict[str, SpaceStats]:
        """Counts of several spaces of this tenant in one statement."""
        self.ctx.require("read")
        wanted = list(dict.fromkeys(keys))
        prefix = self._tenant_prefix()
        outside = [k for k in wanted if not k.startswith(prefix)]
        if outside:
            raise InvalidInput(f"space {outside[0]!r} is not in tenant {self.ctx.space.tenant!r}")
        found = stats(self.ctx.graph, wanted, when)
        return {k: found.get(k) or SpaceStats(k) for k in wanted}

    def _tenant_prefix(self) -> str:
        return f"{self.ctx.space.tenant}/"

    # ---- the audit chain ----------------------------------------------------------------
    @audited("verify_audit")
    def verify_audit(self, call: AuditCall, deep: bool = False,
                     receipt: Mapping[str, Any] | None = None,
                     tenant: str | None = None) -> ChainReport:
        """Check the whole audit chain: hashes, links, the signed head, the checkpoint file
        and the event log (`deep`: every row's signature too; `receipt`: the chain must still
        hold the head it saw; `tenant`: report for that tenant only, other tenants'
        problems counted)."""
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

    @audited("audit_log")
    def audit_log(self, call: AuditCall, limit: int = 50, before: int | None = None,
                  operation: str | None = None) -> list[AuditRow]:
        """This tenant's audit rows, newest first."""
        self.ctx.require("verify")
        self.ctx.limit(limit)
        self.ctx.runtime.mirror.flush()
        return audit.listing(self.ctx.runtime.store, self.ctx.space.tenant, limit, before,
                             operation)

    @audited("audit_page")
    def audit_page(self, call: AuditCall, *, first: int | None = None,
                   after: str | None = None, operation: str | None = None,
                   count: bool = True) -> Page[AuditRow]:
        """This tenant's audit rows newest first, a page after the cursor's row (by sequence
        number: rows only ever append, so pages never shift)."""
        window = self.ctx.window("audit", first, after, None, None, count)
        self.ctx.require("verify")
        if window.backward or window.before is not None:
            raise InvalidInput("the audit log reads newest first: page with first and after")
        self.ctx.runtime.mirror.flush()
        store, tenant = self.ctx.runtime.store, self.ctx.space.tenant
        before = None if window.after is None else int(window.after[0])
        rows = audit.listing(store, tenant, window.size + 1, before, operation)
        total = mirror_listings.audit_count(store, tenant, operation) if window.count else None
        return window.page(rows, lambda r: (r.seq,), total)

    @audited("audit_entry")
    def audit_entry(self, call: AuditCall, seq: int) -> AuditRow:
        self.ctx.require("verify")
        self.ctx.runtime.mirror.flush()
        found = mirror_listings.audit_row(self.ctx.runtime.store, self.ctx.space.tenant, seq)
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

    @audited("record_decision")
    def record_decision(self, call: AuditCall, action: str, subjects: Iterable[str]
                        ) -> dict[str, Any]:
        """Snapshot the exact ACTIVE facts of the subjects an action relied on; returns the
        signed decision receipt with the snapshot beside it."""
        self.ctx.require("write")
        if not action.strip():
            raise InvalidInput("describe the action the decision is about")
        names, facts = self._active_of(subjects)
        mirror = self.ctx.runtime.mirror
        return receipts.record_decision(
            self.ctx.runtime.store, mirror.ensure_registered(), mirror.cipher, self.ctx.key,
            self.ctx.caller.name, action, names, facts)

    @audited("attest")
    def attest(self, call: AuditCall, subjects: Iterable[str] | None = None) -> dict[str, Any]:
        """A signed statement of what memory holds now (the ACTIVE facts of the space, or of
        some subjects) and where the audit chain stands."""
        self.ctx.require("read")
        names, facts = self._active_of(subjects)
        runtime = self.ctx.runtime
        runtime.mirror.flush()  # the head it carries covers every row queued before
        fields = {"subjects": names or None}
        return receipts.snapshot_receipt(runtime.store, runtime.mirror.ensure_registered(),
                                         runtime.mirror.cipher, "attestation", self.ctx.key,
                                         facts, fields)

    @audited("receipt")
    def receipt(self, call: AuditCall, receipt_id: str) -> dict[str, Any]:
        """A receipt issued earlier, found only from inside its tenant."""
        self.ctx.require("read")
        return receipts.stored(self.ctx.runtime.store, self.ctx.runtime.mirror.cipher,
                               receipt_id, self.ctx.space.tenant)

    def export_public_key(self) -> str:
        """The current signing public key (PEM): all a third party needs for verify_receipt."""
        return public_pem(self.ctx.runtime.mirror.signer.public)

    @audited("verify_receipt")
    def verify_receipt(self, call: AuditCall, receipt: Mapping[str, Any],
                       public_key: str | None = None) -> Verdict:
        """Check a receipt against `public_key` alone when given (what a third party holds),
        else against this deployment's keys, retired ones included. Audited either way."""
        if public_key is not None:
            return receipts.verify_receipt(receipt, public_key)  # a bad key: InvalidInput
        return receipts.check(receipt, self.ctx.runtime.mirror.trusted())

    # ---- the space's consistency -----------------------------------------------------------
    @audited("fsck")
    def fsck(self, call: AuditCall, strict: bool = False) -> Report:
        """The space's graph invariants and the mirror against the graph."""
        self.ctx.require("verify")
        return fsck.fsck(self.ctx.runtime, self.ctx.key, strict)

    def drain(self) -> int:
        """Apply this space's pending outbox entries to the mirror now (a background thread
        normally does it within milliseconds of each write); returns how many were applied."""
        return self.ctx.runtime.mirror.drain([self.ctx.key])
