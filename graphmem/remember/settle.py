"""Settling a conflict: confirm or reject a pending proposal, resolve for a winner, dismiss.

One transaction under the space's lock: the open conflict and its facts are read again, the
plan for each held fact is made by the pure `approve` functions against the slot as it is
now, the batches are applied through the write path's own statements, the conflict closes
once none of its facts is held any more (a confirm or reject of one proposal leaves it open
for the others), and one `settle` event carries it all to the mirror.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.errors import AlreadySettled, NotFound
from graphmem.graph import conflicts, spaces
from graphmem.graph.facts import row_to_fact
from graphmem.graph.nodes import ConflictNode
from graphmem.graph.outbox import Outbox, batch_payload, new_event_id
from graphmem.model import (
    Action,
    Conflict,
    ConflictKind,
    ConflictStatus,
    Fact,
    Proposal,
    Result,
    SlotState,
    Status,
)
from graphmem.remember import approve
from graphmem.remember.pipeline import load_states
from graphmem.remember.write import Batch, apply_plan
from graphmem.slots import SlotSchema


@dataclass(frozen=True)
class Settlement:
    mode: approve.Mode
    fact_id: str | None
    conflict_id: str | None
    note: str
    by: str
    schema: SlotSchema
    now: datetime


def settle(tx: ManagedTransaction, outbox: Outbox, req: Settlement) -> Result:
    """The transaction function; returns what the settlement did to memory (for a resolve,
    the winner's change; for a dismiss, the first held fact's)."""
    space, now = outbox.space, req.now
    spaces.lock(tx, space, now)
    conflict, involved = _open_conflict(tx, space, req)
    winner, held = approve.settled(req.mode, involved, req.fact_id, conflict.id)
    batches: list[Batch] = []
    results: dict[str, Result] = {}
    event = new_event_id()
    for fact in held:
        state = _slot(tx, space, fact, now) if approve.accepts(req.mode, fact, winner) \
            else None
        plan = approve.plan(req.mode, fact, winner, state, req.schema.resolve(fact.subject))
        batch = apply_plan(tx, space, plan, now, req.by, event)
        batches.append(batch)
        tombstone_id = batch.facts[0]["id"] if plan.tombstone_for is not None else None
        results[fact.id] = approve.applied(req.mode, fact, plan, winner, tombstone_id,
                                           conflict.id)
    left = approve.still_held(involved, held)
    close = approve.closing(req.mode, conflict.id, req.fact_id, req.note, req.by, left)
    if close is not None:
        conflicts.close(tx, space, now, **close)
    outbox.record(tx, "settle", {"batches": [batch_payload(b) for b in batches],
                                 "conflict": conflict.id, "close": close,
                                 "kind": conflict.kind.value, "mode": req.mode}, now, event)
    return replace(_primary(results, winner, conflict), event_id=event)


def _primary(results: dict[str, Result], winner: Fact | None, conflict: Conflict) -> Result:
    """The change the caller asked for: the held winner's, else the first held fact's."""
    if winner is not None and winner.id in results:
        return results[winner.id]
    if results:
        return next(iter(results.values()))
    subject, value = (winner.subject, winner.value) if winner is not None else ("", "")
    return Result(Action.SKIP, subject, value, None,
                  f"Conflict {conflict.id} closed: nothing held to settle", conflict.id)


_SETTLED_AS = {Status.ACTIVE.value: "confirmed", Status.HISTORICAL.value: "rejected"}


def _settled_proposal(tx: ManagedTransaction, space: str, fact_id: str | None) -> None:
    """A proposal someone already confirmed or rejected is a lost race, told apart from an
    id that names no proposal. Its conflict may still be open for other proposals: there a
    retired proposal was confirmed, then replaced."""
    row = conflicts.settled_proposal(tx, space, fact_id)
    if row is not None:
        status, fact_status = row["status"], row["fact_status"]
        how = _SETTLED_AS.get(fact_status) or (
            "confirmed" if status == ConflictStatus.OPEN.value else status)
        raise AlreadySettled(f"pending change {fact_id!r} is already {how}")


def _slot(tx: ManagedTransaction, space: str, fact: Fact, now: datetime) -> SlotState:
    _, states = load_states(tx, space, (Proposal(fact.subject, fact.value, fact.scope),), now)
    return states[(fact.subject, fact.scope)]


def _open_conflict(tx: ManagedTransaction, space: str, req: Settlement
                   ) -> tuple[Conflict, list[Fact]]:
    conflict_id = req.conflict_id
    if conflict_id is None:
        rows = conflicts.for_fact(tx, space, req.fact_id)
        pending = [r for r in rows if r["conflict"]["kind"] == ConflictKind.PENDING.value
                   and r["fact_status"] == Status.FLAGGED_CONFLICT.value]
        if not pending:
            _settled_proposal(tx, space, req.fact_id)
            raise NotFound(f"no pending proposal {req.fact_id!r} in this space")
        conflict_id = pending[0]["conflict"]["id"]
    row = conflicts.get(tx, space, conflict_id)
    if row is None:
        raise NotFound(f"no conflict {conflict_id!r} in this space")
    found = ConflictNode.inflate(row["conflict"])
    if found.status != ConflictStatus.OPEN.value:
        raise AlreadySettled(f"conflict {conflict_id!r} is already {found.status}")
    involved = [row_to_fact(f) for f in row["facts"]]
    return found.conflict([f.id for f in involved]), involved
