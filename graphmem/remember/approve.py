"""What accepting or rejecting a held fact does: pure, like reconcile.

A FLAGGED_CONFLICT fact carries the action it would have taken (`proposed_action`). Accepting
it (confirm, or resolving its conflict in its favour) applies exactly that action now;
rejecting it retires it as HISTORICAL. The graph store applies the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from graphmem.errors import NotFound
from graphmem.model import (
    Action,
    Cardinality,
    ConflictStatus,
    Fact,
    Kind,
    Result,
    SlotSpec,
    SlotState,
    Status,
    value_key,
)
from graphmem.remember.reconcile import identity
from graphmem.remember.results import (
    NOTHING_TO_RETRACT,
    SKIP_PREFIX,
    rejected_message,
    stored_message,
    tombstone,
)

Mode = Literal["confirm", "reject", "resolve", "dismiss"]


@dataclass
class Plan:
    """Status changes, SUPERSEDES edges, and at most one tombstone or in-place refine."""

    statuses: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[tuple[str, str]] = field(default_factory=list)
    tombstone_for: Fact | None = None
    refine: tuple[Fact, str] | None = None

    def status(self, fact_id: str, status: Status) -> None:
        self.statuses.append({"id": fact_id, "status": status.value})


def _is_list(fact: Fact, spec: SlotSpec | None) -> bool:
    return bool(spec and spec.multi) or fact.cardinality == Cardinality.MANY


def _counts(fact: Fact, spec: SlotSpec | None) -> bool:
    """Whether an active fact is the slot's value: states always; events only on a declared
    single-valued slot, where the declaration outranks the kind (as in reconcile)."""
    return fact.kind == Kind.STATE or (spec is not None and not spec.multi)


def _rivals(held: Fact, state: SlotState, spec: SlotSpec | None) -> list[Fact]:
    rivals = [f for f in state.active if f.id != held.id and _counts(f, spec)]
    if _is_list(held, spec):
        mine = identity(held.value, spec, held.cardinality)
        rivals = [f for f in rivals if identity(f.value, spec, f.cardinality) == mine]
    return rivals


def _target(held: Fact, state: SlotState, spec: SlotSpec | None) -> Fact | None:
    active = [f for f in state.active if f.id != held.id and _counts(f, spec)]
    exact = [f for f in active if value_key(f.value) == value_key(held.value)]
    if exact:
        return exact[0]
    if _is_list(held, spec):
        mine = identity(held.value, spec, held.cardinality)
        same = [f for f in active if identity(f.value, spec, f.cardinality) == mine]
        return same[0] if same else None
    if not held.value and len(active) == 1:
        return active[0]
    return None


def accept(held: Fact, state: SlotState, spec: SlotSpec | None) -> Plan:
    """Apply the held fact's proposed action against the slot as it is now."""
    plan = Plan()
    action = held.proposed_action or Action.SUPERSEDE
    if action == Action.RETRACT:
        target = _target(held, state, spec)
        plan.status(held.id, Status.HISTORICAL)
        plan.tombstone_for = target
        return plan
    if action == Action.REFINE:
        rivals = _rivals(held, state, spec)
        plan.status(held.id, Status.HISTORICAL)
        if rivals:
            plan.refine = (rivals[0], held.value)
        return plan
    plan.status(held.id, Status.ACTIVE)
    if _counts(held, spec) and action != Action.COEXIST:
        plan.supersedes = [(held.id, rival.id) for rival in _rivals(held, state, spec)]
    return plan


def reject(held: Fact) -> Plan:
    plan = Plan()
    plan.status(held.id, Status.HISTORICAL)
    return plan


def keep_incumbent(held: Fact, winner: Fact) -> Plan:
    """A conflict resolved for the current value: the held rival is superseded by it."""
    plan = Plan()
    plan.supersedes = [(winner.id, held.id)]
    return plan


def coexist(held: Fact) -> Plan:
    """A dismissed conflict: both claims valid, the held one becomes active too."""
    plan = Plan()
    plan.statuses.append({"id": held.id, "status": Status.ACTIVE.value, "coexist": True})
    return plan


def tombstone_value(target: Fact) -> str:
    return tombstone(target.value)


