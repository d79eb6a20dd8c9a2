"""Erasure: facts removed for good from the graph, the mirror, embeddings and caches.

Soft `forget` retracts and keeps history; erasure is the compliance path. One graph transaction
(under the space lock) deletes the facts with everything attached to them: the tombstones that
name their values, SUPERSEDES/RETRACTS edges, their FactVector nodes, projection edges and
entities nothing else uses, conflicts left empty; pending outbox entries are rewritten without
them, applied ones dropped; and an `erase` outbox entry (ids only) is committed. Draining that
entry deletes the mirror rows, rewrites every event of the log that mentioned them, drops
decision snapshots that included them and clears the decrypt cache (every other process finds
the entry in the log and empties its caches too, graphmem.mirror.erasures); emptying a space
drops its receipts and decisions. Neo4j's transaction log is rotated, so its next checkpoint
deletes the file that held the values (graphmem.graph.txlog). The caller gets a signed receipt;
the audit chain records that an erasure happened (counts and ids, never content).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError

from graphmem.errors import GraphMemError, InvalidInput, NotFound
from graphmem.graph import erasure as graph_erasure
from graphmem.graph import spaces, txlog
from graphmem.graph.outbox import Outbox, encode, scrub
from graphmem.lifecycle.clients import Clients
from graphmem.mirror import event_log, listings, receipts
from graphmem.mirror import retention as mirror_retention
from graphmem.mirror.db import RelationalStore
from graphmem.model.audit import AuditCall
from graphmem.settings import MAX_RETENTION_DAYS

log = logging.getLogger(__name__)

SCOPES = ("fact", "subject", "space", "expired")
ERASE_PAGE = 5_000  # facts per transaction when a whole space goes (transaction memory)

@dataclass(frozen=True)
class Target:
    """What to erase in one space: fact ids, one subject, everything, or expired history."""

    scope: str
    ids: tuple[str, ...] = ()
    subject: str | None = None
    before: datetime | None = None

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise InvalidInput(f"erasure scope {self.scope!r} is not one of {', '.join(SCOPES)}")

@dataclass(frozen=True)
class Erased:
    facts: tuple[str, ...]
    conflicts: tuple[str, ...]
    event_id: str | None

def _targets(tx: ManagedTransaction, space: str, target: Target) -> list[str]:
    if target.scope == "fact":
        ids = graph_erasure.targets_by_id(tx, space, list(target.ids))
        missing = set(target.ids) - ids
        if missing:
            raise NotFound(f"no fact {sorted(missing)[0]!r} in this space")
    elif target.scope == "subject":
        ids = graph_erasure.targets_by_subject(tx, space, target.subject)
    elif target.scope == "expired":
        ids = graph_erasure.targets_expired(tx, space, target.before)
    else:
        ids = graph_erasure.targets_all(tx, space)
    if ids:
        ids |= graph_erasure.tombstones(tx, space, sorted(ids))
    return sorted(ids)

def erase_tx(tx: ManagedTransaction, outbox: Outbox, target: Target, now: datetime,
             already: Sequence[str] = ()) -> Erased:
    """The graph side, in one transaction under the space lock (`already`: the facts of a
    whole-space erasure that earlier page transactions removed)."""
    space = outbox.space
    spaces.lock(tx, space, now)
    ids = _targets(tx, space, target)
    if not ids and target.scope != "space":
        return Erased((), (), None)
    conflicts = graph_erasure.facts(tx, space, ids)
    if target.scope == "space":
        graph_erasure.space_rest(tx, space)
        ids = sorted({*ids, *already})
    erased = frozenset(ids)
    rewrites = []
    for row in graph_erasure.outbox(tx, space):
        if row["kind"] == "erase":
            continue
        payload = json.loads(row["payload"])
        cleaned = scrub(payload, erased)
        if cleaned != payload:
            rewrites.append({"id": row["id"], "payload": encode(cleaned)})
    if rewrites:
        graph_erasure.rewrite_outbox(tx, rewrites)
    payload = {"facts": ids, "conflicts": conflicts, "all": target.scope == "space",
               "scope": target.scope}
    event_id = outbox.record(tx, "erase", payload, now)
    return Erased(tuple(ids), tuple(conflicts), event_id)

def _erase_pages(runtime: Clients, space: str, now: datetime, page: int) -> list[str]:
    """A whole space a page per transaction, leaving the last (partial) page, the outbox
    entry and the receipt to the final one. A crash part-way leaves the space partly erased
    in the graph only; erasing it again finishes the job, and the final entry (`all`)
    empties the space in the mirror, so nothing erased here survives there."""
    erased: list[str] = []

    def one_page(tx: ManagedTransaction) -> list[str]:
        spaces.lock(tx, space, now)
        ids = graph_erasure.targets_all_page(tx, space, page)
        if len(ids) == page:  # a partial page is the final transaction's
            graph_erasure.facts(tx, space, ids)
            return ids
        return []

    while ids := runtime.graph.execute(one_page):
        erased += ids
    while graph_erasure.entities_page(runtime.graph, space, page):
        pass
    return erased

def erase(runtime: Clients, space: str, target: Target, call: AuditCall | None = None,
          page: int = ERASE_PAGE, rotate_logs: bool = True) -> dict[str, Any]:
    """Erase from both stores; returns the signed receipt (`call`: the audited operation
    whose row the erase event carries). The relational store is checked first: when it is
    down nothing is erased (StoreUnavailable), so a receipt never claims an erasure the
    mirror has not taken. `rotate_logs`: rotate Neo4j's transaction log afterwards (a
    subtree erasure does it once, after its last space)."""
    mirror = runtime.mirror
    runtime.store.ping()
    mirror.drain([space])  # applied and marked: the erasure drops them rather than rewriting
    now = datetime.now(UTC)
    already = _erase_pages(runtime, space, now, page) if target.scope == "space" else []
    done = runtime.write(space, call, erase_tx, target, now, already)
    fields: dict[str, Any] = {
        "scope": target.scope, "facts": len(done.facts), "fact_ids": list(done.facts),
        "conflicts": len(done.conflicts), "event_id": done.event_id,
        "mirror": "erased" if _mirrored(runtime, space, done.event_id) else "pending",
    }
    if target.before is not None:
        fields["retired_before"] = target.before.isoformat()
    mirror.erasures.erased(space, frozenset(done.facts))
    if rotate_logs and done.facts:
        scrub_transaction_logs(runtime)
    return receipts.issue(runtime.store, mirror.ensure_registered(), mirror.cipher, "erasure",
                          space, fields)

def scrub_transaction_logs(runtime: Clients) -> None:
    """Rotate Neo4j's transaction log so that the next checkpoint deletes the file holding
    the erased values (graphmem.graph.txlog); a failure is logged, the erasure stands."""
    try:
        txlog.rotate(runtime.graph)
    except (GraphMemError, Neo4jError) as e:
        log.warning("erased; the transaction log was not rotated (the values leave it when"
                    " Neo4j rotates and prunes it): %s", e)


def _mirrored(runtime: Clients, space: str, event_id: str | None) -> bool:
    if event_id is None:
        return True
    try:
        runtime.mirror.drain([space])
    except Exception as e:  # noqa: BLE001 - the receipt says "pending"; the drainer retries
        log.warning("erased from the graph; the mirror follows when it can: %s", e)
        runtime.mirror.notify(space)
        return False
    return event_log.has_event(runtime.store, event_id)

# ---- subtrees ------------------------------------------------------------------------------
def holding(runtime: Clients, tenant: str, user: str | None = None) -> list[str]:
    """The spaces under tenant (or tenant/user) that still hold something to erase, in either
    store: erasing the others again would cost their transactions and take nothing."""
    prefix = f"{tenant}/" + (f"{user}/" if user else "")
    held = set(spaces.holding(runtime.graph, prefix))
    held.update(listings.fact_spaces(runtime.store, prefix))
    return sorted(held)


def erase_subtree(runtime: Clients, tenant: str, user: str | None = None,
                  call: AuditCall | None = None) -> dict[str, Any]:
    """Erase every space of a tenant, or of one user in it, that holds anything; one signed
    receipt for all. The subtree's other receipts and decisions go too (they name subjects
    and actions)."""
    held = holding(runtime, tenant, user)
    parts = [erase(runtime, space, Target("space"), call, rotate_logs=False)
             for space in held]
    anchor = f"{tenant}/{user}" if user else tenant
    receipts.forget_subtree(runtime.store, anchor, (p["receipt"]["id"] for p in parts))
    facts = sum(p["receipt"]["facts"] for p in parts)
    if facts:
        scrub_transaction_logs(runtime)
    mirror = runtime.mirror
    fields = {
        "scope": "user" if user else "tenant", "user": user, "spaces": held,
        "facts": facts,
        "space_receipts": [p["receipt"]["id"] for p in parts],
        "mirror": "erased" if all(p["receipt"]["mirror"] == "erased" for p in parts)
        else "pending",
    }
    return receipts.issue(runtime.store, mirror.ensure_registered(), mirror.cipher, "erasure",
                          anchor, fields)

# ---- retention -----------------------------------------------------------------------------


def days(value: timedelta | float) -> float:
    """A retention period in days: positive, at most MAX_RETENTION_DAYS."""
    period = value.total_seconds() / 86400 if isinstance(value, timedelta) else float(value)
    if not period > 0:
        raise InvalidInput(f"a retention period must be positive (days, or a timedelta), got"
                           f" {period:g}")
    if not period <= MAX_RETENTION_DAYS:
        raise InvalidInput(f"a retention period is at most {MAX_RETENTION_DAYS:,} days, got"
                           f" {period:g}")
    return period

def set_retention(store: RelationalStore, space: str, period: timedelta | float | None) -> None:
    """A space's retention period (None removes it, so the default applies)."""
    mirror_retention.store_period(store, space,
                                  None if period is None else days(period) * 86400)

def retention(store: RelationalStore, space: str, default_days: float | None
              ) -> timedelta | None:
    seconds = mirror_retention.period(store, space)
    if seconds is not None:
        return timedelta(seconds=seconds)
    return timedelta(days=default_days) if default_days else None

def purge_target(store: RelationalStore, space: str, period: timedelta | float | None,
                 default_days: float | None) -> Target:
    """Retired history older than the period (given, else the space's, else the default)."""
    chosen = (timedelta(days=days(period)) if period is not None
              else retention(store, space, default_days))
    if chosen is None:
        raise InvalidInput("no retention period: pass one, set one with set_retention, or set"
                           " GRAPHMEM_RETENTION_DAYS")
    return Target("expired", before=datetime.now(UTC) - chosen)
