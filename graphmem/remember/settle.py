"""Settling a conflict: confirm or reject a pending proposal, resolve for a winner, dismiss.

One transaction under the space's lock: the open conflict and its facts are read again, the
plan for each held fact is made by the pure `approve` functions against the slot as it is
now, the batches are applied through the write path's own statements, the conflict closes,
and one `settle` event carries it all to the mirror.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput, NotFound
from graphmem.graph import spaces
from graphmem.graph.driver import run
from graphmem.graph.facts import row_to_fact
from graphmem.graph.outbox import Outbox, batch_payload
from graphmem.graph.reads import conflict_from_row
from graphmem.model import Conflict, ConflictKind, ConflictStatus, Fact, Proposal, SlotState
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


def settle(tx: ManagedTransaction, outbox: Outbox, req: Settlement) -> str:
    """The transaction function; returns the seed-style line for the closed conflict."""
    space, now = outbox.space, req.now
    spaces.lock(tx, space, now)
    conflict, involved = _open_conflict(tx, space, req)
    winner, held = approve.settled(req.mode, involved, req.fact_id, conflict.id)
    batches: list[Batch] = []
    for fact in held:
        state = _slot(tx, space, fact, now) if winner is not None and fact.id == winner.id \
            else None
        plan = approve.plan(req.mode, fact, winner, state, req.schema.resolve(fact.subject))
        batches.append(apply_plan(tx, space, plan, now, req.by))
    close = approve.closing(req.mode, conflict.id, req.fact_id, req.note, req.by)
    run(tx, "conflicts/close", space=space, now=now, **close)
    outbox.record(tx, "settle", {"batches": [batch_payload(b) for b in batches],
                                 "close": close, "kind": conflict.kind.value,
                                 "mode": req.mode}, now)
    return f"Conflict {conflict.id} {close['status']}: {req.mode}"


def _slot(tx: ManagedTransaction, space: str, fact: Fact, now: datetime) -> SlotState:
    _, states = load_states(tx, space, (Proposal(fact.subject, fact.value, fact.scope),), now)
    return states[(fact.subject, fact.scope)]


def _open_conflict(tx: ManagedTransaction, space: str, req: Settlement
                   ) -> tuple[Conflict, list[Fact]]:
    conflict_id = req.conflict_id
    if conflict_id is None:
        rows = run(tx, "conflicts/for_fact", id=req.fact_id, space=space)
        pending = [r for r in rows if r["conflict"]["kind"] == ConflictKind.PENDING.value]
        if not pending:
            raise NotFound(f"no pending proposal {req.fact_id!r} in this space")
        conflict_id = pending[0]["conflict"]["id"]
    rows = run(tx, "conflicts/get", id=conflict_id, space=space)
    if not rows:
        raise NotFound(f"no conflict {conflict_id!r} in this space")
    found = rows[0]["conflict"]
    if found["status"] != ConflictStatus.OPEN.value:
        raise InvalidInput(f"conflict {conflict_id!r} is already {found['status']}")
    involved = [row_to_fact(f) for f in rows[0]["facts"]]
    return conflict_from_row(found, [f.id for f in involved]), involved
