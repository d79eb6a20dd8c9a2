"""The one builder of stored facts: what a decision stores, and what reconcile's in-batch
state holds (the same Fact, by construction)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.model import (
    Action,
    Context,
    Decision,
    Policy,
    Proposal,
    SlotSpec,
    SlotState,
    Status,
    TimeRef,
)
from graphmem.remember.new_fact import WriteInfo, new_fact, refined
from graphmem.remember.reconcile import apply_to_state, reconcile

NOW = datetime(2025, 3, 1, tzinfo=UTC)
INFO = WriteInfo(space="acme", now=NOW, source="fhir", source_ref="enc-42",
                 text="allergic to penicillin", metadata={"channel": "intake"})
ALLERGY = SlotSpec(name="allergy", category="critical", multi=True)


def decide(p: Proposal, state: SlotState | None = None,
           fact_id: str = "f1") -> tuple[Decision, SlotState]:
    state = state or SlotState()
    ctx = Context(source=INFO.source, text=INFO.text)
    d = reconcile(p, state, ALLERGY if p.subject == "allergy" else None, Policy(), ctx, fact_id)
    return d, apply_to_state(state, d, p, INFO)


def test_a_current_fact_is_valid_from_the_write_and_carries_its_provenance() -> None:
    p = Proposal(subject="allergy", value="penicillin", confidence=0.9, reason="stated")
    d, after = decide(p)
    fact = new_fact(p, d, INFO)
    assert after.facts == (fact,)
    assert (fact.space, fact.source, fact.source_ref, fact.raw) == (
        "acme", "fhir", "enc-42", "allergic to penicillin")
    assert (fact.valid_from, fact.valid_to, fact.recorded_at, fact.retired_at) == (
        NOW, None, NOW, None)
    assert fact.metadata == {"channel": "intake", "kind": "state", "reason": "stated"}
    assert INFO.metadata == {"channel": "intake"}, "the write's metadata is copied, not changed"


def test_a_stated_valid_from_wins() -> None:
    since = datetime(2024, 1, 1, tzinfo=UTC)
    p = Proposal(subject="db", value="Postgres", confidence=0.9, valid_from=since)
    d, _ = decide(p)
    assert new_fact(p, d, INFO).valid_from == since


def test_an_archived_fact_was_valid_until_the_write_and_is_retired() -> None:
    p = Proposal(subject="db", value="MySQL", confidence=0.9, time_ref=TimeRef.PAST)
    d, after = decide(p)
    assert d.action == Action.ARCHIVE and after.facts == ()
    fact = new_fact(p, d, INFO)
    assert fact.status == Status.HISTORICAL
    assert (fact.valid_from, fact.valid_to, fact.retired_at) == (None, NOW, NOW)


def test_a_superseding_fact_names_what_it_supersedes() -> None:
    first = Proposal(subject="db", value="MySQL", confidence=0.9)
    _, state = decide(first, fact_id="f1")
    second = Proposal(subject="db", value="Postgres", confidence=0.9, action=Action.SUPERSEDE)
    d, after = decide(second, state, "f2")
    assert after.facts == (new_fact(second, d, INFO),)
    assert after.facts[0].supersedes == ("f1",)


def test_a_refine_takes_the_new_confidence_and_keeps_the_former_value() -> None:
    first = Proposal(subject="db", value="Postgres", confidence=0.8)
    _, state = decide(first)
    again = Proposal(subject="db", value="Postgres 16", confidence=0.99, action=Action.REFINE)
    d, after = decide(again, state, "f2")
    assert d.refines == "f1"
    (fact,) = after.facts
    assert fact == refined(state.facts[0], d, again, INFO)
    assert (fact.id, fact.value, fact.confidence) == ("f1", "Postgres 16", 0.99)
    assert fact.revisions == ({"value": "Postgres", "at": NOW.isoformat(), "source": "fhir"},)
