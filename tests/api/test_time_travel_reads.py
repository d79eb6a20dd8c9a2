"""Time travel on every read, through the real server: `asOf` (what memory held), `validAt`
(what was true in the world) and `validDuring` (true at some point of an interval).

One story in one space: Alice was COO and the state library Redux from 2024; both changed in
2025 (CEO, Zustand); then a doubtful MobX was flagged. `t0`, `t1`, `t2` are instants between
the writes, read from the server's own clock side (the same machine)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest

from support.api_support import Api, codes, new_tenant

pytestmark = pytest.mark.races

Y2024, Y2025 = "2024-01-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00"
MID_2024, MID_2025 = "2024-06-01T00:00:00+00:00", "2025-06-01T00:00:00+00:00"
REMEMBER = ("mutation($f: [FactInput!]!) { rememberFacts(space: \"u\", facts: $f)"
            " { action factId conflictId } }")


def instant() -> str:
    at = datetime.now(UTC).isoformat()
    time.sleep(0.01)  # the next write's clock reads later than this instant
    return at


@pytest.fixture(scope="module")
def story(serve_api: Any) -> dict[str, Any]:
    # conflicts with their facts; every read of the module shares one key, and its recalls
    # call the model, so twenty runs of a test (`make test-repeat`) within a minute would
    # spend the key's model-call budget
    api: Api = serve_api(api_max_complexity=20_000, api_model_calls_per_min=1_000_000)
    token = api.key("admin", new_tenant())
    t0 = instant()
    first = api.ok(token, REMEMBER, {"f": [
        {"head": "Alice", "headType": "person", "relation": "role", "tail": "COO",
         "tailType": "concept", "validFrom": Y2024, "confidence": 0.9},
        {"subject": "state", "value": "Redux", "validFrom": Y2024, "confidence": 0.9}]})
    t1 = instant()
    api.ok(token, REMEMBER, {"f": [
        {"head": "Alice", "headType": "person", "relation": "role", "tail": "CEO",
         "tailType": "concept", "validFrom": Y2025, "action": "SUPERSEDE", "confidence": 0.9},
        {"subject": "state", "value": "Zustand", "validFrom": Y2025, "action": "SUPERSEDE",
         "confidence": 0.9}]})
    t2 = instant()
    flagged = api.ok(token, REMEMBER, {"f": [{"subject": "state", "value": "MobX",
                                              "action": "SUPERSEDE", "confidence": 0.3}]})
    t3 = instant()
    return {"api": api, "token": token, "t0": t0, "t1": t1, "t2": t2, "t3": t3,
            "coo": first["rememberFacts"][0]["factId"],
            "conflict": flagged["rememberFacts"][0]["conflictId"]}


def read(story: dict[str, Any], query: str, **variables: Any) -> Any:
    data = story["api"].ok(story["token"], query, variables)
    return next(iter(data.values()))


FACTS = ("query($asOf: DateTime, $validAt: DateTime, $during: ValidDuringInput,"
         " $statuses: [Status!]) { facts(space: \"u\", asOf: $asOf, validAt: $validAt,"
         " validDuring: $during, statuses: $statuses) { totalCount nodes { value status"
         " validTo } } }")


def values(found: Any) -> list[str]:
    return sorted(n["value"] for n in found["nodes"])


def test_facts_at_any_point_of_either_clock(story: dict[str, Any]) -> None:
    assert values(read(story, FACTS)) == ["CEO", "Zustand"]
    then = read(story, FACTS, asOf=story["t1"])
    assert values(then) == ["COO", "Redux"] and then["totalCount"] == 2
    assert {n["status"] for n in then["nodes"]} == {"ACTIVE"}
    assert {n["validTo"] for n in then["nodes"]} == {None}  # open-ended as memory held them
    assert read(story, FACTS, asOf=story["t0"])["totalCount"] == 0
    true_then = read(story, FACTS, validAt=MID_2024)
    assert values(true_then) == ["COO", "Redux"]
    assert {n["status"] for n in true_then["nodes"]} == {"SUPERSEDED"}
    assert values(read(story, FACTS, validAt=MID_2025)) == ["CEO", "Zustand"]
    assert values(read(story, FACTS, during={"from": MID_2024, "to": MID_2025})) == [
        "CEO", "COO", "Redux", "Zustand"]
    # what memory believed at t1 would be true in mid-2025: the values it held then
    assert values(read(story, FACTS, asOf=story["t1"], validAt=MID_2025)) == ["COO", "Redux"]
    assert values(read(story, FACTS, statuses=["FLAGGED_CONFLICT"])) == ["MobX"]
    assert read(story, FACTS, statuses=["FLAGGED_CONFLICT"], asOf=story["t2"])[
        "totalCount"] == 0


def test_one_fact_as_memory_held_it(story: dict[str, Any]) -> None:
    query = ("query($id: ID!, $asOf: DateTime) { fact(space: \"u\", id: $id, asOf: $asOf)"
             " { status validTo supersededBy { value } } }")
    now = read(story, query, id=story["coo"])
    assert (now["status"], now["validTo"], now["supersededBy"]) == (
        "SUPERSEDED", Y2025, {"value": "CEO"})
    then = read(story, query, id=story["coo"], asOf=story["t1"])
    assert (then["status"], then["validTo"], then["supersededBy"]) == ("ACTIVE", None, None)
    body = story["api"].gql(story["token"], query, {"id": story["coo"], "asOf": story["t0"]})
    assert [e["extensions"]["code"] for e in body["errors"]] == ["NOT_FOUND"]


HISTORY = ("query($asOf: DateTime, $validAt: DateTime, $during: ValidDuringInput) {"
           " history(space: \"u\", subject: \"state\", asOf: $asOf, validAt: $validAt,"
           " validDuring: $during) { totalCount nodes { value status } } }")


def test_history_at_any_point_of_either_clock(story: dict[str, Any]) -> None:
    timeline = read(story, HISTORY)
    assert [(n["value"], n["status"]) for n in timeline["nodes"]] == [
        ("Redux", "SUPERSEDED"), ("Zustand", "ACTIVE"), ("MobX", "FLAGGED_CONFLICT")]
    assert [(n["value"], n["status"]) for n in read(story, HISTORY, asOf=story["t1"])[
        "nodes"]] == [("Redux", "ACTIVE")]
    assert [n["value"] for n in read(story, HISTORY, validAt=MID_2024)["nodes"]] == ["Redux"]
    during = read(story, HISTORY, during={"from": "2025-02-01T00:00:00Z"})
    assert [n["value"] for n in during["nodes"]] == ["Zustand"] and during["totalCount"] == 1


def test_conflicts_pending_and_stats_at_any_time(story: dict[str, Any]) -> None:
    conflicts = ("query($asOf: DateTime, $validAt: DateTime) { conflicts(space: \"u\","
                 " asOf: $asOf, validAt: $validAt) { totalCount nodes { conflictId status"
                 " facts { value status } } } }")
    assert read(story, conflicts)["totalCount"] == 1
    assert read(story, conflicts, asOf=story["t2"])["totalCount"] == 0
    assert read(story, conflicts, validAt=MID_2024)["totalCount"] == 0
    stats = ("query($asOf: DateTime, $validAt: DateTime) { stats(space: \"u\", asOf: $asOf,"
             " validAt: $validAt) { active flagged superseded openConflicts entities } }")
    assert read(story, stats) == {"active": 2, "flagged": 1, "superseded": 2,
                                  "openConflicts": 1, "entities": 3}
    assert read(story, stats, asOf=story["t1"]) == {"active": 2, "flagged": 0,
                                                    "superseded": 0, "openConflicts": 0,
                                                    "entities": 2}
    assert read(story, stats, validAt=MID_2024)["superseded"] == 2
    assert read(story, stats, validAt=MID_2024)["active"] == 0
    pending = ("query($asOf: DateTime) { pendingChanges(space: \"u\", asOf: $asOf)"
               " { totalCount } }")
    assert read(story, pending)["totalCount"] == 0  # a doubt, not a confirm-gate proposal
    spaces = ("query($asOf: DateTime) { spaces { nodes { stats(asOf: $asOf)"
              " { active flagged } } } }")
    assert read(story, spaces, asOf=story["t1"])["nodes"] == [
        {"stats": {"active": 2, "flagged": 0}}]


def test_the_entity_graph_at_any_time(story: dict[str, Any]) -> None:
    entities = ("query($asOf: DateTime, $validAt: DateTime) { entities(space: \"u\","
                " asOf: $asOf, validAt: $validAt) { nodes { key } } }")
    assert [n["key"] for n in read(story, entities)["nodes"]] == [
        "concept:ceo", "concept:coo", "person:alice"]
    assert read(story, entities, asOf=story["t0"])["nodes"] == []
    assert [n["key"] for n in read(story, entities, validAt=MID_2024)["nodes"]] == [
        "concept:coo", "person:alice"]
    search = ("query($asOf: DateTime) { searchEntities(space: \"u\", query: \"CEo\","
              " asOf: $asOf) { nodes { name } } }")
    assert read(story, search)["nodes"] == [{"name": "CEO"}]
    assert read(story, search, asOf=story["t1"])["nodes"] == []
    entity = ("query($asOf: DateTime, $validAt: DateTime) { entity(space: \"u\", type:"
              " \"person\", name: \"Alice\", asOf: $asOf, validAt: $validAt)"
              " { links { other { name } } } }")
    assert read(story, entity)["links"] == [{"other": {"name": "CEO"}}]
    assert read(story, entity, asOf=story["t1"])["links"] == [{"other": {"name": "COO"}}]
    assert read(story, entity, validAt=MID_2024)["links"] == [{"other": {"name": "COO"}}]
    history = ("query($asOf: DateTime, $validAt: DateTime, $during: ValidDuringInput) {"
               " entityHistory(space: \"u\", type: \"person\", name: \"Alice\", attribute:"
               " \"role\", asOf: $asOf, validAt: $validAt, validDuring: $during)"
               " { nodes { value status } } }")
    assert [(n["value"], n["status"]) for n in read(story, history)["nodes"]] == [
        ("COO", "SUPERSEDED"), ("CEO", "ACTIVE")]
    assert [n["value"] for n in read(story, history, asOf=story["t1"])["nodes"]] == ["COO"]
    assert [n["value"] for n in read(story, history, validAt=MID_2024)["nodes"]] == ["COO"]
    assert [n["value"] for n in read(story, history, during={
        "from": "2025-02-01T00:00:00Z"})["nodes"]] == ["CEO"]
    around = ("query($asOf: DateTime, $validAt: DateTime) { neighbourhood(space: \"u\","
              " type: \"person\", name: \"Alice\", asOf: $asOf, validAt: $validAt)"
              " { entities { name } } }")
    assert {e["name"] for e in read(story, around)["entities"]} == {"Alice", "CEO"}
    assert {e["name"] for e in read(story, around, asOf=story["t1"])["entities"]} == {
        "Alice", "COO"}
    related = ("query($validAt: DateTime) { recallRelated(space: \"u\", entities: [{name:"
               " \"Alice\"}], hops: 1, validAt: $validAt) { entities { name } } }")
    assert {e["name"] for e in read(story, related, validAt=MID_2024)["entities"]} == {
        "Alice", "COO"}
    vocabulary = ("query($asOf: DateTime) { vocabulary(space: \"u\", asOf: $asOf)"
                  " { entities { key } relations } }")
    assert read(story, vocabulary, asOf=story["t0"]) == {"entities": [], "relations": []}
    assert read(story, vocabulary)["relations"] == ["role"]
    assert {e["key"] for e in read(story, vocabulary, asOf=story["t1"])["entities"]} == {
        "person:alice", "concept:coo"}


def test_recall_and_the_check_before_acting_at_any_time(story: dict[str, Any]) -> None:
    recall = ("query($asOf: DateTime, $validAt: DateTime) { recall(space: \"u\", question:"
              " \"which state library?\", asOf: $asOf, validAt: $validAt)"
              " { facts { fact { value } history } } }")
    values_then = {f["fact"]["value"] for f in read(story, recall, asOf=story["t1"])["facts"]}
    assert values_then == {"COO", "Redux"}
    true_then = read(story, recall, validAt=MID_2024)["facts"]
    assert {f["fact"]["value"] for f in true_then} == {"COO", "Redux"}
    assert all(f["history"] for f in true_then)  # no longer current
    check = ("query($asOf: DateTime, $validAt: DateTime) { checkBeforeAct(space: \"u\","
             " subjects: [\"state\"], asOf: $asOf, validAt: $validAt) { allowed reasons"
             " facts { value } } }")
    now = read(story, check)
    assert not now["allowed"] and "flagged" in " ".join(now["reasons"])
    then = read(story, check, asOf=story["t2"])
    assert then["allowed"] and then["facts"] == [{"value": "Zustand"}]
    assert read(story, check, asOf=story["t1"])["facts"] == [{"value": "Redux"}]
    assert not read(story, check, validAt=MID_2024)["allowed"]  # nothing current was true


CHANGES = ("query($from: DateTime!, $to: DateTime, $clock: Clock!, $after: String) {"
           " changes(space: \"u\", from: $from, to: $to, clock: $clock, first: 1,"
           " after: $after) { totalCount pageInfo { hasNextPage endCursor }"
           " nodes { subject kind before { value } after { value }"
           " causes { step factId event } } } }")


def test_changes_between_two_recorded_instants_over_graphql(story: dict[str, Any]) -> None:
    found = read(story, CHANGES, **{"from": story["t1"], "to": story["t2"],
                                    "clock": "RECORDED"})
    assert found["totalCount"] == 2 and found["pageInfo"]["hasNextPage"]
    rest = read(story, CHANGES, **{"from": story["t1"], "to": story["t2"],
                                   "clock": "RECORDED", "after": found["pageInfo"]["endCursor"]})
    slots = {n["subject"]: n for n in [*found["nodes"], *rest["nodes"]]}
    assert set(slots) == {"alice_role", "state"}
    state = slots["state"]
    assert (state["kind"], state["before"], state["after"]) == (
        "CHANGED", [{"value": "Redux"}], [{"value": "Zustand"}])
    assert {c["step"] for c in state["causes"]} == {"STARTED", "STOPPED"}
    assert len({c["event"] for c in state["causes"]}) == 1
    flagged = read(story, CHANGES, **{"from": story["t2"], "to": story["t3"],
                                      "clock": "RECORDED"})
    assert flagged["totalCount"] == 0  # a flagged proposal is not current


def test_changes_on_the_valid_clock_over_graphql(story: dict[str, Any]) -> None:
    found = read(story, CHANGES, **{"from": MID_2024, "to": MID_2025, "clock": "VALID"})
    assert found["totalCount"] == 2
    node = found["nodes"][0]
    assert (node["subject"], node["before"], node["after"]) == (
        "alice_role", [{"value": "COO"}], [{"value": "CEO"}])


def test_changes_refuse_a_backwards_window_over_graphql(story: dict[str, Any]) -> None:
    body = story["api"].gql(story["token"], CHANGES, {
        "from": story["t2"], "to": story["t1"], "clock": "RECORDED"})
    assert codes(body) == ["BAD_USER_INPUT"], body
    assert "from must come before to" in body["errors"][0]["message"]
