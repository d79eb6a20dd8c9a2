"""Everything the Python API reads, as GraphQL fields, through the real server: facts of
any status with every filter, spaces with counts, entity search by name and by the spellings
facts used, entity history, the vocabulary, fsck, collisions, typed receipts and decisions,
timelines with refinements paged both ways, and writes at parity with the Python API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.graph.fsck import SCHEMA

from support.api_support import Api, codes, new_tenant
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!, $source: String! = \"\") {"
            " rememberFacts(space: $s, facts: $f, source: $source) { action subject value"
            " factId conflictId message collisions { factId subject shared jaccard }"
            " fact { subject value sourceRef metadata cardinality head relation tail } } }")
FACTS = ("query($s: String!, $subject: String, $scope: String, $statuses: [Status!],"
         " $source: String, $category: String, $kind: Kind, $text: String) { facts(space: $s,"
         " subject: $subject, scope: $scope, statuses: $statuses, source: $source, category:"
         " $category, kind: $kind, text: $text) { totalCount nodes { value status } } }")


def remember(api: Api, token: str, space: str, facts: list[dict[str, Any]],
             source: str = "") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = api.ok(token, REMEMBER, {"s": space, "f": facts,
                                                           "source": source})["rememberFacts"]
    return found


def values(api: Api, token: str, **filters: Any) -> list[str]:
    found = api.ok(token, FACTS, {"s": "u", **filters})["facts"]
    assert found["totalCount"] == len(found["nodes"])
    return sorted(n["value"] for n in found["nodes"])


def test_facts_of_any_status_with_every_filter(api: Api) -> None:
    token = api.key("writer", new_tenant())
    remember(api, token, "u", [
        {"subject": "state", "value": "Redux", "confidence": 0.9, "category": "frontend"},
        {"subject": "state", "value": "MobX", "scope": "mobile", "confidence": 0.9},
        {"subject": "billing", "value": "monthly", "timeRef": "PAST"},
        {"subject": "race", "value": "Charity 10k", "kind": "EVENT"},
    ], source="crm")
    remember(api, token, "u", [{"subject": "state", "value": "Zustand", "action": "SUPERSEDE",
                                "confidence": 0.9}], source="bot")
    assert values(api, token) == ["Charity 10k", "MobX", "Zustand"]
    assert values(api, token, statuses=["SUPERSEDED"]) == ["Redux"]
    assert values(api, token, statuses=["HISTORICAL"]) == ["monthly"]
    assert values(api, token, statuses=["ACTIVE", "SUPERSEDED"], subject="state") == [
        "MobX", "Redux", "Zustand"]
    assert values(api, token, scope="mobile") == ["MobX"]
    # a key bound to no source records the source it names as a claim, and is found by it
    assert values(api, token, source="claimed:bot") == ["Zustand"]
    assert values(api, token, source="bot") == []
    assert values(api, token, statuses=["SUPERSEDED"], category="frontend") == ["Redux"]
    assert values(api, token, kind="EVENT") == ["Charity 10k"]
    assert values(api, token, text="ZUST") == ["Zustand"]
    assert values(api, token, text="state") == ["MobX", "Zustand"]  # the subject matches too


def test_the_tenants_spaces_with_their_counts(api: Api) -> None:
    tenant = new_tenant()
    writer = api.key("writer", tenant)
    remember(api, writer, "alice", [{"subject": "a", "value": "1"}, {"subject": "b", "value": "2"}])
    remember(api, writer, "bob/bot", [{"subject": "a", "value": "1"}])
    reader = api.key("reader", tenant)
    spaces = api.ok(reader, "query { spaces { totalCount nodes { key user agent stats"
                            " { active } } } }")["spaces"]
    assert spaces["totalCount"] == 2
    assert [(n["user"], n["agent"], n["stats"]["active"]) for n in spaces["nodes"]] == [
        ("alice", "default", 2), ("bob", "bot", 1)]
    body = api.gql(api.key("reader", tenant, ("alice",)), "query { spaces { totalCount } }")
    assert codes(body) == ["FORBIDDEN"]  # the list spans the tenant


def test_entities_are_found_by_name_and_by_the_spellings_facts_used(api: Api) -> None:
    token = api.key("writer", new_tenant())
    api.ok(token, 'mutation { createEntity(space: "u", type: "person", name: "Ada Lovelace")'
                  " { id key } }")
    remember(api, token, "u", [
        {"head": "ADA  LOVELACE", "headType": "person", "relation": "wrote", "tail": "Notes",
         "tailType": "project"},
        {"head": "Charles Babbage", "headType": "person", "relation": "knew",
         "tail": "ada lovelace", "tailType": "person"}])
    query = ("query($q: String!, $type: String) { searchEntities(space: \"u\", query: $q,"
             " type: $type) { totalCount nodes { key name aliases } } }")
    found = api.ok(token, query, {"q": "LOVELACE"})["searchEntities"]
    assert found["nodes"] == [{"key": "person:ada lovelace", "name": "Ada Lovelace",
                               "aliases": ["ADA  LOVELACE", "ada lovelace"]}]
    assert api.ok(token, query, {"q": "lace", "type": "project"})["searchEntities"][
        "totalCount"] == 0
    assert api.ok(token, query, {"q": "e"})["searchEntities"]["totalCount"] == 3
    vocabulary = api.ok(token, 'query { vocabulary(space: "u") { entities { name }'
                               " relations } }")["vocabulary"]
    assert vocabulary["entities"][0]["name"] == "Ada Lovelace"  # seeded first
    assert sorted(vocabulary["relations"]) == ["knew", "wrote"]


TIMELINE = ("query($first: Int, $after: String, $last: Int, $before: String) {"
            " history(space: \"u\", subject: \"plan\", first: $first, after: $after,"
            " last: $last, before: $before) { totalCount pageInfo { hasNextPage"
            " hasPreviousPage startCursor endCursor } nodes { value status } } }")


def test_a_timeline_pages_through_refinements_both_ways(api: Api) -> None:
    token = api.key("writer", new_tenant())
    for value, action in (("Free", "ADD"), ("Free (annual)", "REFINE"), ("Pro", "SUPERSEDE"),
                          ("Team", "SUPERSEDE")):
        remember(api, token, "u", [{"subject": "plan", "value": value, "action": action,
                                    "confidence": 0.9}])
    whole = api.ok(token, TIMELINE, {"first": 50})["history"]
    assert [(n["value"], n["status"]) for n in whole["nodes"]] == [
        ("Free", "REFINED"), ("Free (annual)", "SUPERSEDED"), ("Pro", "SUPERSEDED"),
        ("Team", "ACTIVE")]
    assert whole["totalCount"] == 4
    forwards, cursor = [], None
    while True:
        page = api.ok(token, TIMELINE, {"first": 1, "after": cursor})["history"]
        forwards += [n["value"] for n in page["nodes"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        cursor = page["pageInfo"]["endCursor"]
    backwards, cursor = [], None
    while True:
        page = api.ok(token, TIMELINE, {"last": 3, "before": cursor})["history"]
        backwards = [n["value"] for n in page["nodes"]] + backwards
        if not page["pageInfo"]["hasPreviousPage"]:
            break
        cursor = page["pageInfo"]["startCursor"]
    expected = [n["value"] for n in whole["nodes"]]
    assert forwards == expected and backwards == expected


def test_fsck_runs_for_admins_only(api: Api) -> None:
    tenant = new_tenant()
    admin = api.key("admin", tenant)
    remember(api, admin, "u", [{"subject": "db", "value": "Postgres"}])
    api.server.config.app.state.runtime.mirror.drain()
    report = api.ok(admin, 'query { fsck(space: "u") { space ok checks { name ok fails } } }')
    assert report["fsck"]["space"] == f"{tenant}/u/default/default"
    assert {c["name"]: c["ok"] for c in report["fsck"]["checks"] if c["fails"]} == {
        SCHEMA: True, "one active value per single-valued slot": True,
        "every SUPERSEDED fact is superseded or retracted by another, or undone": True,
        "projection edges match their facts": True,
        "every stored vector belongs to a fact of its space": True,
        "mirror agrees with the graph": True}
    body = api.gql(api.key("approver", tenant), 'query { fsck(space: "u") { ok } }')
    assert codes(body) == ["FORBIDDEN"]


def test_remember_results_carry_collisions_and_facts_supersededBy(api: Api) -> None:
    token = api.key("writer", new_tenant())
    remember(api, token, "u", [{"head": "Ann", "headType": "person", "relation": "works at",
                                "tail": "Acme", "tailType": "organisation"}])
    second = remember(api, token, "u", [{"head": "Ann", "headType": "person",
                                         "relation": "manages", "tail": "Acme",
                                         "tailType": "organisation"}])[0]
    assert [(c["subject"], sorted(c["shared"]), c["jaccard"]) for c in second["collisions"]] == [
        ("ann_works_at", ["organisation:acme", "person:ann"], 1.0)]
    retracted = remember(api, token, "u", [{"head": "Ann", "relation": "manages",
                                            "tail": "Acme", "action": "RETRACT",
                                            "confidence": 0.9}])[0]
    assert retracted["action"] == "RETRACT"
    chain = api.ok(token, 'query { facts(space: "u", subject: "ann_manages", statuses:'
                          " [SUPERSEDED]) { nodes { value supersededBy { factId value"
                          " status } } } }")["facts"]["nodes"]
    assert chain == [{"value": "Acme", "supersededBy": {
        "factId": retracted["factId"], "value": "(retracted: Acme)", "status": "HISTORICAL"}}]


def test_receipts_and_decisions_are_typed(api: Api) -> None:
    tenant = new_tenant()
    steward = api.key("steward", tenant)
    stored = remember(api, steward, "u", [{"subject": "plan", "value": "Pro"}])
    decision = api.ok(steward, 'mutation { recordDecision(space: "u", action: "bill",'
                               ' subjects: ["plan"]) { decisionId action caller subjects'
                               " facts { factId value status } receipt { __typename"
                               " receiptId kind space digest factIds document } } }")[
        "recordDecision"]
    assert decision["facts"] == [{"factId": stored[0]["factId"], "value": "Pro",
                                  "status": "ACTIVE"}]
    receipt = decision["receipt"]
    assert (receipt["__typename"], receipt["kind"], receipt["factIds"]) == (
        "DecisionReceipt", "decision", [stored[0]["factId"]])
    auditor = api.key("auditor", tenant)
    verdict = api.ok(auditor, "query($r: JSON!) { verifyReceipt(receipt: $r) { ok } }",
                     {"r": receipt["document"]})
    assert verdict["verifyReceipt"]["ok"]
    found = api.ok(api.key("reader", tenant), "query($id: ID!) { receipt(id: $id) {"
                   " __typename receiptId ... on DecisionReceipt { action } } }",
                   {"id": receipt["receiptId"]})["receipt"]
    assert found == {"__typename": "DecisionReceipt", "receiptId": receipt["receiptId"],
                     "action": "bill"}
    erased = api.ok(steward, 'mutation { delete(space: "u", subject: "plan") { __typename'
                             " scope factCount factIds mirror } }")["delete"]
    assert erased == {"__typename": "ErasureReceipt", "scope": "subject", "factCount": 1,
                      "factIds": [stored[0]["factId"]], "mirror": "erased"}
    attested = api.ok(steward, 'mutation { attest(space: "u") { __typename auditHead'
                               " factIds } }")["attest"]
    assert attested["__typename"] == "AttestationReceipt" and attested["factIds"] == []
    assert len(attested["auditHead"]) == 64, "the chain's head hash, not the row count"


def test_fact_input_at_parity_with_the_python_api(api: Api) -> None:
    token = api.key("writer", new_tenant())
    found = remember(api, token, "u", [
        {"head": "Billing", "headType": "service", "relation": "calls", "tail": "Auth",
         "tailType": "service", "cardinality": "MANY", "sourceRef": "https://git/pr/1",
         "metadata": {"ticket": "OPS-1"}},
        {"head": "Billing", "headType": "service", "relation": "calls", "tail": "Ledger",
         "tailType": "service", "cardinality": "MANY"}],
        source="ci")
    assert [(r["action"], r["subject"], r["value"]) for r in found] == [
        ("ADD", "billing_calls", "Auth"), ("ADD", "billing_calls", "Ledger")]
    fact = found[0]["fact"]
    assert (fact["sourceRef"], fact["cardinality"], fact["head"], fact["tail"]) == (
        "https://git/pr/1", "MANY", "Billing", "Auth")
    assert fact["metadata"]["ticket"] == "OPS-1"
    edges = api.ok(token, 'query { recallRelated(space: "u", entities: [{name: "billing"}],'
                          " hops: 1) { start { key } entities { name } } }")["recallRelated"]
    assert edges["start"] == [{"key": "service:billing"}]
    assert {e["name"] for e in edges["entities"]} == {"Billing", "Auth", "Ledger"}


def test_pending_changes_as_they_were_and_are(serve_api: Callable[..., Api]) -> None:
    api = serve_api(slot_schema="preset:clinical")
    approver = api.key("approver", new_tenant())
    remember(api, approver, "u", [{"subject": "active_medication", "value": "Warfarin 5mg",
                                   "confidence": 0.95}])
    proposal = remember(api, approver, "u", [{"subject": "active_medication",
                                              "value": "Warfarin 7mg", "action": "SUPERSEDE",
                                              "confidence": 0.95}])[0]
    query = ("query($asOf: DateTime) { pendingChanges(space: \"u\", asOf: $asOf)"
             " { totalCount nodes { factId value } } }")
    waiting = api.ok(approver, query)["pendingChanges"]
    assert waiting["nodes"] == [{"factId": proposal["factId"], "value": "Warfarin 7mg"}]
    history = api.ok(approver, 'query { history(space: "u", subject: "active_medication")'
                               " { nodes { fact { recordedAt } } } }")["history"]["nodes"]
    proposed_at = history[-1]["fact"]["recordedAt"]
    api.ok(approver, "mutation($f: ID!) { confirmChange(space: \"u\", factId: $f)"
                     " { message } }", {"f": proposal["factId"]})
    assert api.ok(approver, query)["pendingChanges"]["totalCount"] == 0
    assert api.ok(approver, query, {"asOf": proposed_at})["pendingChanges"]["totalCount"] == 1
    assert api.ok(approver, query, {"asOf": history[0]["fact"]["recordedAt"]})[
        "pendingChanges"]["totalCount"] == 0


def test_remember_text_keeps_its_source_ref(serve_api: Callable[..., Api],
                                            llm_server: LLMServer) -> None:
    llm_server.reset()
    api = serve_api(**llm_overrides(llm_server))
    token = api.key("writer", new_tenant())
    llm_server.extraction("We moved to Zustand", {"subject": "state", "value": "Zustand",
                                                  "action": "ADD", "confidence": 0.9})
    found = api.ok(token, 'mutation { remember(space: "u", text: "We moved to Zustand",'
                          ' sourceRef: "slack://C1/p42") { action fact { sourceRef raw } } }')
    assert found["remember"] == [{"action": "ADD", "fact": {
        "sourceRef": "slack://C1/p42", "raw": "We moved to Zustand"}}]
