"""The same reconciliation scenarios through the Python API, GraphQL and MCP give the same
results: each scenario runs once per surface, in a space of its own, and the result lines
and the active values must agree. The scenarios are the reconciliation rules' own examples,
the ones that name a stored fact by its id included."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.model import Space
from graphmem.runtime import Runtime

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

pytestmark = pytest.mark.races

SURFACES = ("python", "graphql", "mcp")
WRITE = ("mutation($s: String!, $f: [FactInput!]!, $src: String!, $text: String!) {"
         " rememberFacts(space: $s, facts: $f, source: $src, text: $text) { message factId } }")
FORGET = ("mutation($s: String!, $f: [FactInput!]!) {"
          " forgetFacts(space: $s, facts: $f) { message factId } }")
POLICY = ("mutation($s: String!, $mode: PolicyMode!, $a: [SourceRankInput!]) {"
          " setReconcilePolicy(space: $s, mode: $mode, authority: $a) { message } }")


@dataclass(frozen=True)
class Step:
    """One write: facts (a fact's `target` is the index of an earlier step whose first
    result it names by id), its source and message, or a forget."""

    facts: tuple[dict[str, Any], ...]
    source: str = ""
    text: str = ""
    forget: bool = False


@dataclass(frozen=True)
class Scenario:
    steps: tuple[Step, ...]
    policy: dict[str, int] | None = None
    expected: tuple[str, ...] = field(default_factory=tuple)


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, **kw}


SCENARIOS = {
    "same_slot_invariant_redux_zustand_mobx": Scenario((
        Step((fact("state", "Redux", confidence=0.95),)),
        Step((fact("state", "Zustand", action="COEXIST", confidence=0.95),)),
        Step((fact("state", "MobX", action="COEXIST", scope="mobile", confidence=0.95),)),
    ), expected=("Stored: [ADD] state = Redux", "Stored: [SUPERSEDE] state = Zustand",
                 "Stored: [COEXIST] state = MobX")),
    "retract_writes_tombstone_sentry_dropped": Scenario((
        Step((fact("monitoring", "Sentry", confidence=0.95),)),
        Step((fact("monitoring", "Sentry", action="ADD", confidence=0.95),),
             text="we dropped Sentry"),
    ), expected=("Stored: [ADD] monitoring = Sentry", "Stored: [RETRACT] monitoring = Sentry")),
    "refine_the_targeted_fact_in_place": Scenario((
        Step((fact("plan", "Pro", confidence=0.95),)),
        Step((fact("plan", "Pro (annual billing)", action="REFINE", confidence=0.95,
                   target=0),)),
    ), expected=("Stored: [ADD] plan = Pro", "Stored: [REFINE] plan = Pro (annual billing)")),
    "an_event_s_change_labels_become_add": Scenario((
        Step((fact("race", "charity 5k", kind="event", confidence=0.95),)),
        Step((fact("race", "city marathon", kind="event", action="SUPERSEDE",
                   confidence=0.95, target=0),)),
    ), expected=("Stored: [ADD] race = charity 5k", "Stored: [ADD] race = city marathon")),
    "low_confidence_coexist_and_refine_are_flagged": Scenario((
        Step((fact("state", "Zustand", confidence=0.95),)),
        Step((fact("state", "MobX", action="COEXIST", scope="mobile", confidence=0.5),)),
        Step((fact("state", "Zustand 5", action="REFINE", confidence=0.5, target=0),)),
    ), expected=("Stored: [ADD] state = Zustand", "Stored: [FLAG] state = MobX",
                 "Stored: [FLAG] state = Zustand 5")),
    "cross_source_refine_under_authority_is_flagged": Scenario((
        Step((fact("plan", "Pro", confidence=0.95),), source="crm"),
        Step((fact("plan", "Pro Plus", action="REFINE", confidence=0.95, target=0),),
             source="bot"),
    ), policy={"crm": 2, "bot": 1},
        expected=("Stored: [ADD] plan = Pro", "Stored: [FLAG] plan = Pro Plus")),
    "an_explicit_forget_without_confidence_retracts": Scenario((
        Step((fact("monitoring", "Sentry", confidence=0.95),)),
        Step((fact("monitoring", "Sentry"),), forget=True),
    ), expected=("Stored: [ADD] monitoring = Sentry", "Stored: [RETRACT] monitoring = Sentry")),
    "a_forget_names_the_fact_by_id": Scenario((
        Step((fact("allergy", "penicillin", confidence=0.95, cardinality="many"),)),
        Step((fact("allergy", "latex", confidence=0.95, cardinality="many"),)),
        Step((fact("allergy", "", target=0),), forget=True),
    ), expected=("Stored: [ADD] allergy = penicillin", "Stored: [ADD] allergy = latex",
                 "Stored: [RETRACT] allergy = penicillin")),
}

def resolved(step: Step, ids: list[list[str | None]]) -> list[dict[str, Any]]:
    """The step's facts with `target` turned into the named step's first fact id."""
    out = []
    for f in step.facts:
        f = dict(f)
        if "target" in f:
            f["target_id"] = ids[f.pop("target")][0]
        out.append(f)
    return out


def camel(f: dict[str, Any]) -> dict[str, Any]:
    names = {"time_ref": "timeRef", "target_id": "targetId"}
    enums = {"kind", "cardinality", "time_ref"}
    return {names.get(k, k): (v.upper() if k in enums else v) for k, v in f.items()}


Writer = Callable[[Step, list[dict[str, Any]]], list[tuple[str, str | None]]]


def run(scenario: Scenario, write: Writer,
        set_policy: Callable[[dict[str, int]], object]) -> list[str]:
    if scenario.policy:
        set_policy(scenario.policy)
    lines: list[str] = []
    ids: list[list[str | None]] = []
    for step in scenario.steps:
        results = write(step, resolved(step, ids))
        lines += [message for message, _ in results]
        ids.append([fact_id for _, fact_id in results])
    return lines


def on_python(scenario: Scenario, mem: GraphMem) -> list[str]:
    def write(step: Step, facts: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
        done = (mem.forget(facts=facts) if step.forget else
                mem.remember_facts(facts, text=step.text, source=step.source))
        return [(r.message, r.fact_id) for r in done]

    return run(scenario, write,
               lambda ranks: mem.review.set_reconcile_policy("AUTHORITY", ranks))


def on_graphql(scenario: Scenario, api: Api, token: str, user: str) -> list[str]:
    def write(step: Step, facts: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
        given = [camel(f) for f in facts]
        if step.forget:
            done = api.ok(token, FORGET, {"s": user, "f": given})["forgetFacts"]
        else:
            done = api.ok(token, WRITE, {"s": user, "f": given, "src": step.source,
                                         "text": step.text})["rememberFacts"]
        return [(r["message"], r["factId"]) for r in done]

    return run(scenario, write, lambda ranks: api.ok(token, POLICY, {
        "s": user, "mode": "AUTHORITY",
        "a": [{"source": s, "rank": r} for s, r in ranks.items()]}))


def on_mcp(scenario: Scenario, api: Api, token: str, user: str) -> list[str]:
    with http(f"{api.base}/mcp", token) as session:
        def write(step: Step, facts: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
            args: dict[str, Any] = {"facts": facts, "user_id": user}
            if not step.forget:
                args.update(source=step.source, text=step.text)
            done = session.call("forget" if step.forget else "remember_facts", args)
            assert not done.is_error, text_of(done)
            assert done.structured_content is not None
            return [(r["message"], r["fact_id"]) for r in done.structured_content["result"]]

        return run(scenario, write, lambda ranks: session.text(
            "set_reconcile_policy", {"mode": "AUTHORITY", "authority": ranks,
                                     "user_id": user}))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_scenario_gives_the_same_results_on_every_surface(name: str, api: Api,
                                                            runtime: Runtime) -> None:
    scenario = SCENARIOS[name]
    tenant = new_tenant()
    token = api.key("admin", tenant)
    outcomes: dict[str, tuple[list[str], list[tuple[str, str, str]]]] = {}
    for surface in SURFACES:
        user = f"{surface}-{uuid.uuid4().hex[:8]}"
        mem = GraphMem(Space(tenant, user), runtime=runtime)
        lines = (on_python(scenario, mem) if surface == "python" else
                 on_graphql(scenario, api, token, user) if surface == "graphql" else
                 on_mcp(scenario, api, token, user))
        outcomes[surface] = (lines, sorted((f.subject, f.value, f.scope) for f in mem.active()))
    assert outcomes["python"][0] == list(scenario.expected)
    assert outcomes["graphql"] == outcomes["python"], name
    assert outcomes["mcp"] == outcomes["python"], name
