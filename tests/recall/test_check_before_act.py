"""check_before_act on a real Neo4j: every reason to refuse, and OK when none applies."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


@pytest.fixture
def mem(make_plain_mem: Callable[..., GraphMem]) -> GraphMem:
    return make_plain_mem()


def test_current_fresh_facts_are_ok_to_act_on(mem: GraphMem) -> None:
    mem.remember_facts([fact("plan", "Pro"), fact("region", "eu")])
    check = mem.records.check_before_act(["plan", "region"], max_age=timedelta(hours=1))
    assert check.allowed and bool(check)
    ids = {f.subject: f.id for f in mem.active()}
    assert str(check) == f"OK to act on: #{ids['plan']} plan = Pro, #{ids['region']} region = eu"


def test_refuses_when_a_subject_has_no_current_value(mem: GraphMem) -> None:
    mem.remember_facts([fact("monitoring", "Sentry")])
    mem.forget(facts=[fact("monitoring", "Sentry")])
    check = mem.records.check_before_act(["monitoring", "never_stored"])
    assert not check.allowed
    assert check.reasons == ("monitoring has no current value", "never_stored has no current value")
    assert str(check) == ("Refused: monitoring has no current value; never_stored has no current"
                          " value")


def test_refuses_when_a_fact_is_flagged(mem: GraphMem) -> None:
    mem.remember_facts([fact("plan", "Pro")], source="crm")
    mem.remember_facts([fact("plan", "Free", confidence=0.8)], source="crm")
    flagged = mem.review.flagged()[0]
    check = mem.records.check_before_act(["plan"])
    assert not check.allowed
    assert f"plan has a flagged conflicting claim: #{flagged.id} Free" in check.reasons


def test_refuses_when_a_change_is_pending_approval(make_plain_mem: Callable[..., GraphMem]
                                                  ) -> None:
    mem = make_plain_mem(slot_schema={"slots": [{"name": "active_medication", "confirm": True}]})
    mem.remember_facts([fact("active_medication", "Warfarin 5mg")])
    mem.remember_facts([fact("active_medication", "Warfarin 10mg", action="SUPERSEDE")])
    pending = mem.review.pending()[0]
    check = mem.records.check_before_act(["active_medication"])
    assert not check.allowed
    assert (f"active_medication has a change pending approval: #{pending.id} Warfarin 10mg"
            in check.reasons)


def test_refuses_a_fact_older_than_max_age(mem: GraphMem) -> None:
    mem.remember_facts([fact("plan", "Pro")])
    check = mem.records.check_before_act(["plan"], max_age=timedelta(microseconds=1))
    assert not check.allowed
    assert "older than max_age" in check.reasons[0]
    assert mem.records.check_before_act(["plan"], max_age=3600).allowed


def test_refuses_a_value_changed_within_the_change_window(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(settings={"change_window_seconds": 3600})
    mem.remember_facts([fact("plan", "Pro"), fact("region", "eu")])
    assert mem.records.check_before_act(["plan", "region"]).allowed  # new, not changed
    mem.remember_facts([fact("plan", "Team")])
    check = mem.records.check_before_act(["plan", "region"])
    assert not check.allowed
    assert len(check.reasons) == 1
    assert "plan changed" in check.reasons[0] and "within the 3600s change window" in \
        check.reasons[0]


def test_window_off_by_default_lets_a_fresh_change_through(mem: GraphMem) -> None:
    mem.remember_facts([fact("plan", "Pro")])
    mem.remember_facts([fact("plan", "Team")])
    assert mem.records.check_before_act(["plan"]).allowed


def test_subjects_fold_onto_declared_slots(make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(slot_schema={"slots": [{"name": "allergy", "aliases": ["allergies"],
                                                 "multi": True}]})
    mem.remember_facts([fact("allergy", "penicillin")])
    check = mem.records.check_before_act(["Allergies"])
    assert check.allowed and [f.value for f in check.facts] == ["penicillin"]


def test_bad_arguments_are_invalid_input(mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="at least one subject"):
        mem.records.check_before_act([])
    with pytest.raises(InvalidInput, match=r"max_age \(maxAgeSeconds\) must be a positive"):
        mem.records.check_before_act(["plan"], max_age=0)
    with pytest.raises(InvalidInput, match="up to 31,536,000,000 .* got 2.3e"):
        mem.records.check_before_act(["plan"], max_age=2.3e16)  # a timedelta cannot hold it


def test_more_subjects_than_one_call_may_name_are_refused(mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="more than 1000 subjects in one call"):
        mem.records.check_before_act(f"s{i}" for i in range(1001))
