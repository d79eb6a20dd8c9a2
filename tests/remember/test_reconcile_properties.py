"""Properties of reconcile on a real graph, over generated sequences of writes.

Three generators, all derandomized (the same examples on every run, so a failure replays):
- any proposal at all (every label, kind, tense, scope, source and removal wording): after
  the sequence the graph's invariants hold;
- writes to confirm-gated slots (single-valued and list) and an undeclared one, interleaved
  with reviews (confirm, reject, resolve, dismiss) of what is waiting: after every step the
  invariants hold, among them that every flagged fact is in an open conflict;
- current-tense proposals on undeclared slots (labels ADD, SUPERSEDE, RETRACT, REFINE, FLAG,
  SKIP; states and events; two scopes; three sources; confidences on both sides of the
  floor): there the rules decide every outcome, so `Expected` (the rules of seed 000 and 001
  restated for this case) predicts each result's action and value and the slots' active values,
  and the graph must agree.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem
from graphmem.model import value_key
from graphmem.runtime import Runtime

from support import isolation

SUBJECTS = ("db", "cache", "state")
VALUES = ("MySQL", "Postgres", "Redis", "Zustand", "MobX")

proposal = st.fixed_dictionaries({
    "subject": st.sampled_from(SUBJECTS),
    "value": st.sampled_from(VALUES),
    "scope": st.sampled_from(("global", "global", "mobile")),
    "action": st.sampled_from(("ADD", "SUPERSEDE", "RETRACT", "REFINE", "COEXIST", "FLAG",
                               "SKIP")),
    "kind": st.sampled_from(("state", "state", "state", "event")),
    "time_ref": st.sampled_from(("current", "current", "past", "future")),
    "confidence": st.sampled_from((0.4, 0.8, 0.95, 1.0)),
})
write = st.tuples(st.lists(proposal, min_size=1, max_size=4),
                  st.sampled_from(("", "crm", "bot")),
                  st.sampled_from(("", "we dropped Redis", "maybe we dropped MySQL?")))

decided_proposal = st.fixed_dictionaries({
    "subject": st.sampled_from(("db", "db", "db", "cache")),
    "value": st.sampled_from(VALUES[:3]),
    "scope": st.sampled_from(("global", "global", "global", "mobile")),
    "action": st.sampled_from(("ADD", "SUPERSEDE", "SUPERSEDE", "RETRACT", "RETRACT", "REFINE",
                               "FLAG", "SKIP")),
    "kind": st.sampled_from(("state", "state", "state", "event")),
    "time_ref": st.just("current"),
    "confidence": st.sampled_from((0.4, 0.8, 0.95, 1.0)),
})
decided_write = st.tuples(st.lists(decided_proposal, min_size=1, max_size=3),
                          st.sampled_from(("", "crm", "bot")))

SINGLE_SLOT_VIOLATIONS = """
MATCH (f:Fact {space: $space, status: 'ACTIVE', kind: 'state', cardinality: 'one'})
WHERE coalesce(f.coexist, false) = false
WITH f.subject AS subject, f.scope AS scope, count(*) AS n
WHERE n > 1
RETURN subject, scope, n
"""
ORPHAN_SUPERSEDED = """
MATCH (f:Fact {space: $space, status: 'SUPERSEDED'})
WHERE NOT EXISTS { (:Fact)-[:SUPERSEDES|RETRACTS]->(f) }
RETURN f.id AS id
"""
RETIRED_IDS = """
MATCH (f:Fact {space: $space}) WHERE f.status IN ['SUPERSEDED', 'HISTORICAL']
RETURN collect(f.id) AS ids
"""
RETIRED_EVENTS = """
MATCH (f:Fact {space: $space, kind: 'event', status: 'SUPERSEDED'})
RETURN f.id AS id
"""
STRANDED_FLAGGED = """
MATCH (f:Fact {space: $space, status: 'FLAGGED_CONFLICT'})
WHERE NOT EXISTS { MATCH (c:Conflict {status: 'open'})-[:INVOLVES]->(f) WHERE c.space = $space }
RETURN f.id AS id, f.subject AS subject, f.value AS value
"""


def _check(runtime: Runtime, mem: GraphMem) -> None:
    with runtime.graph.session() as session:
        assert session.run(SINGLE_SLOT_VIOLATIONS, space=mem.space.key).data() == []
        assert session.run(ORPHAN_SUPERSEDED, space=mem.space.key).data() == []
        assert session.run(RETIRED_EVENTS, space=mem.space.key).data() == [], "an event was retired"
        assert session.run(STRANDED_FLAGGED, space=mem.space.key).data() == [], (
            "a flagged fact is in no open conflict: nobody can see or settle it")
        retired = set(session.run(RETIRED_IDS, space=mem.space.key).single()["ids"])
    assert not retired & {f.id for f in mem.active()}


PROPERTY_RUNS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                         suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                HealthCheck.too_slow])


@PROPERTY_RUNS
@given(writes=st.lists(write, min_size=1, max_size=6))
def test_invariants_hold_after_any_sequence(runtime: Runtime,
                                            writes: list[tuple[list[dict[str, Any]], str, str]]
                                            ) -> None:
    with GraphMem(space=isolation.tenant("prop"), runtime=runtime) as mem:
        for facts, source, text in writes:
            mem.remember_facts(facts, text=text, source=source)
        _check(runtime, mem)


# ---- reviews between the writes: settling never strands a held fact -------------------------
REVIEWED_SCHEMA = {"slots": [
    {"name": "db", "confirm": True},
    {"name": "med", "multi": True, "confirm": True},
]}
reviewed_proposal = st.fixed_dictionaries({
    "subject": st.sampled_from(("db", "db", "med", "med", "cache")),
    "value": st.sampled_from(("MySQL", "Postgres", "Redis", "Warfarin 5mg", "Warfarin 10mg")),
    "action": st.sampled_from(("ADD", "SUPERSEDE", "SUPERSEDE", "RETRACT", "FLAG")),
    "time_ref": st.sampled_from(("current", "current", "current", "future")),
    "confidence": st.sampled_from((0.4, 0.95, 0.95)),
})
review = st.tuples(st.sampled_from(("confirm", "reject", "resolve", "dismiss")),
                   st.integers(0, 3), st.integers(0, 3))
step = st.one_of(st.tuples(st.just("write"), st.lists(reviewed_proposal, min_size=1,
                                                      max_size=3)),
                 st.tuples(st.just("review"), review))


def _review(mem: GraphMem, how: str, pick: int, winner: int) -> None:
    """One review action on what is waiting now (picked by position, in a stable order)."""
    if how in ("confirm", "reject"):
        waiting = sorted(mem.review.pending(), key=lambda f: (f.recorded_at, f.value, f.subject))
        if waiting:
            chosen = waiting[pick % len(waiting)]
            (mem.review.confirm if how == "confirm" else mem.review.reject)(chosen.id)
        return
    open_ = sorted(mem.review.conflicts(), key=lambda c: (c.created_at, c.subject, c.scope, c.kind))
    if not open_:
        return
    conflict = open_[pick % len(open_)]
    if how == "dismiss":
        mem.review.dismiss_conflict(conflict.id)
        return
    involved = sorted(mem.records.facts_by_id(list(conflict.fact_ids), None).values(),
                      key=lambda f: (f.recorded_at, f.value))
    mem.review.resolve_conflict(conflict.id, involved[winner % len(involved)].id)


# Each step is checked, so fewer sequences cover as many states as the other generators.
REVIEW_RUNS = settings(PROPERTY_RUNS, max_examples=40)


@REVIEW_RUNS
@given(steps=st.lists(step, min_size=2, max_size=8))
def test_invariants_hold_when_reviews_settle_conflicts_between_writes(
        runtime: Runtime, steps: list[tuple[str, Any]]) -> None:
    with GraphMem(space=isolation.tenant("prop"), runtime=runtime,
                  slot_schema=REVIEWED_SCHEMA) as mem:
        for kind, what in steps:
            if kind == "write":
                mem.remember_facts(what)
            else:
                _review(mem, *what)
            _check(runtime, mem)


# ---- where the rules decide: the expected outcome ------------------------------------------
@dataclass
class Held:
    """A stored fact as the rules see it: its value, source and confidence."""

    value: str
    source: str
    confidence: float


@dataclass
class Slot:
    state: Held | None = None  # the single active state value
    events: list[str] = field(default_factory=list)  # active events: never retired
    pending: set[tuple[str, bool]] = field(default_factory=set)  # flagged (value, removal)


@dataclass
class Expected:
    """Seed 000's rules for current-tense proposals on undeclared slots, RECENCY policy and
    no removal wording (rule 0 SKIP; 1 events only add; 5 restatement; 6 a FLAG label or two
    values in one call with nothing saying which is newer; 7 the effect, a RETRACT without
    target is SKIP; 9 the confidence floor and seed 001's same-source rule)."""

    floor: float
    slots: dict[tuple[str, str], Slot] = field(default_factory=lambda: defaultdict(Slot))

    def write(self, facts: list[dict[str, Any]], source: str) -> list[tuple[str, str]]:
        ambiguous = self._ambiguous(facts)
        return [self._one(p, source, i in ambiguous) for i, p in enumerate(facts)]

    @staticmethod
    def _ambiguous(facts: list[dict[str, Any]]) -> set[int]:
        """Two different state values for one slot in one call, all labelled ADD or FLAG."""
        groups: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, p in enumerate(facts):
            if p["kind"] == "state" and p["action"] != "SKIP":
                groups[(p["subject"], p["scope"])].append(i)
        found: set[int] = set()
        for idx in groups.values():
            labels = {facts[i]["action"] for i in idx}
            if labels <= {"ADD", "FLAG"} and len({value_key(facts[i]["value"]) for i in idx}) > 1:
                found.update(idx)
        return found

    def _one(self, p: dict[str, Any], source: str, ambiguous: bool) -> tuple[str, str]:
        value, conf, event = p["value"], p["confidence"], p["kind"] == "event"
        label = p["action"]
        slot = self.slots[(p["subject"], p["scope"])]
        if label == "SKIP":
            return "SKIP", value
        if event and label in ("SUPERSEDE", "RETRACT", "REFINE"):
            label = "ADD"  # rule 1: an event only adds
        removal = label == "RETRACT"
        active = [slot.state.value] if slot.state else []
        if not removal and any(value_key(v) == value_key(value) for v in active + slot.events):
            return "DEDUP", value
        if (value_key(value), removal) in slot.pending:
            return "DEDUP", value
        effect, target = self._effect(slot, label, value, event)
        if effect == "SKIP":
            return "SKIP", value
        if ambiguous or label == "FLAG" or self._gated(effect, target, conf, source):
            slot.pending.add((value_key(value), removal))
            return "FLAG", value
        return self._apply(slot, effect, Held(value, source, conf), event)

    @staticmethod
    def _effect(slot: Slot, label: str, value: str, event: bool) -> tuple[str, Held | None]:
        if event:
            return "ADD", None
        held = slot.state
        if label == "RETRACT":
            hit = held is not None and value_key(held.value) == value_key(value)
            return ("RETRACT", held) if hit else ("SKIP", None)
        if held is None:
            return "ADD", None
        return ("REFINE" if label == "REFINE" else "SUPERSEDE"), held

    def _gated(self, effect: str, target: Held | None, conf: float, source: str) -> bool:
        if effect == "ADD" or target is None:
            return False
        if conf < self.floor:
            return True
        return bool(source) and target.source == source and conf < target.confidence

    @staticmethod
    def _apply(slot: Slot, effect: str, new: Held, event: bool) -> tuple[str, str]:
        if event:
            slot.events.append(new.value)
        elif effect == "RETRACT":
            slot.state = None
        elif effect == "REFINE" and slot.state is not None:
            slot.state = Held(new.value, slot.state.source, new.confidence)
        else:
            slot.state = new
        return effect, new.value

    def active(self) -> dict[tuple[str, str], list[str]]:
        found = {key: sorted([*([s.state.value] if s.state else []), *s.events])
                 for key, s in self.slots.items()}
        return {key: values for key, values in found.items() if values}


@PROPERTY_RUNS
@given(writes=st.lists(decided_write, min_size=2, max_size=8))
def test_outcomes_follow_the_rules_where_they_decide(
        runtime: Runtime, writes: list[tuple[list[dict[str, Any]], str]]) -> None:
    expected = Expected(runtime.settings.confidence_floor)
    with GraphMem(space=isolation.tenant("prop"), runtime=runtime) as mem:
        for n, (facts, source) in enumerate(writes):
            results = mem.remember_facts(facts, source=source)
            got = [(r.action.value, r.value) for r in results]
            assert got == expected.write(facts, source), (n, facts, source)
        active: dict[tuple[str, str], list[str]] = defaultdict(list)
        for fact in mem.active():
            active[(fact.subject, fact.scope)].append(fact.value)
        assert {k: sorted(v) for k, v in active.items()} == expected.active()
        _check(runtime, mem)
