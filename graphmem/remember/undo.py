"""Undoing one event: one transaction under the space's lock. The event's facts are read
again, the pure `revert.plan` decides the inverse against the space as it is now, the write
path's own statements apply it, and one `undo` event carries it to the mirror, the audit
chain and the change feed (see `graphmem.remember.revert` for the rules)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction
from neo4j.time import DateTime as NeoDateTime

from graphmem.errors import AlreadySettled, InvalidInput, UndoBlocked
from graphmem.graph import conflicts as graph_conflicts
from graphmem.graph import spaces
from graphmem.graph import undo as graph_undo
from graphmem.graph.outbox import Outbox, batch_payload, batches, new_event_id, revive_times
from graphmem.model import ConflictStatus
from graphmem.model.undo import UndoResult
from graphmem.remember import revert
from graphmem.remember.write import Batch, new_id


@dataclass(frozen=True)
class UndoRequest:
    event_id: str
    kind: str
    payload: dict[str, Any]
    force: bool
    by: str
    now: datetime


def undo_event(tx: ManagedTransaction, outbox: Outbox, req: UndoRequest) -> UndoResult:
    """The transaction function."""
    space, now = outbox.space, req.now
    spaces.lock(tx, space, now)
    did = revert.touched(req.kind, req.payload, batches(req.kind, req.payload))
    if did.empty:
        raise InvalidInput(f"event {req.event_id} changed nothing that can be undone (a"
                           " duplicate or a skipped fact changes nothing)")
    facts = {r["fact"]["id"]: _native(r["fact"]) for r in graph_undo.facts(tx, space, did.ids())}
    _not_undone_yet(req.event_id, did, facts)
    slots: dict[tuple[str, str], revert.Slot] = {}
    for row in graph_undo.slots(tx, space, revert.slots_of(did, facts)):
        held = slots.setdefault((row["subject"], row["scope"]), revert.Slot({})).held
        held[row["id"]] = (row["status"], row["value_key"] or "")
    conflicts = {r["id"]: revert.OpenConflict(r["kind"], r["severity"] or "medium",
                                              tuple((m[0], m[1]) for m in r["members"]))
                 for r in graph_undo.conflicts(tx, space, list(did.flagged))}
    plan = revert.plan(did, facts, slots, conflicts, req.force, now, req.by, new_id)
    if plan.blockers and not req.force:
        named = "; ".join(f"#{b.fact_id}: {b.reason}" for b in plan.blockers)
        raise UndoBlocked(f"undoing event {req.event_id} would overturn what was written"
                          f" since: {named}. An approver may undo it anyway with force")
    if not (plan.statuses or plan.facts or plan.refines or plan.close):
        raise InvalidInput(f"event {req.event_id} has nothing left to undo")
    missing = [fid for fid in plan.undone if fid not in facts]  # later values forced out
    facts.update({r["fact"]["id"]: _native(r["fact"])
                  for r in graph_undo.facts(tx, space, missing)} if missing else {})
    event = new_event_id()
    graph_undo.mark(tx, space, now, event, plan.undone)
    batch = Batch(facts=[revive_times(row) for row in plan.facts], statuses=plan.statuses,
                  refines=plan.refines, conflicts=plan.conflicts)
    batch.apply(tx, space, now, event=event)
    graph_undo.link(tx, space, now, plan.restores)
    note = f"withdrawn: event {req.event_id} was undone by {event}"
    for conflict_id in plan.close:
        graph_conflicts.close(tx, space, now, id=conflict_id,
                              status=ConflictStatus.DISMISSED.value, winner=None, note=note,
                              by=req.by)
    outbox.record(tx, "undo", {
        "undoes": req.event_id, "batches": [batch_payload(batch)], "lines": plan.lines,
        "undone": [{"id": fid, "valid_from": facts[fid].get("valid_from"),
                    "valid_to": facts[fid].get("valid_to")} for fid in plan.undone],
        "marked": plan.marked, "withdrawn": plan.withdrawn, "restores": plan.restores,
        "close": [{"id": c, "note": note, "by": req.by} for c in plan.close],
        "forced": bool(req.force and plan.blockers)}, now, event)
    return UndoResult(event, req.event_id, tuple(plan.lines),
                      tuple(r["new"] for r in plan.restores),
                      tuple(s["id"] for s in plan.statuses), tuple(plan.close),
                      bool(req.force and plan.blockers))


def _not_undone_yet(event_id: str, did: revert.Touched, facts: dict[str, dict[str, Any]]
                    ) -> None:
    """An event whose every current, flagged or history fact an undo already voided was
    undone: a second undo would find nothing of its own to revert."""
    own = [facts[f] for f in (*did.current, *did.flagged, *did.history) if f in facts]
    if own and all(f.get("undone_by") for f in own):
        raise AlreadySettled(f"event {event_id} was already undone by"
                             f" {own[0]['undone_by']} (undo that event to redo it)")


def _native(props: dict[str, Any]) -> dict[str, Any]:
    """A fact's properties with its times as UTC datetimes, as the write path stores them
    (the driver's DateTime carries a zone id, which a copy would store as a zoned time)."""
    return {k: v.to_native().astimezone(UTC) if isinstance(v, NeoDateTime) else v
            for k, v in props.items()}


def payload_of(text: str) -> dict[str, Any]:
    found = json.loads(text)
    if not isinstance(found, dict):
        raise InvalidInput("the event's payload is not an object")
    return found
