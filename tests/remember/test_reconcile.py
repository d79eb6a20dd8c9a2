"""The pure reconcile step, one test per rule, driven by the seeds' own examples.

Multi-step scenarios chain reconcile + apply_to_state through `Memory`, the same way a
batch reconciles fact after fact in memory before the graph store applies the decisions.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model import (
    Action,
    Cardinality,
    ConflictKind,
    Context,
    Decision,
    Fact,
    Kind,
    Policy,
    PolicyMode,
    Proposal,
    SlotSpec,
    SlotState,
    Status,
    TimeRef,
)
from graphmem.remember.language import is_removal, is_removal_of
from graphmem.remember.new_fact import WriteInfo
from graphmem.remember.reconcile import (
    apply_to_state,
    detect_ambiguity,
    identity,
    reconcile,
    same_value,
)
from graphmem.remember.results import (
    NO_FACTS,
    NOTHING_TO_RETRACT,
    result_message,
    retracted_value,
    tombstone,
)

NOW = datetime(2025, 3, 1, tzinfo=UTC)

ALLERGY = SlotSpec(name="allergy", category="critical", multi=True, aliases=("allergies",))
MEDICATION = SlotSpec(
    name="active_medication", category="critical", multi=True, confirm=True, verbatim=True
)
PLAN = SlotSpec(name="plan", category="account")
DB = SlotSpec(name="db")
DOSE_PLAN = SlotSpec(name="care_plan", confirm=True)
SPECS = {s.name: s for s in (ALLERGY, MEDICATION, PLAN, DB, DOSE_PLAN)}


def _info(ctx: Context) -> WriteInfo:
    """The write a reconciled proposal belongs to, as the pipeline describes it."""
    return WriteInfo(space="s", now=NOW, source=ctx.source, text=ctx.text)


class Memory:
    """A tiny in-memory space: slot states chained through reconcile + apply_to_state."""

    def __init__(self, policy: Policy | None = None, specs: dict[str, SlotSpec] | None = None):
        self.policy = policy or Policy()
        self.specs = SPECS if specs is None else specs
        self.slots: dict[tuple[str, str], SlotState] = {}
        self.count = 0

    def state(self, subject: str, scope: str = "global") -> SlotState:
        base = self.slots.get((subject, scope), SlotState())
        elsewhere = any(
            s.active for (subj, sc), s in self.slots.items() if subj == subject and sc != scope
        )
        return replace(base, elsewhere=elsewhere)

    def remember(
        self,
        subject: str,
        value: str,
        *,
        source: str = "",
        text: str = "",
        trusted: bool = False,
        ambiguous: bool = False,
        **fields: object,
    ) -> Decision:
        fields.setdefault("confidence", 0.95)
        p = Proposal(subject=subject, value=value, raw=text, **fields)  # type: ignore[arg-type]
        ctx = Context(source=source, text=text, trusted=trusted, ambiguous=ambiguous)
        state = self.state(subject, p.scope)
        d = reconcile(p, state, self.specs.get(subject), self.policy, ctx, f"f{self.count}")
        self.count += 1
        self.slots[(subject, p.scope)] = apply_to_state(state, d, p, _info(ctx))
        return d

    def active(self, subject: str, scope: str = "global") -> list[str]:
        return [f.value for f in self.state(subject, scope).active]

    def flagged(self, subject: str, scope: str = "global") -> list[str]:
        return [f.value for f in self.state(subject, scope).flagged]

    def fact(self, fact_id: str) -> Fact:
        for state in self.slots.values():
            for f in state.facts:
                if f.id == fact_id:
                    return f
        raise KeyError(fact_id)


# ---------------------------------------------------------------------------------------------
# Rule 0: SKIP


def test_skip_label_is_skip() -> None:
    m = Memory()
    d = m.remember("state", "Jotai", action=Action.SKIP, text="maybe we should try Jotai?")
    assert d.action == Action.SKIP
    assert d.status is None and d.fact_id is None
    assert d.message == "Not stored (hypothetical, sarcasm, or nothing to change): state = Jotai"
    assert m.active("state") == []


def test_missing_confidence_counts_as_half() -> None:
    m = Memory()
    m.remember("db", "MySQL")
    d = m.remember("db", "Postgres", action=Action.SUPERSEDE, confidence=None)
    assert d.action == Action.FLAG
    assert d.conflict_kind == ConflictKind.LOW_CONFIDENCE
    assert m.active("db") == ["MySQL"]


# ---------------------------------------------------------------------------------------------
# Rule 1: events


def test_events_never_replace() -> None:
    m = Memory()
    first = m.remember("race", "charity 5k", kind=Kind.EVENT)
    second = m.remember("race", "city marathon", kind=Kind.EVENT, action=Action.SUPERSEDE)
    third = m.remember("race", "charity 5k", kind=Kind.EVENT)
    assert (first.action, second.action, third.action) == (Action.ADD, Action.ADD, Action.DEDUP)
    assert second.supersedes == ()
    assert m.active("race") == ["charity 5k", "city marathon"]


def test_events_relabel_retract_and_refine_to_add() -> None:
    m = Memory()
    m.remember("call", "Tuesday call", kind=Kind.EVENT)
    for action in (Action.RETRACT, Action.REFINE):
        d = m.remember("call", f"call {action}", kind=Kind.EVENT, action=action, text="dropped")
        assert d.action == Action.ADD and d.retracts == () and d.refines is None
    assert len(m.active("call")) == 3


def test_events_are_never_retired() -> None:
    m = Memory()
    m.remember("race", "charity 5k", kind=Kind.EVENT)
    d = m.remember("race", "training", action=Action.SUPERSEDE)
    assert d.action == Action.ADD and d.supersedes == ()
    gone = m.remember("race", "charity 5k", action=Action.RETRACT)
    assert gone.action == Action.SKIP
    assert m.active("race") == ["charity 5k", "training"]


def test_declared_single_slot_turns_event_into_supersede() -> None:
    m = Memory()
    pro = m.remember("plan", "Pro")
    d = m.remember("plan", "Free", kind=Kind.EVENT, time_ref=TimeRef.PAST)
    assert d.action == Action.SUPERSEDE
    assert d.kind == Kind.STATE
    assert d.supersedes == (pro.fact_id,)
    assert m.active("plan") == ["Free"]


def test_event_on_empty_declared_single_slot_stays_event() -> None:
    m = Memory()
    d = m.remember("plan", "trial started", kind=Kind.EVENT)
    assert d.action == Action.ADD and d.kind == Kind.EVENT


SIGNED_UP = "The customer signed up for Pro today"
NOW_ON = "The customer is now on Enterprise"
KIND_PAIRS = [(a, b) for a in Kind for b in Kind]


@pytest.mark.parametrize(("first_kind", "second_kind"), KIND_PAIRS)
def test_declared_single_slot_every_value_change_retires_the_previous_whatever_the_kinds(
    first_kind: Kind, second_kind: Kind
) -> None:
    m = Memory()
    pro = m.remember("plan", "Pro", kind=first_kind, text=SIGNED_UP)
    assert pro.action == Action.ADD and pro.kind == first_kind
    enterprise = m.remember("plan", "Enterprise", kind=second_kind, text=NOW_ON)
    assert enterprise.action == Action.SUPERSEDE
    assert enterprise.supersedes == (pro.fact_id,)
    assert enterprise.kind == Kind.STATE
    assert enterprise.message == "Stored: [SUPERSEDE] plan = Enterprise"
    assert m.active("plan") == ["Enterprise"]


@pytest.mark.parametrize(("first_kind", "second_kind"), KIND_PAIRS)
def test_undeclared_slot_events_keep_their_exemption(first_kind: Kind, second_kind: Kind) -> None:
    m = Memory(specs={})
    pro = m.remember("plan", "Pro", kind=first_kind, text=SIGNED_UP)
    enterprise = m.remember("plan", "Enterprise", kind=second_kind, text=NOW_ON)
    assert enterprise.kind == second_kind
    if first_kind == second_kind == Kind.STATE:
        assert enterprise.action == Action.SUPERSEDE
        assert enterprise.supersedes == (pro.fact_id,)
        assert m.active("plan") == ["Enterprise"]
    else:
        assert enterprise.action == Action.ADD and enterprise.supersedes == ()
        assert m.active("plan") == ["Pro", "Enterprise"]


def test_declared_single_slot_removal_retires_a_value_recorded_as_event() -> None:
    m = Memory()
    pro = m.remember("plan", "Pro", kind=Kind.EVENT, text=SIGNED_UP)
    gone = m.remember("plan", "Pro", text="The customer is no longer on Pro")
    assert gone.action == Action.RETRACT and gone.retracts == (pro.fact_id,)
    assert m.active("plan") == []


def test_declared_single_slot_restated_event_is_dedup() -> None:
    m = Memory()
    m.remember("plan", "Pro", kind=Kind.EVENT, text=SIGNED_UP)
    again = m.remember("plan", "Pro", kind=Kind.EVENT, text=SIGNED_UP)
    assert again.action == Action.DEDUP
    assert m.active("plan") == ["Pro"]


def test_declared_list_slot_events_keep_their_exemption() -> None:
    m = Memory()
    m.remember("allergy", "penicillin", kind=Kind.EVENT, text="a reaction to penicillin today")
    d = m.remember("allergy", "penicillin 5mg", action=Action.SUPERSEDE)
    assert d.action == Action.ADD and d.supersedes == ()
    assert m.active("allergy") == ["penicillin", "penicillin 5mg"]


def test_events_exempt_from_valid_time_gate() -> None:
    m = Memory()
    d = m.remember("race", "charity 5k", kind=Kind.EVENT, time_ref=TimeRef.PAST)
    assert d.action == Action.ADD and d.status == Status.ACTIVE


# ---------------------------------------------------------------------------------------------
# Rule 2: valid-time gate


def test_valid_time_gate_archives_past_fact() -> None:
    m = Memory()
    m.remember("billing", "annual")
    d = m.remember(
        "billing",
        "monthly",
        time_ref=TimeRef.PAST,
        action=Action.SUPERSEDE,
        text="historically we billed monthly",
    )
    assert d.action == Action.ARCHIVE
    assert d.status == Status.HISTORICAL and d.fact_id is not None
    assert d.supersedes == () and d.retracts == ()
    assert d.message == "Stored: [ARCHIVE] billing = monthly"
    assert m.active("billing") == ["annual"]
    assert m.state("billing").archived_values == frozenset({"monthly"})
    again = m.remember("billing", "Monthly", time_ref=TimeRef.PAST)
    assert again.action == Action.DEDUP


def test_valid_time_gate_exempts_retractions() -> None:
    m = Memory()
    datadog = m.remember("monitoring", "Datadog")
    d = m.remember(
        "monitoring",
        "Datadog",
        time_ref=TimeRef.PAST,
        action=Action.RETRACT,
        text="Datadog is gone",
    )
    assert d.action == Action.RETRACT
    assert d.retracts == (datadog.fact_id,)
    assert m.active("monitoring") == []


def test_valid_time_gate_definite_removal_of_active_value_retracts() -> None:
    m = Memory()
    m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Sentry", time_ref=TimeRef.PAST, text="We dropped Sentry")
    assert d.action == Action.RETRACT
    assert m.active("monitoring") == []


def test_valid_time_gate_past_removal_of_other_value_archives() -> None:
    m = Memory()
    m.remember("db", "Postgres")
    d = m.remember("db", "MySQL", time_ref=TimeRef.PAST, text="we dropped MySQL years ago")
    assert d.action == Action.ARCHIVE
    assert m.active("db") == ["Postgres"]


# ---------------------------------------------------------------------------------------------
# Rule 3: future tense


def test_future_tense_is_flagged() -> None:
    m = Memory()
    mysql = m.remember("db", "MySQL")
    d = m.remember(
        "db",
        "Postgres",
        time_ref=TimeRef.FUTURE,
        action=Action.SUPERSEDE,
        text="we will move to Postgres",
    )
    assert d.action == Action.FLAG and d.status == Status.FLAGGED_CONFLICT
    assert d.conflict_kind == ConflictKind.FUTURE
    assert d.proposed_action == Action.SUPERSEDE
    assert d.conflict_with == (mysql.fact_id,)
    assert d.supersedes == ()
    assert m.active("db") == ["MySQL"] and m.flagged("db") == ["Postgres"]
    again = m.remember("db", "postgres", time_ref=TimeRef.FUTURE, text="we will move to Postgres")
    assert again.action == Action.DEDUP


def test_future_add_on_empty_slot_is_flagged() -> None:
    d = Memory().remember("cache", "Redis", time_ref=TimeRef.FUTURE)
    assert d.action == Action.FLAG and d.proposed_action == Action.ADD


def test_future_removal_is_flagged() -> None:
    m = Memory()
    redis = m.remember("cache", "Redis")
    d = m.remember(
        "cache",
        "Redis",
        time_ref=TimeRef.FUTURE,
        action=Action.RETRACT,
        text="we will drop Redis",
    )
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.FUTURE
    assert d.proposed_action == Action.RETRACT
    assert d.conflict_with == (redis.fact_id,)
    assert d.value == "Redis"
    assert m.active("cache") == ["Redis"]


def test_future_restatement_of_active_value_is_dedup() -> None:
    m = Memory()
    m.remember("db", "Postgres")
    assert m.remember("db", "Postgres", time_ref=TimeRef.FUTURE).action == Action.DEDUP


# ---------------------------------------------------------------------------------------------
# Rule 4: retract upgrade


def test_retract_upgrade() -> None:
    m = Memory()
    sentry = m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Sentry", text="We dropped Sentry")
    assert d.action == Action.RETRACT
    assert d.status == Status.HISTORICAL
    assert d.value == "(retracted: Sentry)"
    assert d.retracts == (sentry.fact_id,)
    assert d.message == "Stored: [RETRACT] monitoring = Sentry"
    assert m.active("monitoring") == [] and m.flagged("monitoring") == []


@pytest.mark.parametrize(
    "text",
    [
        "maybe we dropped Sentry?",
        "should we drop Sentry",
        "yeah right, we dropped Sentry",
        "we totally dropped Sentry lol",
        "we never dropped Sentry",
        "we didn't remove Sentry",
        "we use Sentry",
    ],
)
def test_retract_upgrade_needs_definite_language(text: str) -> None:
    m = Memory()
    m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Sentry", text=text)
    assert d.action == Action.DEDUP
    assert m.active("monitoring") == ["Sentry"]


def test_retract_upgrade_only_when_value_is_active() -> None:
    m = Memory()
    m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Datadog", text="we dropped Datadog")
    assert d.action == Action.SUPERSEDE


def test_retract_upgrade_judges_the_clause_naming_the_value() -> None:
    m = Memory()
    m.remember("db", "MySQL")
    m.remember("cache", "Redis")
    text = "We moved to Postgres and dropped Redis"
    db = m.remember("db", "Postgres", action=Action.SUPERSEDE, text=text)
    cache = m.remember("cache", "Redis", text=text)
    assert (db.action, cache.action) == (Action.SUPERSEDE, Action.RETRACT)
    m.remember("db", "Postgres", text=text)
    assert m.active("db") == ["Postgres"]


def test_retract_upgrade_ignores_the_replacement_value() -> None:
    m = Memory()
    m.remember("state", "Zustand")
    d = m.remember("state", "Zustand", action=Action.SUPERSEDE, text="we dropped Redux for Zustand")
    assert d.action == Action.DEDUP


def test_retract_upgrade_does_not_fire_on_dose_change() -> None:
    m = Memory()
    m.remember("active_medication", "atorvastatin 20 mg", trusted=True)
    d = m.remember(
        "active_medication", "atorvastatin 20 mg", text="atorvastatin dose dropped to 20 mg"
    )
    assert d.action == Action.DEDUP


def test_retract_upgrade_bare_name_retires_list_item() -> None:
    m = Memory()
    m.remember("allergy", "penicillin")
    m.remember("allergy", "peanuts")
    d = m.remember("allergy", "Peanuts", text="no longer allergic to peanuts")
    assert d.action == Action.RETRACT
    assert m.active("allergy") == ["penicillin"]


# ---------------------------------------------------------------------------------------------
# Rule 5: restatement


@pytest.mark.parametrize(
    "action", [Action.ADD, Action.SUPERSEDE, Action.FLAG, Action.COEXIST, Action.REFINE]
)
def test_restatement_is_dedup(action: Action) -> None:
    m = Memory()
    m.remember("state", "Zustand")
    d = m.remember("state", "  zustand ", action=action)
    assert d.action == Action.DEDUP
    assert d.status is None and d.fact_id is None
    assert d.message == "Stored: [DEDUP] state =   zustand "
    assert m.active("state") == ["Zustand"]


def test_restatement_of_pending_proposal_is_dedup() -> None:
    m = Memory()
    m.remember("db", "MySQL")
    assert m.remember("db", "Postgres", confidence=0.5).action == Action.FLAG
    assert m.remember("db", "Postgres", confidence=0.9).action == Action.DEDUP
    assert m.flagged("db") == ["Postgres"]


def test_repeated_pending_retraction_is_dedup() -> None:
    m = Memory()
    m.remember("monitoring", "Sentry")
    low = m.remember("monitoring", "Sentry", action=Action.RETRACT, confidence=0.5)
    again = m.remember("monitoring", "Sentry", action=Action.RETRACT, confidence=0.5)
    assert (low.action, again.action) == (Action.FLAG, Action.DEDUP)
    assert m.active("monitoring") == ["Sentry"]


# ---------------------------------------------------------------------------------------------
# Rule 6: ambiguity and the model's FLAG


def test_ambiguity_is_flagged() -> None:
    m = Memory()
    mysql = m.remember("db", "MySQL")
    d = m.remember("db", "Postgres", ambiguous=True)
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.AMBIGUITY
    assert d.conflict_with == (mysql.fact_id,)
    assert d.proposed_action == Action.SUPERSEDE
    assert m.active("db") == ["MySQL"]


def test_model_flag_is_flagged() -> None:
    d = Memory().remember("primary_database", "Postgres", action=Action.FLAG)
    assert d.action == Action.FLAG and d.status == Status.FLAGGED_CONFLICT
    assert d.message == "Stored: [FLAG] primary_database = Postgres"


def _p(subject: str, value: str, **fields: object) -> Proposal:
    return Proposal(subject=subject, value=value, **fields)  # type: ignore[arg-type]


def test_detect_ambiguity_two_values_one_slot() -> None:
    ps = [_p("db", "MySQL"), _p("db", "Postgres"), _p("cache", "Redis")]
    assert detect_ambiguity(ps) == {0, 1}


@pytest.mark.parametrize(
    "second",
    [
        _p("db", "Postgres", action=Action.SUPERSEDE),
        _p("db", "Postgres", scope="mobile"),
        _p("db", "Postgres", time_ref=TimeRef.PAST),
        _p("db", "Postgres", kind=Kind.EVENT),
        _p("db", "mysql"),
        _p("db", "Postgres", action=Action.SKIP),
    ],
)
def test_detect_ambiguity_is_conservative(second: Proposal) -> None:
    assert detect_ambiguity([_p("db", "MySQL"), second]) == set()


def test_detect_ambiguity_ignores_list_slots() -> None:
    allergies = [_p("allergy", "penicillin"), _p("allergy", "peanuts")]
    assert detect_ambiguity(allergies, SPECS) == set()
    tags = [_p("tag", "a", cardinality=Cardinality.MANY), _p("tag", "b")]
    assert detect_ambiguity(tags) == set()


# ---------------------------------------------------------------------------------------------
# Rule 7: the effect and the same-slot invariant


def test_same_slot_invariant_mislabelled_add_supersedes() -> None:
    m = Memory()
    mysql = m.remember("db", "MySQL")
    postgres = m.remember("db", "Postgres", text="we use Postgres now")
    assert [mysql.message, postgres.message] == [
        "Stored: [ADD] db = MySQL",
        "Stored: [SUPERSEDE] db = Postgres",
    ]
    assert postgres.supersedes == (mysql.fact_id,)
    assert m.active("db") == ["Postgres"]


def test_supersede_on_empty_slot_reports_add() -> None:
    d = Memory().remember("db", "Postgres", action=Action.SUPERSEDE)
    assert d.action == Action.ADD and d.supersedes == ()


def test_same_scope_coexist_supersedes() -> None:
    m = Memory()
    redux = m.remember("state", "Redux")
    zustand = m.remember("state", "Zustand", action=Action.COEXIST)
    assert zustand.action == Action.SUPERSEDE and zustand.supersedes == (redux.fact_id,)
    assert m.active("state") == ["Zustand"]


def test_different_scope_coexists() -> None:
    m = Memory()
    lines = [
        m.remember("state", "Redux").message,
        m.remember("state", "Zustand", action=Action.COEXIST).message,
        m.remember("state", "MobX", action=Action.COEXIST, scope="mobile").message,
    ]
    assert lines == [
        "Stored: [ADD] state = Redux",
        "Stored: [SUPERSEDE] state = Zustand",
        "Stored: [COEXIST] state = MobX",
    ]
    assert m.active("state") == ["Zustand"] and m.active("state", "mobile") == ["MobX"]


def test_coexist_with_nothing_elsewhere_reports_add() -> None:
    d = Memory().remember("state", "MobX", action=Action.COEXIST, scope="mobile")
    assert d.action == Action.ADD


def test_removal_in_one_scope_never_touches_another() -> None:
    m = Memory()
    m.remember("state", "Redux", scope="web")
    d = m.remember("state", "Redux", scope="mobile", action=Action.RETRACT)
    assert d.action == Action.SKIP
    assert m.active("state", "web") == ["Redux"]


def test_list_slot_new_item_joins() -> None:
    m = Memory()
    a = m.remember("allergy", "penicillin")
    b = m.remember("allergy", "peanuts", action=Action.SUPERSEDE)
    assert (a.action, b.action) == (Action.ADD, Action.ADD)
    assert b.cardinality == Cardinality.MANY and b.category == "critical"
    assert m.active("allergy") == ["penicillin", "peanuts"]


def test_list_slot_supersede_replaces_matching_item_by_identity() -> None:
    m = Memory()
    old = m.remember("active_medication", "atorvastatin 20 mg")
    m.remember("active_medication", "Warfarin 5mg")
    d = m.remember("active_medication", "atorvastatin 80 mg", trusted=True)
    assert d.action == Action.SUPERSEDE and d.supersedes == (old.fact_id,)
    assert m.active("active_medication") == ["Warfarin 5mg", "atorvastatin 80 mg"]


def test_list_slot_retract_removes_only_named_item() -> None:
    m = Memory()
    m.remember("allergy", "penicillin")
    peanuts = m.remember("allergy", "peanuts")
    d = m.remember("allergy", "peanuts", action=Action.RETRACT)
    assert d.action == Action.RETRACT and d.retracts == (peanuts.fact_id,)
    assert m.active("allergy") == ["penicillin"]


def test_list_slot_retract_by_identity() -> None:
    m = Memory()
    warfarin = m.remember("active_medication", "Warfarin 5mg")
    d = m.remember("active_medication", "warfarin", action=Action.RETRACT, trusted=True)
    assert d.retracts == (warfarin.fact_id,)
    assert d.message == "Stored: [RETRACT] active_medication = Warfarin 5mg"


def test_undeclared_list_slot_keeps_items() -> None:
    m = Memory()
    m.remember("tag", "urgent", cardinality=Cardinality.MANY)
    d = m.remember("tag", "billing", cardinality=Cardinality.MANY)
    later = m.remember("tag", "vip")  # no cardinality given: the slot's stored shape holds
    assert (d.action, later.action) == (Action.ADD, Action.ADD)
    assert m.active("tag") == ["urgent", "billing", "vip"]


def test_declared_single_slot_ignores_extractor_many() -> None:
    m = Memory()
    m.remember("plan", "Pro")
    d = m.remember("plan", "Free", cardinality=Cardinality.MANY)
    assert d.action == Action.SUPERSEDE and d.cardinality == Cardinality.ONE


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("atorvastatin 20 mg", "atorvastatin"),
        ("Warfarin 5mg", "warfarin"),
        ("Aspirin, 81 mg", "aspirin"),
        ("penicillin", "penicillin"),
        ("5-FU", "5-fu"),
    ],
)
def test_identity_is_name_before_dose(value: str, expected: str) -> None:
    assert identity(value, MEDICATION, Cardinality.MANY) == expected


def test_identity_without_declared_list_is_whole_value() -> None:
    assert identity("Warfarin  5mg", None, Cardinality.MANY) == "warfarin 5mg"
    assert same_value("  Zustand ", "zustand") and not same_value("Zustand", "Zustand 4")


def test_retract_with_no_target_is_skip() -> None:
    m = Memory()
    m.remember("state", "Zustand")
    d = m.remember("state", "Jotai", action=Action.RETRACT)
    assert d.action == Action.SKIP and d.status is None
    assert d.message == "Not stored (hypothetical, sarcasm, or nothing to change): state = Jotai"
    assert NOTHING_TO_RETRACT == "Nothing matching to retract (that fact isn't currently stored)."
    assert m.active("state") == ["Zustand"]


def test_retract_with_no_value_retires_single_slot_value() -> None:
    m = Memory()
    sentry = m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "", action=Action.RETRACT)
    assert d.retracts == (sentry.fact_id,) and d.value == "(retracted: Sentry)"


def test_retract_by_target_id() -> None:
    m = Memory()
    sentry = m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "the error tracker", action=Action.RETRACT, target_id="f0")
    assert d.retracts == (sentry.fact_id,)


def test_refine_changes_value_in_place() -> None:
    m = Memory()
    pg = m.remember("db", "Postgres")
    d = m.remember("db", "Postgres 16", action=Action.REFINE)
    assert d.action == Action.REFINE and d.refines == pg.fact_id
    assert d.status is None and d.fact_id is None
    assert d.message == "Stored: [REFINE] db = Postgres 16"
    refined = m.fact("f0")
    assert refined.value == "Postgres 16"
    assert refined.revisions[0]["value"] == "Postgres"
    assert m.active("db") == ["Postgres 16"]


def test_refine_without_target_is_add() -> None:
    d = Memory().remember("db", "Postgres 16", action=Action.REFINE)
    assert d.action == Action.ADD


# ---------------------------------------------------------------------------------------------
# Rule 8: confirm gate


def test_confirm_gate() -> None:
    m = Memory()
    five = m.remember("active_medication", "Warfarin 5mg")
    assert five.action == Action.ADD  # joining a list is not gated
    d = m.remember("active_medication", "Warfarin 10mg", action=Action.SUPERSEDE)
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.PENDING
    assert d.proposed_action == Action.SUPERSEDE and d.conflict_with == (five.fact_id,)
    assert d.value == "Warfarin 10mg"
    assert m.active("active_medication") == ["Warfarin 5mg"]
    assert m.flagged("active_medication") == ["Warfarin 10mg"]
    stop = m.remember("active_medication", "Warfarin 5mg", action=Action.RETRACT)
    assert stop.action == Action.FLAG and stop.proposed_action == Action.RETRACT


def test_confirm_gate_trusted_source_bypasses() -> None:
    m = Memory()
    m.remember("active_medication", "Warfarin 5mg")
    d = m.remember("active_medication", "Warfarin 7.5mg", source="fhir", trusted=True)
    assert d.action == Action.SUPERSEDE
    assert m.active("active_medication") == ["Warfarin 7.5mg"]


def test_confirm_gate_judges_the_effect() -> None:
    m = Memory()
    m.remember("care_plan", "A")
    d = m.remember("care_plan", "B")  # labelled ADD, but it would replace A
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.PENDING


# ---------------------------------------------------------------------------------------------
# Rule 9: confidence threshold


def test_confidence_threshold() -> None:
    m = Memory()
    m.remember("db", "MySQL")
    d = m.remember("db", "Postgres", action=Action.SUPERSEDE, confidence=0.69)
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.LOW_CONFIDENCE
    assert d.proposed_action == Action.SUPERSEDE
    assert m.active("db") == ["MySQL"]
    at_floor = m.remember("db", "SQLite", confidence=0.7)
    assert at_floor.action == Action.SUPERSEDE


def test_confidence_threshold_keeps_retraction_target_active() -> None:
    m = Memory()
    m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Sentry", action=Action.RETRACT, confidence=0.4)
    assert d.action == Action.FLAG and d.proposed_action == Action.RETRACT
    assert d.value == "Sentry"
    assert m.active("monitoring") == ["Sentry"] and m.flagged("monitoring") == ["Sentry"]


def test_confidence_threshold_ignores_plain_add() -> None:
    d = Memory().remember("db", "MySQL", confidence=0.3)
    assert d.action == Action.ADD


def test_confidence_threshold_judges_coexist() -> None:
    m = Memory()
    m.remember("state", "Zustand")
    d = m.remember("state", "MobX", scope="mobile", action=Action.COEXIST, confidence=0.5)
    assert d.action == Action.FLAG and d.proposed_action == Action.COEXIST


def test_same_source_lower_confidence_opens_uncertainty() -> None:
    m = Memory()
    first = m.remember("role", "COO", source="hr", confidence=0.95)
    weaker = m.remember("role", "CEO", source="hr", confidence=0.8)
    assert weaker.action == Action.FLAG and weaker.conflict_kind == ConflictKind.UNCERTAINTY
    assert weaker.conflict_with == (first.fact_id,)
    assert m.active("role") == ["COO"] and m.flagged("role") == ["CEO"]
    stronger = m.remember("role", "CTO", source="hr", confidence=0.95)
    assert stronger.action == Action.SUPERSEDE
    other = m.remember("role", "CFO", source="chat", confidence=0.8)
    assert other.action == Action.SUPERSEDE


# ---------------------------------------------------------------------------------------------
# Rule 10: source policy


def test_curated_source_never_overwritten() -> None:
    m = Memory(Policy(curated=frozenset({"docs"})))
    doc = m.remember("sla", "99.9%", source="docs")
    d = m.remember("sla", "99.5%", source="chat")
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.POLICY
    assert d.conflict_with == (doc.fact_id,)
    gone = m.remember("sla", "99.9%", source="chat", action=Action.RETRACT)
    assert gone.action == Action.FLAG and gone.proposed_action == Action.RETRACT
    assert m.active("sla") == ["99.9%"]
    assert m.remember("sla", "99.95%", source="docs").action == Action.SUPERSEDE


def test_authority_policy_crm_bot() -> None:
    m = Memory(Policy(PolicyMode.AUTHORITY, {"crm": 2, "bot": 1}))
    pro = m.remember("plan", "Pro", source="crm", text="the plan is Pro")
    free = m.remember("plan", "Free", source="bot", text="the plan is Free")
    assert [pro.message, free.message] == ["Stored: [ADD] plan = Pro", "Stored: [FLAG] plan = Free"]
    assert free.conflict_kind == ConflictKind.POLICY and free.conflict_with == (pro.fact_id,)
    assert m.remember("plan", "Pro", source="bot", action=Action.RETRACT).action == Action.FLAG
    assert m.remember("plan", "Team", source="stranger").action == Action.FLAG
    assert m.remember("plan", "Enterprise", source="crm").action == Action.SUPERSEDE
    m.policy = Policy(PolicyMode.AUTHORITY, {"crm": 2, "bot": 1, "billing": 3})
    assert m.remember("plan", "Business", source="billing").action == Action.SUPERSEDE
    assert m.active("plan") == ["Business"]


def test_review_policy_flags() -> None:
    m = Memory(Policy(PolicyMode.REVIEW))
    m.remember("db", "MySQL", source="alice")
    d = m.remember("db", "Postgres", source="bob")
    assert d.action == Action.FLAG and d.conflict_kind == ConflictKind.POLICY
    assert m.remember("db", "MySQL", source="bob", action=Action.RETRACT).action == Action.FLAG
    assert m.active("db") == ["MySQL"]


def test_recency_policy_cross_source_supersedes() -> None:
    m = Memory()
    m.remember("db", "MySQL", source="alice")
    assert m.remember("db", "Postgres", source="bob").action == Action.SUPERSEDE


@pytest.mark.parametrize(
    "policy",
    [Policy(PolicyMode.REVIEW), Policy(PolicyMode.AUTHORITY, {"bot": 0, "crm": 5})],
)
def test_source_correcting_itself_supersedes(policy: Policy) -> None:
    m = Memory(policy)
    m.remember("plan", "Pro", source="bot")
    assert m.remember("plan", "Free", source="bot").action == Action.SUPERSEDE


def test_policy_governs_cross_source_refine() -> None:
    m = Memory(Policy(PolicyMode.REVIEW))
    m.remember("db", "Postgres", source="alice")
    d = m.remember("db", "Postgres 16", source="bob", action=Action.REFINE)
    assert d.action == Action.FLAG and d.proposed_action == Action.REFINE
    mine = m.remember("db", "Postgres 16.2", source="alice", action=Action.REFINE)
    assert mine.action == Action.REFINE


# ---------------------------------------------------------------------------------------------
# Result strings and the seed's walk-through


def test_seed_result_lines() -> None:
    m = Memory()
    lines = [
        m.remember("state", "Redux").message,
        m.remember("state", "Zustand", action=Action.SUPERSEDE).message,
        m.remember("billing", "monthly", time_ref=TimeRef.PAST).message,
        m.remember("primary_database", "Postgres", action=Action.FLAG).message,
        m.remember("state", "Jotai", action=Action.SKIP).message,
    ]
    assert lines == [
        "Stored: [ADD] state = Redux",
        "Stored: [SUPERSEDE] state = Zustand",
        "Stored: [ARCHIVE] billing = monthly",
        "Stored: [FLAG] primary_database = Postgres",
        "Not stored (hypothetical, sarcasm, or nothing to change): state = Jotai",
    ]


def test_result_message_for_each_action() -> None:
    for action in Action:
        d = Decision(action=action, subject="state", value="Zustand", scope="global")
        expected = (
            "Not stored (hypothetical, sarcasm, or nothing to change): state = Zustand"
            if action == Action.SKIP
            else f"Stored: [{action.value}] state = Zustand"
        )
        assert result_message(d) == expected


def test_result_message_retract_shows_retracted_value() -> None:
    d = Decision(Action.RETRACT, "monitoring", tombstone("Sentry"), "global")
    assert result_message(d) == "Stored: [RETRACT] monitoring = Sentry"
    assert retracted_value("(retracted: Sentry)") == "Sentry"
    assert retracted_value("Sentry") == "Sentry"


def test_result_constants() -> None:
    assert NO_FACTS == "No durable fact found (looked like chatter or a question)."


def test_sentry_history_chain() -> None:
    """Seed 000 "History": Sentry [SUPERSEDED] then (retracted: Sentry) [HISTORICAL]."""
    m = Memory()
    sentry = m.remember("monitoring", "Sentry")
    d = m.remember("monitoring", "Sentry", action=Action.RETRACT, text="we dropped Sentry")
    assert d.retracts == (sentry.fact_id,) and d.status == Status.HISTORICAL
    assert d.value == "(retracted: Sentry)"
    assert m.state("monitoring").facts == ()


def test_note_keeps_extractor_reason() -> None:
    m = Memory()
    m.remember("db", "MySQL")
    d = m.remember("db", "Postgres", confidence=0.5, reason="user sounded unsure")
    assert "below the floor" in d.note and "user sounded unsure" in d.note
    assert m.remember("cache", "Redis", reason="stated plainly").note == "stated plainly"


def test_apply_to_state_builds_the_new_fact() -> None:
    m = Memory()
    d = m.remember("allergy", "penicillin", source="fhir", text="allergic to penicillin")
    f = m.fact(d.fact_id or "")
    assert (f.status, f.source, f.recorded_at, f.raw) == (
        Status.ACTIVE,
        "fhir",
        NOW,
        "allergic to penicillin",
    )
    assert f.category == "critical" and f.cardinality == Cardinality.MANY


# ---------------------------------------------------------------------------------------------
# language.py


@pytest.mark.parametrize(
    "text",
    [
        "We dropped Sentry",
        "we no longer use Datadog",
        "Redis was removed last sprint",
        "Datadog is gone",
        "the patient discontinued warfarin",
        "we stopped using Jira",
        "got rid of Jenkins",
        "we don't use Sentry anymore",
        "we ditched MongoDB",
        "We moved off Heroku",
        "I quit smoking",
    ],
)
def test_is_removal_definite(text: str) -> None:
    assert is_removal(text)


@pytest.mark.parametrize(
    "text",
    [
        "maybe we dropped Sentry",
        "did we drop Sentry?",
        "we might remove Redis",
        "we will drop Redis",
        "we're going to drop Redis",
        "thinking about dropping Redis",
        "yeah right, we dropped Sentry",
        "sure... we removed it",
        "we dropped Sentry /s",
        "as if we'd ever drop Sentry",
        "we never dropped Sentry",
        "we haven't removed Redis",
        "the dose dropped to 20 mg",
        "we use Sentry",
        "",
    ],
)
def test_is_removal_vetoed(text: str) -> None:
    assert not is_removal(text)


def test_is_removal_of_looks_at_the_value_clause() -> None:
    text = "We moved to Postgres and dropped Redis"
    assert is_removal_of(text, "Redis") and not is_removal_of(text, "Postgres")
    assert is_removal_of("we dropped it", "Sentry")  # reworded value: whole message
    assert is_removal_of("we dropped Redux for Zustand", "Redux")
    assert not is_removal_of("we dropped Redux for Zustand", "Zustand")
    assert not is_removal_of("We moved off Heroku to Fly", "Fly")
    assert not is_removal_of("Maybe keep Postgres? We dropped Redis lol", "Redis")


# ---------------------------------------------------------------------------------------------
# Property: the same-slot invariant over random proposal sequences

_SUBJECTS = ["db", "state", "allergy", "active_medication", "tag", "race"]
_SINGLE = {"db", "state", "race"}
_DECLARED_SINGLE = {"db"}
_VALUES = ["Postgres", "MySQL", "Warfarin 5mg", "warfarin 10mg", "penicillin", "", "x 1", "X 2"]
_TEXTS = ["", "we dropped {v}", "maybe we dropped {v}?", "{v} is gone", "we use {v}"]

_proposal = st.builds(
    lambda subject, value, scope, kind, time_ref, action, confidence, target, text: Proposal(
        subject=subject,
        value=value,
        scope=scope,
        kind=kind,
        time_ref=time_ref,
        action=action,
        confidence=confidence,
        cardinality=Cardinality.MANY if subject == "tag" else None,
        target_id=target,
        raw=text.format(v=value),
    ),
    st.sampled_from(_SUBJECTS),
    st.sampled_from(_VALUES),
    st.sampled_from(["global", "mobile"]),
    st.sampled_from(list(Kind)),
    st.sampled_from(list(TimeRef)),
    st.sampled_from(list(Action)),
    st.sampled_from([None, 0.3, 0.69, 0.7, 0.9, 1.0]),
    st.sampled_from([None, "f0", "f1", "f5"]),
    st.sampled_from(_TEXTS),
)
_step = st.tuples(
    _proposal, st.sampled_from(["", "crm", "bot", "docs"]), st.booleans(), st.booleans()
)
_policy = st.builds(
    Policy,
    st.sampled_from(list(PolicyMode)),
    st.just({"crm": 2, "bot": 1}),
    st.sampled_from([frozenset(), frozenset({"docs"})]),
)


def _check_decision(d: Decision, before: SlotState, p: Proposal) -> None:
    spec = SPECS.get(p.subject)
    declared_single = spec is not None and not spec.multi
    retirable = {f.id for f in before.active if declared_single or f.kind == Kind.STATE}
    assert set(d.supersedes) <= retirable
    assert set(d.retracts) <= retirable
    assert d.refines is None or d.refines in retirable
    assert set(d.conflict_with) <= {f.id for f in before.facts}
    assert (d.status is None) == (d.fact_id is None)
    assert d.message == result_message(d)
    if d.action == Action.FLAG:
        assert d.status == Status.FLAGGED_CONFLICT
        assert d.conflict_kind is not None and d.proposed_action is not None
    if d.status is not None and d.action != Action.RETRACT:
        assert d.value == p.value or not p.value


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(_step, max_size=25), policy=_policy)
def test_single_valued_slots_hold_at_most_one_active_state_fact(
    steps: list[tuple[Proposal, str, bool, bool]], policy: Policy
) -> None:
    m = Memory(policy)
    for p, source, trusted, ambiguous in steps:
        before = m.state(p.subject, p.scope)
        ctx = Context(source=source, text=p.raw, trusted=trusted, ambiguous=ambiguous)
        d = reconcile(p, before, m.specs.get(p.subject), policy, ctx, f"f{m.count}")
        m.count += 1
        _check_decision(d, before, p)
        after = apply_to_state(before, d, p, _info(ctx))
        m.slots[(p.subject, p.scope)] = after
        if p.subject in _SINGLE:
            assert len([f for f in after.active if f.kind == Kind.STATE]) <= 1
        if p.subject in _DECLARED_SINGLE:
            assert len(after.active) <= 1
        assert len({f.id for f in after.facts}) == len(after.facts)
