"""Relation knowledge over the network: GraphQL and MCP show what reads each relation,
declare a schema (admin only), answer recallRelated only when every word was understood,
say which words were not, and follow an exact path pattern, paged."""

from __future__ import annotations

from typing import Any

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

FACTS = [
    {"head": "Amara Dunmore", "relation": "reports to", "tail": "Bruno Okafor",
     "headType": "person", "tailType": "person", "confidence": 0.95},
    {"head": "Bruno Okafor", "relation": "lives in", "tail": "Osaka", "headType": "person",
     "tailType": "city", "confidence": 0.95},
    {"head": "Amara Dunmore", "relation": "lives in", "tail": "Bergen", "headType": "person",
     "tailType": "city", "confidence": 0.95},
]
RELATED = """query($q: String, $path: [PathStepInput!], $after: String) {
  recallRelated(space: "u", question: $q, entities: [{name: "Amara Dunmore"}], path: $path,
                after: $after, limit: 1) {
    answers { name } unexplained guessed nextCursor
    paths { keys sources matched unexplained guessed explain }
  }
}"""


def seeded(api: Api, role: str = "admin") -> tuple[str, str]:
    tenant = new_tenant()
    token = api.key(role, tenant)
    writer = token if role in ("admin", "writer") else api.key("admin", tenant)
    api.ok(writer, "mutation($f: [FactInput!]!) { rememberFacts(space: \"u\", facts: $f)"
                   " { action } }", {"f": FACTS})
    return tenant, token


def test_graphql_says_which_words_it_guessed_then_answers_once_declared(api: Api) -> None:
    _, token = seeded(api)
    question = "Where does Amara Dunmore's manager live?"
    guessed = api.ok(token, RELATED, {"q": question})["recallRelated"]
    assert guessed["answers"] == [] and guessed["guessed"] == ["manager"]
    assert guessed["paths"][0]["sources"] == ["type", "label"]
    declared = api.ok(token, """mutation { declareRelations(space: "u", relations: [
        {label: "reports to", tailNouns: ["manager"], inverse: ["manages"]}]) {
        version relations { label tailNouns inverse } } }""")["declareRelations"]
    assert declared == {"version": 1, "relations": [
        {"label": "reports to", "tailNouns": ["manager"], "inverse": ["manages"]}]}
    answered = api.ok(token, RELATED, {"q": question})["recallRelated"]
    assert answered["answers"] == [{"name": "Osaka"}] and answered["guessed"] == []
    assert answered["paths"][0]["matched"] == ["manager", "live"]
    assert answered["paths"][0]["sources"] == ["declared", "label"]
    relations = api.ok(token, '{ relations(space: "u") { type declared headTypes tailTypes'
                              " readings { words kind source } } }")["relations"]
    reports = next(r for r in relations if r["type"] == "REPORTS_TO")
    assert reports["declared"] and reports["tailTypes"] == ["person"]
    assert {"words": "manager", "kind": "TAIL", "source": "DECLARED"} in reports["readings"]
    schema = api.ok(token, '{ relationSchema(space: "u") { version } }')["relationSchema"]
    assert schema == {"version": 1}


def test_graphql_names_the_words_no_relation_explains(api: Api) -> None:
    _, token = seeded(api)
    found = api.ok(token, RELATED, {"q": "Who is the dentist of Amara Dunmore?"})
    assert found["recallRelated"]["answers"] == []
    assert found["recallRelated"]["unexplained"] or found["recallRelated"]["guessed"]


def test_graphql_follows_a_path_pattern_a_page_at_a_time(api: Api) -> None:
    _, token = seeded(api)
    path = [{"relation": "REPORTS_TO", "direction": "OUT"},
            {"relation": "lives in", "direction": "OUT"}]
    found = api.ok(token, RELATED, {"path": path})["recallRelated"]
    assert found["answers"] == [{"name": "Osaka"}] and found["nextCursor"] is None
    both = [{"relation": "LIVES_IN", "direction": "OUT"}]
    first = api.ok(token, """query($after: String) { recallRelated(space: "u",
        entities: [{name: "Amara Dunmore"}, {name: "Bruno Okafor"}],
        path: [{relation: "LIVES_IN"}], after: $after, limit: 1) {
        answers { name } nextCursor } }""")["recallRelated"]
    assert len(first["answers"]) == 1 and first["nextCursor"]
    second = api.ok(token, RELATED.replace('entities: [{name: "Amara Dunmore"}]',
                                           'entities: [{name: "Amara Dunmore"},'
                                           ' {name: "Bruno Okafor"}]'),
                    {"path": both, "after": first["nextCursor"]})["recallRelated"]
    assert len(second["answers"]) == 1 and second["answers"] != first["answers"]
    bad = api.gql(token, RELATED, {"path": [{"relation": "!!", "direction": "OUT"}]})
    assert bad["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "no letters or digits" in bad["errors"][0]["message"]


def test_declaring_relations_is_an_admin_s_and_reading_them_a_reader_s(api: Api) -> None:
    _, reader = seeded(api, "reader")
    denied = api.gql(reader, 'mutation { declareRelations(space: "u", relations:'
                             ' [{label: "reports to"}]) { version } }')
    assert denied["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert api.ok(reader, '{ relations(space: "u") { type } }')["relations"]


def test_mcp_shows_declares_and_follows_relations(api: Api) -> None:
    tenant, token = seeded(api)
    with http(f"{api.base}/mcp", token) as session:
        declared = session.call("declare_relations", {
            "relations": [{"label": "reports to", "tail_nouns": ["manager"]}],
            "user_id": "u"})
        assert text_of(declared) == "Relation schema version 1: 1 relation(s) declared."
        shown = text_of(session.call("relations", {"user_id": "u"}))
        assert "REPORTS_TO (reports to; person → person)" in shown
        assert "declared: tail 'manager'" in shown
        answered = text_of(session.call("recall_related", {
            "question": "Where does Amara Dunmore's manager live?", "user_id": "u"}))
        assert answered.startswith("Answer: Osaka")
        followed: Any = session.call("recall_related", {
            "entities": ["Amara Dunmore"], "path": [{"relation": "REPORTS_TO"},
                                                     {"relation": "LIVES_IN"}],
            "user_id": "u"})
        assert text_of(followed).startswith("Answer: Osaka")
        refused = session.call("recall_related", {
            "entities": ["Amara Dunmore"], "path": [{"relation": "REPORTS_TO",
                                                     "direction": "UP"}], "user_id": "u"})
        assert refused.is_error
