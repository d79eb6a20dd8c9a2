"""Settling a conflict that holds several proposals, on a real Neo4j: no flagged fact is ever
left outside an open conflict.

A confirm-gate proposal waits until someone confirms or rejects it (seed 000, "Confirmation
gate"), so confirming or rejecting one proposal of a pending conflict leaves the others
waiting in the same open conflict; resolving or dismissing the conflict settles all of its
held facts at once (seed 002, "Conflict lifecycle"). The examples are the seeds': Warfarin
doses on the clinical `active_medication` slot, the cache TTL of seed 002.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import AlreadySettled, NotFound
from graphmem.model import Action, ConflictKind, ConflictStatus, Fact, Status
from graphmem.runtime import Runtime

pytestmark = pytest.mark.neo4j

CLINICAL = {"slots": [
    {"name": "active_medication", "category": "critical", "multi": True, "confirm": True,
     "verbatim": True},
    {"name": "code_status", "category": "critical", "confirm": True},
]}

# A held fact with no open conflict holding it: nobody could ever see or settle it.
STRANDED = """
MATCH (f:Fact {space: $space, status: 'FLAGGED_CONFLICT'})
WHERE NOT EXISTS { MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f) WHERE c.space = $space }
RETURN f.id AS id, f.value AS value
"""


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


def say(mem: GraphMem, *facts: dict[str, Any], **kw: Any) -> list[str]:
    return [str(r) for r in mem.remember_facts(list(facts), **kw)]


def stranded(runtime: Runtime, mem: GraphMem) -> list[dict[str, Any]]:
    with runtime.graph.session() as session:
        return session.run(STRANDED, space=mem.space.key).data()


def values(mem: GraphMem, subject: str) -> list[str]:
    return sorted(f.value for f in mem.active(subject))


def proposal(mem: GraphMem, value: str) -> Fact:
    return next(f for f in mem.review.pending() if f.value == value)


@pytest.fixture
def warfarin(make_mem: Callable[..., GraphMem]) -> GraphMem:
    """Warfarin 5mg current, two dose changes proposed: both wait in one pending conflict."""
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("active_medication", "Warfarin 5mg"))
    out = say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"))
    out += say(mem, fact("active_medication", "Warfarin 10mg", action="SUPERSEDE"))
    assert out == ["Stored: [FLAG] active_medication = Warfarin 7.5mg",
                   "Stored: [FLAG] active_medication = Warfarin 10mg"]
    (conflict,) = mem.review.conflicts()
    assert conflict.kind == ConflictKind.PENDING and len(conflict.fact_ids) == 3
    return mem


def test_confirm_gate_confirming_one_proposal_leaves_the_other_pending(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    applied = mem.review.confirm(proposal(mem, "Warfarin 7.5mg").id)
    assert str(applied) == "Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert applied.conflict_id == conflict.id
    assert values(mem, "active_medication") == ["Warfarin 7.5mg"]
    assert [p.value for p in mem.review.pending()] == ["Warfarin 10mg"]
    assert [c.id for c in mem.review.conflicts()] == [conflict.id]
    assert stranded(runtime, mem) == []


def test_confirm_gate_the_last_proposal_confirmed_closes_the_conflict(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    mem.review.confirm(proposal(mem, "Warfarin 7.5mg").id)
    last = proposal(mem, "Warfarin 10mg")
    applied = mem.review.confirm(last.id)
    assert str(applied) == "Stored: [SUPERSEDE] active_medication = Warfarin 10mg"
    assert values(mem, "active_medication") == ["Warfarin 10mg"]
    review = mem.review
    assert review.conflicts() == [] and review.pending() == [] and review.flagged() == []
    (closed,) = mem.review.conflicts("resolved")
    assert (closed.winner, closed.status) == (last.id, ConflictStatus.RESOLVED)
    statuses = [(e.value, e.status) for e in mem.history("active_medication").entries]
    assert statuses == [("Warfarin 5mg", "SUPERSEDED"), ("Warfarin 7.5mg", "SUPERSEDED"),
                        ("Warfarin 10mg", "ACTIVE")]
    assert stranded(runtime, mem) == []


def test_confirm_gate_rejecting_one_proposal_leaves_the_other_pending(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    rejected = mem.review.reject(proposal(mem, "Warfarin 7.5mg").id)
    assert str(rejected) == "Rejected: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert values(mem, "active_medication") == ["Warfarin 5mg"]
    assert [p.value for p in mem.review.pending()] == ["Warfarin 10mg"]
    assert [c.id for c in mem.review.conflicts()] == [conflict.id]
    assert stranded(runtime, mem) == []
    mem.review.reject(proposal(mem, "Warfarin 10mg").id)
    assert values(mem, "active_medication") == ["Warfarin 5mg"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    (closed,) = mem.review.conflicts("resolved")
    assert (closed.id, closed.winner) == (conflict.id, None)


def test_confirm_gate_confirm_then_reject_closes_with_the_confirmed_value_current(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    mem.review.confirm(proposal(mem, "Warfarin 10mg").id)
    mem.review.reject(proposal(mem, "Warfarin 7.5mg").id)
    assert values(mem, "active_medication") == ["Warfarin 10mg"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    assert stranded(runtime, mem) == []


def test_confirm_gate_proposals_on_different_list_items_are_settled_one_by_one(
        make_mem: Callable[..., GraphMem], runtime: Runtime) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("active_medication", "Warfarin 5mg"), fact("active_medication", "Aspirin 81mg"))
    say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"))
    say(mem, fact("active_medication", "Aspirin 81mg", action="RETRACT"))
    (conflict,) = mem.review.conflicts()
    assert conflict.kind == ConflictKind.PENDING
    mem.review.confirm(proposal(mem, "Warfarin 7.5mg").id)
    assert values(mem, "active_medication") == ["Aspirin 81mg", "Warfarin 7.5mg"]
    assert [p.value for p in mem.review.pending()] == ["Aspirin 81mg"]
    assert stranded(runtime, mem) == []
    applied = mem.review.confirm(proposal(mem, "Aspirin 81mg").id)
    assert str(applied) == "Stored: [RETRACT] active_medication = Aspirin 81mg"
    assert values(mem, "active_medication") == ["Warfarin 7.5mg"]
    assert mem.review.conflicts() == [] and stranded(runtime, mem) == []


def test_confirm_gate_resolving_the_conflict_settles_every_proposal(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    winner = proposal(mem, "Warfarin 10mg")
    done = mem.review.resolve_conflict(conflict.id, winner.id, note="confirmed with the prescriber")
    assert str(done) == "Stored: [SUPERSEDE] active_medication = Warfarin 10mg"
    assert values(mem, "active_medication") == ["Warfarin 10mg"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    loser = next(e for e in mem.history("active_medication").entries
                 if e.value == "Warfarin 7.5mg")
    assert loser.status == Status.HISTORICAL.value
    assert stranded(runtime, mem) == []


def test_confirm_gate_resolving_after_a_confirm_settles_the_rest(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    confirmed = proposal(mem, "Warfarin 7.5mg")
    mem.review.confirm(confirmed.id)
    done = mem.review.resolve_conflict(conflict.id, confirmed.id)
    assert str(done) == "Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert values(mem, "active_medication") == ["Warfarin 7.5mg"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    assert mem.review.conflicts("resolved")[0].winner == confirmed.id
    assert stranded(runtime, mem) == []


def test_confirm_gate_dismissing_the_conflict_settles_every_proposal(
        make_mem: Callable[..., GraphMem], runtime: Runtime) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("code_status", "Full code"))
    say(mem, fact("code_status", "DNR", action="SUPERSEDE"))
    say(mem, fact("code_status", "DNI", action="SUPERSEDE"))
    (conflict,) = mem.review.conflicts()
    mem.review.confirm(proposal(mem, "DNR").id)
    assert [p.value for p in mem.review.pending()] == ["DNI"]
    done = mem.review.dismiss_conflict(conflict.id, note="both hold: DNR and DNI")
    assert str(done) == "Stored: [COEXIST] code_status = DNI"
    assert values(mem, "code_status") == ["DNI", "DNR"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    assert mem.review.conflicts("dismissed")[0].id == conflict.id
    assert stranded(runtime, mem) == []


def test_confirm_gate_a_proposal_joining_after_a_confirm_waits_in_the_same_conflict(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    mem.review.confirm(proposal(mem, "Warfarin 7.5mg").id)
    out = say(mem, fact("active_medication", "Warfarin 2.5mg", action="SUPERSEDE"))
    assert out == ["Stored: [FLAG] active_medication = Warfarin 2.5mg"]
    assert [c.id for c in mem.review.conflicts()] == [conflict.id]
    assert sorted(p.value for p in mem.review.pending()) == ["Warfarin 10mg", "Warfarin 2.5mg"]
    mem.review.reject(proposal(mem, "Warfarin 10mg").id)
    assert [p.value for p in mem.review.pending()] == ["Warfarin 2.5mg"]
    assert stranded(runtime, mem) == []


def test_confirm_gate_only_a_held_proposal_can_be_confirmed_or_rejected(
        warfarin: GraphMem, runtime: Runtime) -> None:
    mem = warfarin
    (conflict,) = mem.review.conflicts()
    current = mem.active("active_medication")[0]
    for settle in (mem.review.confirm, mem.review.reject):
        with pytest.raises(NotFound, match="no pending proposal"):
            settle(current.id)
    assert [c.id for c in mem.review.conflicts()] == [conflict.id]
    assert len(mem.review.pending()) == 2
    confirmed = proposal(mem, "Warfarin 7.5mg")
    mem.review.confirm(confirmed.id)
    for settle in (mem.review.confirm, mem.review.reject):
        with pytest.raises(AlreadySettled, match="is already confirmed"):
            settle(confirmed.id)
    assert [p.value for p in mem.review.pending()] == ["Warfarin 10mg"]
    assert values(mem, "active_medication") == ["Warfarin 7.5mg"]
    assert stranded(runtime, mem) == []


def test_conflict_resolve_settles_every_flagged_rival(mem: GraphMem, runtime: Runtime) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("ttl", "300s"), source="alice")
    say(mem, fact("ttl", "600s"), source="ci")
    say(mem, fact("ttl", "900s"), source="ops")
    (conflict,) = mem.review.conflicts()
    assert len(mem.review.flagged()) == 2
    winner = next(f for f in mem.review.flagged() if f.value == "600s")
    done = mem.review.resolve_conflict(conflict.id, winner.id, note="confirmed in prod config")
    assert done.action == Action.SUPERSEDE
    assert values(mem, "ttl") == ["600s"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    assert stranded(runtime, mem) == []


def test_conflict_dismiss_settles_every_flagged_rival(mem: GraphMem, runtime: Runtime) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("ttl", "300s"), source="alice")
    say(mem, fact("ttl", "600s"), source="ci")
    say(mem, fact("ttl", "900s"), source="ops")
    mem.review.dismiss_conflict(mem.review.conflicts()[0].id, note="staging, prod and canary")
    assert values(mem, "ttl") == ["300s", "600s", "900s"]
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    assert stranded(runtime, mem) == []
