"""The valid-time rule of a backfill, on the pure reconcile step: a value that carries its
own time never supersedes a value that began after it (it is history, valid until the
newer one began), a removal older than the value it names removes nothing, and values
with their own times are never taken for one ambiguous statement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.model import (
    Action,
    Context,
    Decision,
    Fact,
    Policy,
    Proposal,
    SlotState,
    Status,
)
from graphmem.remember.new_fact import WriteInfo, new_fact
from graphmem.remember.reconcile import detect_ambiguity, reconcile

NOW = datetime(2025, 3, 1, tzinfo=UTC)
JAN, JUN = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)
INFO = WriteInfo(space="s", now=NOW)


def pro_since(when: datetime) -> SlotState:
    return SlotState((Fact(id="f1", space="s", subject="plan", value="Pro", confidence=0.9,
                           valid_from=when, recorded_at=when),))


def decide(p: Proposal, state: SlotState) -> Decision:
    return reconcile(p, state, None, Policy(), Context(), "f2")


def test_a_backdated_value_does_not_supersede_a_newer_one() -> None:
    p = Proposal(subject="plan", value="Free", confidence=0.9, recorded_at=JAN)
    d = decide(p, pro_since(JUN))
    assert (d.action, d.status, d.supersedes, d.valid_to) == (
        Action.ARCHIVE, Status.HISTORICAL, (), JUN)
    fact = new_fact(p, d, INFO)
    assert (fact.valid_from, fact.valid_to, fact.recorded_at, fact.retired_at) == (
        JAN, JUN, JAN, JAN)


def test_a_backdated_value_with_only_a_valid_from_is_history_too() -> None:
    p = Proposal(subject="plan", value="Free", confidence=0.9, valid_from=JAN)
    d = decide(p, pro_since(JUN))
    assert d.action == Action.ARCHIVE
    assert new_fact(p, d, INFO).recorded_at == NOW


def test_a_backdated_value_newer_than_the_current_one_supersedes_it() -> None:
    p = Proposal(subject="plan", value="Team", confidence=0.9, recorded_at=JUN)
    d = decide(p, pro_since(JAN))
    assert (d.action, d.supersedes) == (Action.SUPERSEDE, ("f1",))


def test_a_backdated_removal_older_than_the_value_removes_nothing() -> None:
    p = Proposal(subject="plan", value="Pro", action=Action.RETRACT, confidence=0.9,
                 recorded_at=JAN)
    assert decide(p, pro_since(JUN)).action == Action.SKIP
    later = Proposal(subject="plan", value="Pro", action=Action.RETRACT, confidence=0.9,
                     recorded_at=JUN + timedelta(days=1))
    assert decide(later, pro_since(JUN)).action == Action.RETRACT


def test_values_with_their_own_times_are_not_ambiguous() -> None:
    timed = [Proposal(subject="plan", value=v, recorded_at=t)
             for v, t in (("Free", JAN), ("Pro", JUN))]
    assert detect_ambiguity(timed) == set()
    assert detect_ambiguity([Proposal(subject="plan", value="Free"),
                             Proposal(subject="plan", value="Pro")]) == {0, 1}
