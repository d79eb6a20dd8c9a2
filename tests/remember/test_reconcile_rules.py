"""Every rule of seed 000 (and the seed 001/002 additions) on a real Neo4j, with the seeds'
own examples. Each test is named after the rule it proves."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.model import Action, ConflictKind, Status

pytestmark = pytest.mark.neo4j

CLINICAL = {"slots": [
    {"name": "allergy", "category": "critical", "multi": True,
     "aliases": ["allergies", "drug_allergy"]},
    {"name": "active_medication", "category": "critical", "multi": True, "confirm": True,
     "verbatim": True},
]}


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


def say(mem: GraphMem, *facts: dict[str, Any], **kw: Any) -> list[str]:
    return [str(r) for r in mem.remember_facts(list(facts), **kw)]


def values(mem: GraphMem, subject: str | None = None) -> list[tuple[str, str]]:
    return sorted((f.value, f.scope) for f in mem.active(subject))


def test_same_slot_invariant_redux_zustand_mobx(mem: GraphMem) -> None:
    assert say(mem, fact("state", "Redux")) == ["Stored: [ADD] state = Redux"]
    assert say(mem, fact("state", "Zustand", action="COEXIST")) == [
        "Stored: [SUPERSEDE] state = Zustand"]
    assert say(mem, fact("state", "MobX", action="COEXIST", scope="mobile")) == [
        "Stored: [COEXIST] state = MobX"]
    assert values(mem, "state") == [("MobX", "mobile"), ("Zustand", "global")]


def test_same_slot_invariant_mislabelled_add_supersedes(mem: GraphMem) -> None:
    assert say(mem, fact("db", "MySQL")) == ["Stored: [ADD] db = MySQL"]
    assert say(mem, fact("db", "Postgres", action="ADD")) == ["Stored: [SUPERSEDE] db = Postgres"]
    assert values(mem, "db") == [("Postgres", "global")]
    old = [f for f in mem.history("db").entries if f.value == "MySQL"][0]
    assert old.status == "SUPERSEDED"


def test_retract_writes_tombstone_sentry_dropped(mem: GraphMem) -> None:
    say(mem, fact("monitoring", "Sentry"))
    out = say(mem, fact("monitoring", "Sentry", action="ADD"), text="we dropped Sentry")
    assert out == ["Stored: [RETRACT] monitoring = Sentry"]
    assert mem.active("monitoring") == []
    assert str(mem.history("monitoring")) == (
        "History for 'monitoring' (oldest → newest):\n"
        "  1. Sentry [SUPERSEDED]\n"
        "  2. (retracted: Sentry) [HISTORICAL]"
    )
    tomb = mem.history("monitoring").entries[1].fact
    assert tomb.retracts == (mem.history("monitoring").entries[0].fact.id,)


def test_valid_time_gate_archives_billing(mem: GraphMem) -> None:
    out = say(mem, fact("billing", "monthly", time_ref="past"),
              text="historically we billed monthly")
    assert out == ["Stored: [ARCHIVE] billing = monthly"]
    assert mem.active("billing") == []
    assert [e.status for e in mem.history("billing").entries] == ["HISTORICAL"]
    again = say(mem, fact("billing", "monthly", time_ref="past"))
    assert again == ["Stored: [DEDUP] billing = monthly"]


def test_valid_time_gate_never_retires_current_value(mem: GraphMem) -> None:
    say(mem, fact("db", "Postgres"))
    assert say(mem, fact("db", "MySQL", time_ref="past"), text="we used to use MySQL") == [
        "Stored: [ARCHIVE] db = MySQL"]
    assert values(mem, "db") == [("Postgres", "global")]


def test_valid_time_gate_exempts_retractions(mem: GraphMem) -> None:
    say(mem, fact("monitoring", "Datadog"))
    out = say(mem, fact("monitoring", "Datadog", action="RETRACT", time_ref="past"),
              text="Datadog is gone")
    assert out == ["Stored: [RETRACT] monitoring = Datadog"]
    assert mem.active("monitoring") == []


def test_events_never_replace(mem: GraphMem) -> None:
    say(mem, fact("race", "charity 5k", kind="event"))
    out = say(mem, fact("race", "city marathon", kind="event", action="SUPERSEDE"))
    assert out == ["Stored: [ADD] race = city marathon"]
    assert values(mem, "race") == [("charity 5k", "global"), ("city marathon", "global")]


def test_declared_single_slot_turns_event_into_supersede(make_mem: Callable[..., GraphMem]
                                                         ) -> None:
    mem = make_mem(slot_schema={"slots": [{"name": "plan"}]})
    say(mem, fact("plan", "Free"))
    assert say(mem, fact("plan", "Pro", kind="event")) == ["Stored: [SUPERSEDE] plan = Pro"]
    assert values(mem, "plan") == [("Pro", "global")]


SIGNED_UP = "The customer signed up for Pro today"
NOW_ON = "The customer is now on Enterprise"
KIND_PAIRS = [(a, b) for a in ("state", "event") for b in ("state", "event")]


@pytest.mark.parametrize(("first_kind", "second_kind"), KIND_PAIRS)
def test_declared_single_slot_every_value_change_retires_the_previous_whatever_the_kinds(
        make_mem: Callable[..., GraphMem], first_kind: str, second_kind: str) -> None:
    mem = make_mem(slot_schema={"slots": [{"name": "plan"}]})
    assert say(mem, fact("plan", "Pro", kind=first_kind), text=SIGNED_UP) == [
        "Stored: [ADD] plan = Pro"]
    assert say(mem, fact("plan", "Enterprise", kind=second_kind), text=NOW_ON) == [
        "Stored: [SUPERSEDE] plan = Enterprise"]
    assert values(mem, "plan") == [("Enterprise", "global")]
    old, new = mem.history("plan")
    assert (old.value, old.status, old.fact.kind.value) == ("Pro", "SUPERSEDED", first_kind)
    assert (new.value, new.status) == ("Enterprise", "ACTIVE")
    assert new.fact.supersedes == (old.fact.id,)


@pytest.mark.parametrize(("first_kind", "second_kind"), KIND_PAIRS)
def test_undeclared_slot_events_keep_their_exemption(mem: GraphMem, first_kind: str,
                                                      second_kind: str) -> None:
    say(mem, fact("plan", "Pro", kind=first_kind), text=SIGNED_UP)
    out = say(mem, fact("plan", "Enterprise", kind=second_kind), text=NOW_ON)
    if first_kind == second_kind == "state":
        assert out == ["Stored: [SUPERSEDE] plan = Enterprise"]
        assert values(mem, "plan") == [("Enterprise", "global")]
    else:
        assert out == ["Stored: [ADD] plan = Enterprise"]
        assert values(mem, "plan") == [("Enterprise", "global"), ("Pro", "global")]
        assert [e.status for e in mem.history("plan")] == ["ACTIVE", "ACTIVE"]


def test_declared_single_slot_removal_retires_a_value_recorded_as_event(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema={"slots": [{"name": "plan"}]})
    say(mem, fact("plan", "Pro", kind="event"), text=SIGNED_UP)
    out = say(mem, fact("plan", "Pro"), text="The customer is no longer on Pro")
    assert out == ["Stored: [RETRACT] plan = Pro"]
    assert mem.active("plan") == []


def test_future_tense_is_flagged(mem: GraphMem) -> None:
    say(mem, fact("primary_database", "MySQL"))
    out = say(mem, fact("primary_database", "Postgres", time_ref="future", action="SUPERSEDE"),
              text="we will move to Postgres")
    assert out == ["Stored: [FLAG] primary_database = Postgres"]
    assert values(mem, "primary_database") == [("MySQL", "global")]
    assert [c.kind for c in mem.review.conflicts()] == [ConflictKind.FUTURE]


def test_future_removal_is_flagged_not_applied(mem: GraphMem) -> None:
    say(mem, fact("cache", "Redis"))
    out = say(mem, fact("cache", "Redis", action="RETRACT", time_ref="future"),
              text="we will drop Redis")
    assert out[0].startswith("Stored: [FLAG] cache")
    assert values(mem, "cache") == [("Redis", "global")]


def test_retract_upgrade_only_when_value_matches_active(mem: GraphMem) -> None:
    say(mem, fact("cache", "Redis"))
    out = say(mem, fact("cache", "Memcached", action="ADD"), text="we dropped Memcached")
    assert out == ["Stored: [SUPERSEDE] cache = Memcached"]


def test_retract_upgrade_vetoed_by_hedge(mem: GraphMem) -> None:
    say(mem, fact("monitoring", "Sentry"))
    out = say(mem, fact("monitoring", "Sentry", action="ADD"),
              text="maybe we dropped Sentry?")
    assert out == ["Stored: [DEDUP] monitoring = Sentry"]
    assert values(mem, "monitoring") == [("Sentry", "global")]


def test_restatement_is_dedup_whatever_the_label(mem: GraphMem) -> None:
    say(mem, fact("state", "Zustand"))
    for label in ("ADD", "SUPERSEDE", "FLAG", "COEXIST"):
        assert say(mem, fact("state", "zustand ", action=label)) == [
            "Stored: [DEDUP] state = zustand"]
    assert len(mem.history("state")) == 1


def test_skip_label_stores_nothing(mem: GraphMem) -> None:
    out = say(mem, fact("state", "Jotai", action="SKIP"), text="maybe we should try Jotai?")
    assert out == ["Not stored (hypothetical, sarcasm, or nothing to change): state = Jotai"]
    assert mem.active() == []


def test_retract_with_no_target_is_skip(mem: GraphMem) -> None:
    out = mem.forget(facts=[fact("monitoring", "Sentry")])
    assert [str(r) for r in out] == [
        "Nothing matching to retract (that fact isn't currently stored)."]
    assert out[0].action == Action.SKIP


def test_several_facts_from_one_message(mem: GraphMem) -> None:
    say(mem, fact("db", "MySQL"), fact("cache", "Redis"))
    out = say(mem, fact("db", "Postgres", action="SUPERSEDE"),
              fact("cache", "Redis", action="RETRACT"),
              text="We moved to Postgres and dropped Redis")
    assert out == ["Stored: [SUPERSEDE] db = Postgres", "Stored: [RETRACT] cache = Redis"]
    assert values(mem) == [("Postgres", "global")]


def test_confidence_threshold_flags_low_confidence_change(mem: GraphMem) -> None:
    say(mem, fact("db", "MySQL"))
    out = say(mem, fact("db", "Postgres", action="SUPERSEDE", confidence=0.5))
    assert out == ["Stored: [FLAG] db = Postgres"]
    assert values(mem, "db") == [("MySQL", "global")]
    assert [f.value for f in mem.review.flagged()] == ["Postgres"]
    assert mem.review.conflicts()[0].kind == ConflictKind.LOW_CONFIDENCE


def test_confidence_threshold_low_confidence_retract_keeps_target(mem: GraphMem) -> None:
    say(mem, fact("cache", "Redis"))
    out = mem.forget(facts=[fact("cache", "Redis", confidence=0.4)])
    assert out[0].action == Action.FLAG
    assert values(mem, "cache") == [("Redis", "global")]
    assert len(mem.review.flagged()) == 1


def test_same_source_lower_confidence_opens_uncertainty(mem: GraphMem) -> None:
    say(mem, fact("role", "CEO", confidence=0.95), source="hr")
    out = say(mem, fact("role", "CTO", confidence=0.8), source="hr")
    assert out == ["Stored: [FLAG] role = CTO"]
    assert values(mem, "role") == [("CEO", "global")]
    assert mem.review.conflicts()[0].kind == ConflictKind.UNCERTAINTY


def test_same_source_at_or_above_incumbent_supersedes(mem: GraphMem) -> None:
    say(mem, fact("role", "CEO", confidence=0.8), source="hr")
    assert say(mem, fact("role", "CTO", confidence=0.8), source="hr") == [
        "Stored: [SUPERSEDE] role = CTO"]


def test_curated_source_never_overwritten(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(policy={"mode": "RECENCY", "curated": ["handbook"]})
    say(mem, fact("pto_policy", "25 days"), source="handbook")
    out = say(mem, fact("pto_policy", "30 days"), source="chat")
    assert out == ["Stored: [FLAG] pto_policy = 30 days"]
    assert values(mem, "pto_policy") == [("25 days", "global")]
    assert mem.review.conflicts()[0].kind == ConflictKind.POLICY


def test_source_policy_authority_crm_bot(mem: GraphMem) -> None:
    assert mem.review.set_reconcile_policy("AUTHORITY", {"crm": 2, "bot": 1}) == (
        "Reconciliation policy for this space set to AUTHORITY. "
        "authority ranks: {'crm': 2, 'bot': 1}")
    assert say(mem, fact("plan", "Pro"), source="crm") == ["Stored: [ADD] plan = Pro"]
    assert say(mem, fact("plan", "Free"), source="bot") == ["Stored: [FLAG] plan = Free"]
    assert values(mem, "plan") == [("Pro", "global")]
    assert say(mem, fact("plan", "Enterprise"), source="crm") == [
        "Stored: [SUPERSEDE] plan = Enterprise"]


def test_source_policy_review_flags_cross_source(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("owner", "alice"), source="crm")
    assert say(mem, fact("owner", "bob"), source="bot") == ["Stored: [FLAG] owner = bob"]
    assert say(mem, fact("owner", "carol"), source="crm") == ["Stored: [SUPERSEDE] owner = carol"]


def test_source_policy_governs_retract(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("AUTHORITY", {"crm": 2, "bot": 1})
    say(mem, fact("plan", "Pro"), source="crm")
    out = mem.forget(facts=[fact("plan", "Pro")], source="bot")
    assert out[0].action == Action.FLAG
    assert values(mem, "plan") == [("Pro", "global")]


def test_reconcile_policy_is_read_back(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("authority", {"crm": 2})
    policy = mem.review.get_reconcile_policy()
    assert policy.mode.value == "AUTHORITY" and policy.authority == {"crm": 2}
    with pytest.raises(InvalidInput, match="policy mode"):
        mem.review.set_reconcile_policy("LOUDEST")


def test_confirm_gate_warfarin(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    assert say(mem, fact("active_medication", "Warfarin 5mg")) == [
        "Stored: [ADD] active_medication = Warfarin 5mg"]
    out = say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"))
    assert out == ["Stored: [FLAG] active_medication = Warfarin 7.5mg"]
    assert values(mem, "active_medication") == [("Warfarin 5mg", "global")]
    pending = mem.review.pending()
    assert [p.value for p in pending] == ["Warfarin 7.5mg"]
    again = say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"))
    assert again == ["Stored: [DEDUP] active_medication = Warfarin 7.5mg"]
    assert len(mem.review.pending()) == 1
    applied = mem.review.confirm(pending[0].id)
    assert str(applied) == "Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert (applied.action, applied.subject, applied.value, applied.fact_id) == (
        Action.SUPERSEDE, "active_medication", "Warfarin 7.5mg", pending[0].id)
    assert values(mem, "active_medication") == [("Warfarin 7.5mg", "global")]
    assert mem.review.pending() == []


def test_confirm_gate_reject_keeps_current(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("active_medication", "Warfarin 5mg"))
    say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"))
    proposal = mem.review.pending()[0]
    rejected = mem.review.reject(proposal.id)
    assert str(rejected) == "Rejected: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert (rejected.action, rejected.fact_id) == (Action.SKIP, proposal.id)
    assert values(mem, "active_medication") == [("Warfarin 5mg", "global")]
    statuses = [e.status for e in mem.history("active_medication").entries]
    assert statuses == ["ACTIVE", "HISTORICAL"]


def test_confirm_gate_retraction_reports_what_it_retracted(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("active_medication", "warfarin 5 mg"))
    out = say(mem, fact("active_medication", "warfarin 5 mg", action="RETRACT"))
    assert out == ["Stored: [FLAG] active_medication = warfarin 5 mg"]
    applied = mem.review.confirm(mem.review.pending()[0].id)
    assert str(applied) == "Stored: [RETRACT] active_medication = warfarin 5 mg"
    assert applied.action == Action.RETRACT
    tombstone = mem.history("active_medication")[-1]
    assert (applied.fact_id, tombstone.value) == (tombstone.fact.id, "(retracted: warfarin 5 mg)")
    assert values(mem, "active_medication") == []


def test_confirm_gate_trusted_source_bypasses(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL, trusted_sources=["fhir"])
    say(mem, fact("active_medication", "Warfarin 5mg"), source="fhir")
    out = say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"),
              source="fhir")
    assert out == ["Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg"]


def test_confirm_gate_trusted_source_needs_a_caller_bound_to_it(
        make_mem: Callable[..., GraphMem]) -> None:
    from graphmem import Caller

    fhir = Caller(name="fhir-sync", capabilities=frozenset({"read", "write"}),
                  sources=frozenset({"fhir"}))
    ok = make_mem(slot_schema=CLINICAL, trusted_sources=["fhir"], caller=fhir)
    assert say(ok, fact("active_medication", "Warfarin 5mg"), source="fhir") == [
        "Stored: [ADD] active_medication = Warfarin 5mg"]
    bot = Caller(name="bot", capabilities=frozenset({"read", "write"}), sources=frozenset())
    mem = make_mem(space=ok.space.key, slot_schema=CLINICAL, trusted_sources=["fhir"], caller=bot)
    out = say(mem, fact("active_medication", "Warfarin 7.5mg", action="SUPERSEDE"),
              source="fhir")
    assert out == ["Stored: [FLAG] active_medication = Warfarin 7.5mg"], "gated, not trusted"
    assert [p.source for p in mem.review.pending()] == ["claimed:fhir"], "recorded as claimed"
    assert values(mem, "active_medication") == [("Warfarin 5mg", "global")]


def test_list_slot_supersedes_item_by_identity(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL, trusted_sources=["fhir"])
    say(mem, fact("active_medication", "atorvastatin 20 mg"),
        fact("active_medication", "metformin 500 mg"), source="fhir")
    out = say(mem, fact("active_medication", "atorvastatin 80 mg", action="SUPERSEDE"),
              source="fhir")
    assert out == ["Stored: [SUPERSEDE] active_medication = atorvastatin 80 mg"]
    assert values(mem, "active_medication") == [
        ("atorvastatin 80 mg", "global"), ("metformin 500 mg", "global")]


def test_list_slot_add_joins_and_retract_removes_only_named(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema=CLINICAL)
    say(mem, fact("allergies", "penicillin"))
    assert say(mem, fact("Drug-Allergy", "peanuts")) == ["Stored: [ADD] allergy = peanuts"]
    mem.forget(facts=[fact("allergy", "penicillin")])
    assert values(mem, "allergy") == [("peanuts", "global")]


def test_refine_changes_value_in_place(mem: GraphMem) -> None:
    say(mem, fact("office", "Berlin"))
    out = say(mem, fact("office", "Berlin, Mitte", action="REFINE"))
    assert out == ["Stored: [REFINE] office = Berlin, Mitte"]
    assert values(mem, "office") == [("Berlin, Mitte", "global")]
    history = mem.history("office")
    assert [(e.value, e.status) for e in history.entries] == [
        ("Berlin", "REFINED"), ("Berlin, Mitte", "ACTIVE")]
    assert len({e.fact.id for e in history.entries}) == 1


def test_supersession_chain_coo_ceo_cto(mem: GraphMem) -> None:
    t0 = datetime.now(UTC)
    say(mem, fact("alice_role", "COO"))
    t1 = datetime.now(UTC)
    say(mem, fact("alice_role", "CEO"))
    t2 = datetime.now(UTC)
    say(mem, fact("alice_role", "CTO"))
    t3 = datetime.now(UTC)
    assert [e.value for e in mem.history("alice_role").entries] == ["COO", "CEO", "CTO"]
    assert [e.status for e in mem.history("alice_role").entries] == [
        "SUPERSEDED", "SUPERSEDED", "ACTIVE"]
    assert [f.value for f in mem.active("alice_role", as_of=t0)] == []
    assert [f.value for f in mem.active("alice_role", as_of=t1)] == ["COO"]
    assert [f.value for f in mem.active("alice_role", as_of=t2)] == ["CEO"]
    assert [f.value for f in mem.active("alice_role", as_of=t3)] == ["CTO"]
    assert [f.value for f in mem.active("alice_role", valid_at=t1)] == ["COO"]
    assert [f.value for f in mem.active("alice_role", valid_at=t3 + timedelta(days=1))] == [
        "CTO"]
    cto, ceo = mem.active("alice_role")[0], mem.history("alice_role").entries[1].fact
    assert cto.supersedes == (ceo.id,)
    assert ceo.valid_to == cto.valid_from


def test_conflict_resolve_supersedes_loser(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("ttl", "300s"), source="alice")
    say(mem, fact("ttl", "600s"), source="ci")
    conflict = mem.review.conflicts()[0]
    winner = [f for f in mem.review.flagged() if f.value == "600s"][0]
    done = mem.review.resolve_conflict(conflict.id, winner.id, note="confirmed in prod config",
                                by="alice")
    assert str(done) == "Stored: [SUPERSEDE] ttl = 600s" and done.fact_id == winner.id
    assert done.conflict_id == conflict.id
    assert values(mem, "ttl") == [("600s", "global")]
    closed = mem.review.conflicts("resolved")[0]
    assert closed.winner == winner.id and closed.by == "alice"
    assert closed.note == "confirmed in prod config"


def test_conflict_resolve_for_incumbent(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("ttl", "300s"), source="alice")
    say(mem, fact("ttl", "600s"), source="ci")
    incumbent = mem.active("ttl")[0]
    done = mem.review.resolve_conflict(mem.review.conflicts()[0].id, incumbent.id)
    assert str(done) == "Stored: [SUPERSEDE] ttl = 300s" and done.fact_id == incumbent.id
    assert values(mem, "ttl") == [("300s", "global")]
    assert mem.review.flagged() == []


def test_conflict_dismiss_keeps_both(mem: GraphMem) -> None:
    mem.review.set_reconcile_policy("REVIEW")
    say(mem, fact("ttl", "300s"), source="alice")
    say(mem, fact("ttl", "600s"), source="ci")
    done = mem.review.dismiss_conflict(mem.review.conflicts()[0].id,
                                       note="both true: staging vs prod")
    assert str(done) == "Stored: [COEXIST] ttl = 600s" and done.action == Action.COEXIST
    assert values(mem, "ttl") == [("300s", "global"), ("600s", "global")]
    assert mem.review.conflicts() == []
    assert mem.review.conflicts("dismissed")[0].note == "both true: staging vs prod"


def test_list_memories_marks_flagged(mem: GraphMem) -> None:
    say(mem, fact("db", "MySQL"))
    say(mem, fact("db", "Postgres", confidence=0.3))
    say(mem, fact("cache", "Redis"))
    mem.forget(facts=[fact("cache", "Redis")])
    listing = str(mem.records.list_memories())
    assert "db = MySQL" in listing and "⚠ #" in listing and "Postgres" in listing
    assert "(retracted: Redis) [HISTORICAL]" in listing


def test_dedup_prefilter_matches_only_while_all_active(mem: GraphMem) -> None:
    text = "We use   Redux"
    say(mem, fact("state", "Redux"), text=text)
    hit = mem.records.prefilter("we use redux")
    assert hit is not None and [str(r) for r in hit] == ["Stored: [DEDUP] state = Redux"]
    say(mem, fact("state", "Zustand"))
    assert mem.records.prefilter(text) is None


def test_results_carry_fact_ids(mem: GraphMem) -> None:
    (result,) = mem.remember_facts([fact("db", "MySQL")])
    assert result.action == Action.ADD and result.subject == "db" and result.value == "MySQL"
    assert mem.records.fact(result.fact_id or "").status == Status.ACTIVE


def test_dedup_prefilter_can_be_turned_off(make_mem: Callable[..., GraphMem],
                                           settings: Any) -> None:
    mem = make_mem(settings=settings.model_copy(update={"dedup_prefilter": False}))
    say(mem, fact("state", "Redux"), text="we use Redux")
    assert mem.records.prefilter("we use Redux") is None


def test_ambiguity_two_values_in_one_message_are_flagged(mem: GraphMem) -> None:
    say(mem, fact("db", "MySQL"))
    out = say(mem, fact("db", "Postgres"), fact("db", "SQLite"),
              text="we use Postgres and SQLite for the main database")
    assert out == ["Stored: [FLAG] db = Postgres", "Stored: [FLAG] db = SQLite"]
    assert values(mem, "db") == [("MySQL", "global")]
    (conflict,) = mem.review.conflicts()
    assert conflict.kind == ConflictKind.AMBIGUITY and len(conflict.fact_ids) == 3


def test_flagged_facts_join_the_open_conflict_of_their_slot(mem: GraphMem) -> None:
    say(mem, fact("db", "MySQL"))
    say(mem, fact("db", "Postgres", confidence=0.4, reason="overheard in a meeting"))
    say(mem, fact("db", "SQLite", confidence=0.5))
    (conflict,) = mem.review.conflicts()
    assert conflict.kind == ConflictKind.LOW_CONFIDENCE and conflict.severity == "low"
    assert len(conflict.fact_ids) == 3
    postgres = [f for f in mem.review.flagged() if f.value == "Postgres"][0]
    assert postgres.metadata["reason"] == "overheard in a meeting"
    assert postgres.proposed_action == Action.SUPERSEDE