def settled(mode: Mode, involved: list[Fact], fact_id: str | None, conflict_id: str
            ) -> tuple[Fact | None, list[Fact]]:
    """The winner (when the mode names one) and the held facts a settlement plans for.

    Confirm and reject settle only the proposal they name (it waits until someone confirms
    or rejects it), so a second proposal of the same conflict keeps waiting;
    resolve and dismiss settle the whole conflict, every held fact of it."""
    held = [f for f in involved if f.status == Status.FLAGGED_CONFLICT]
    winner = next((f for f in involved if f.id == fact_id), None)
    if mode in ("confirm", "resolve") and winner is None:
        raise NotFound(f"fact {fact_id!r} is not part of conflict {conflict_id!r}")
    if mode in ("confirm", "reject"):
        named = [f for f in held if f.id == fact_id]
        if not named:
            raise NotFound(f"fact {fact_id!r} is no pending proposal of conflict"
                           f" {conflict_id!r}")
        return winner, named
    return winner, held


def still_held(involved: list[Fact], planned: list[Fact]) -> list[Fact]:
    """The held facts a settlement leaves waiting: while any is left, the conflict stays
    open, so no flagged fact is ever outside an open conflict."""
    done = {f.id for f in planned}
    return [f for f in involved if f.status == Status.FLAGGED_CONFLICT and f.id not in done]


def accepts(mode: Mode, held: Fact, winner: Fact | None) -> bool:
    """Whether settling `held` applies its proposed action (and so needs its slot's state)."""
    return mode in ("confirm", "resolve") and winner is not None and held.id == winner.id


def plan(mode: Mode, held: Fact, winner: Fact | None, state: SlotState | None,
         spec: SlotSpec | None) -> Plan:
    """What settling one held fact does (`state`: the held fact's slot as it is now, needed
    when the held fact is the winner)."""
    if mode == "dismiss":
        return coexist(held)
    if mode == "reject":
        return reject(held)
    if accepts(mode, held, winner):
        assert state is not None, "accepting a held fact needs its slot's state"
        return accept(held, state, spec)
    if winner is not None and winner.status == Status.ACTIVE:
        return keep_incumbent(held, winner)
    return reject(held)


def closing(mode: Mode, conflict_id: str, fact_id: str | None, note: str, by: str,
            left: list[Fact]) -> dict[str, Any] | None:
    """How the conflict closes: resolved with a winner, or dismissed (both claims stand);
    None while proposals are `left` waiting (the conflict stays open for them)."""
    if left:
        return None
    status = ConflictStatus.DISMISSED if mode == "dismiss" else ConflictStatus.RESOLVED
    return {"id": conflict_id, "status": status.value,
            "winner": fact_id if mode != "reject" else None, "note": note or mode, "by": by}


def applied(mode: Mode, held: Fact, plan: Plan, winner: Fact | None, tombstone_id: str | None,
            conflict_id: str) -> Result:
    """What a settlement did to memory, in remember's result shape (`Stored: [SUPERSEDE]
    code_status = DNR`): the effect, not the label, as for remember."""
    def result(action: Action, value: str, fact_id: str | None, message: str) -> Result:
        return Result(action, held.subject, value, fact_id, message, conflict_id)

    proposed = held.proposed_action or Action.SUPERSEDE
    if mode == "reject" or (winner is None and mode != "dismiss"):
        return result(Action.SKIP, held.value, held.id,
                      rejected_message(proposed, held.subject, held.value))
    if mode == "dismiss":
        return result(Action.COEXIST, held.value, held.id,
                      stored_message(Action.COEXIST, held.subject, held.value))
    if winner is not None and winner.id != held.id:
        return result(Action.SUPERSEDE, winner.value, winner.id,
                      stored_message(Action.SUPERSEDE, winner.subject, winner.value))
    if plan.tombstone_for is not None:
        target = plan.tombstone_for
        return result(Action.RETRACT, target.value, tombstone_id,
                      stored_message(Action.RETRACT, held.subject, target.value))
    if plan.refine is not None:
        refined, value = plan.refine
        return result(Action.REFINE, value, refined.id,
                      stored_message(Action.REFINE, held.subject, value))
    if proposed in (Action.RETRACT, Action.REFINE):
        message = (NOTHING_TO_RETRACT if proposed == Action.RETRACT
                   else f"{SKIP_PREFIX}: {held.subject} = {held.value}")
        return result(Action.SKIP, held.value, None, message)
    action = (Action.SUPERSEDE if plan.supersedes
              else Action.COEXIST if proposed == Action.COEXIST else Action.ADD)
    return result(action, held.value, held.id, stored_message(action, held.subject, held.value))
