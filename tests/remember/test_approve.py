"""The pure settlement planning, without a database: which held facts a settlement plans
for, and whether the conflict closes. A proposal waits until someone confirms or rejects it
(seed 000), so settling one proposal leaves the others waiting in an open conflict; resolve
and dismiss settle the whole conflict (seed 002)."""

from __future__ import annotations

import pytest

from graphmem.errors import NotFound
from graphmem.model import Action, Fact, SlotSpec, SlotState, Status
from graphmem.remember import approve

MED = SlotSpec(name="active_medication", category="critical", multi=True, confirm=True)


def med(fact_id: str, value: str, status: Status) -> Fact:
    proposed = Action.SUPERSEDE if status == Status.FLAGGED_CONFLICT else None
    return Fact(id=fact_id, space="s", subject="active_medication", value=value,
                status=status, proposed_action=proposed)


CURRENT = med("f0", "Warfarin 5mg", Status.ACTIVE)
FIRST = med("f1", "Warfarin 7.5mg", Status.FLAGGED_CONFLICT)
SECOND = med("f2", "Warfarin 10mg", Status.FLAGGED_CONFLICT)
INVOLVED = [CURRENT, FIRST, SECOND]


@pytest.mark.parametrize("mode", ["confirm", "reject"])
def test_confirm_gate_confirm_and_reject_plan_only_the_named_proposal(mode: approve.Mode
                                                                      ) -> None:
    winner, held = approve.settled(mode, INVOLVED, FIRST.id, "c1")
    assert (winner, held) == (FIRST, [FIRST])
    left = approve.still_held(INVOLVED, held)
    assert left == [SECOND]
    assert approve.closing(mode, "c1", FIRST.id, "", "ann", left) is None


@pytest.mark.parametrize("mode", ["confirm", "reject"])
def test_confirm_gate_the_last_proposal_settled_closes_the_conflict(mode: approve.Mode
                                                                    ) -> None:
    settled_first = med(FIRST.id, FIRST.value, Status.ACTIVE)
    involved = [med(CURRENT.id, CURRENT.value, Status.SUPERSEDED), settled_first, SECOND]
    _, held = approve.settled(mode, involved, SECOND.id, "c1")
    assert held == [SECOND] and approve.still_held(involved, held) == []
    close = approve.closing(mode, "c1", SECOND.id, "", "ann", [])
    assert close == {"id": "c1", "status": "resolved",
                     "winner": SECOND.id if mode == "confirm" else None, "note": mode,
                     "by": "ann"}


@pytest.mark.parametrize("mode", ["confirm", "reject"])
def test_confirm_gate_only_a_held_proposal_is_settled(mode: approve.Mode) -> None:
    with pytest.raises(NotFound, match="no pending proposal"):
        approve.settled(mode, INVOLVED, CURRENT.id, "c1")


@pytest.mark.parametrize("mode", ["resolve", "dismiss"])
def test_conflict_resolve_and_dismiss_settle_every_held_fact(mode: approve.Mode) -> None:
    named = SECOND.id if mode == "resolve" else None
    _, held = approve.settled(mode, INVOLVED, named, "c1")
    assert held == [FIRST, SECOND] and approve.still_held(INVOLVED, held) == []
    close = approve.closing(mode, "c1", named, "n", "ann", [])
    assert close is not None and close["status"] == ("resolved" if mode == "resolve"
                                                     else "dismissed")


def test_conflict_resolve_rejects_the_held_losers() -> None:
    winner, held = approve.settled("resolve", INVOLVED, SECOND.id, "c1")
    state = SlotState(facts=(CURRENT, FIRST, SECOND))
    plans = {f.id: approve.plan("resolve", f, winner, state if approve.accepts(
        "resolve", f, winner) else None, MED) for f in held}
    assert plans[FIRST.id].statuses == [{"id": FIRST.id, "status": "HISTORICAL"}]
    assert plans[SECOND.id].statuses == [{"id": SECOND.id, "status": "ACTIVE"}]
    assert plans[SECOND.id].supersedes == [(SECOND.id, CURRENT.id)]


def test_confirm_gate_a_later_confirm_replaces_the_value_confirmed_before() -> None:
    """The second proposal is applied against the slot as it is now: it supersedes the first
    proposal's value, confirmed in the meantime."""
    now_current = med(FIRST.id, FIRST.value, Status.ACTIVE)
    state = SlotState(facts=(now_current, SECOND))
    winner, held = approve.settled("confirm", [now_current, SECOND], SECOND.id, "c1")
    assert approve.accepts("confirm", SECOND, winner)
    plan = approve.plan("confirm", SECOND, winner, state, MED)
    assert plan.supersedes == [(SECOND.id, FIRST.id)]
    assert not approve.accepts("reject", SECOND, winner)
