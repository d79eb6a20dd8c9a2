"""What graphmem knows of each relation, from each source, and what recall_related does with
it on facts written as plain triples (head, relation, tail, no subject): the lexicon reads
the label, a declared schema is trusted first, the text the facts were written from
teaches words, a configured model describes each new relation once; a word nothing
explains names no answer; a path pattern follows exact relations, paged. The real
embedding model, WordNet and Neo4j throughout; the model is the suite's scripted server."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import AccessDenied, InvalidInput
from graphmem.model.relations import ReadingKind, ReadingSource
from graphmem.model.roles import ROLES
from graphmem.service.context import Caller

from support.llm_server import LLMServer


def triple(head: str, relation: str, tail: str, head_type: str, tail_type: str,
           **kw: Any) -> dict[str, Any]:
    """A fact as a pipeline writes it: no subject, so its slot is `head relation`."""
    return {"head": head, "relation": relation, "tail": tail, "head_type": head_type,
            "tail_type": tail_type, "confidence": 0.95, **kw}


def staff(name: str, employer: str, city: str, manager: str | None = None
          ) -> list[dict[str, Any]]:
    facts = [triple(name, "works at", employer, "person", "company"),
             triple(name, "lives in", city, "person", "city")]
    if manager:
        facts.append(triple(name, "reports to", manager, "person", "person"))
    return facts


def firm(name: str, city: str) -> list[dict[str, Any]]:
    return [triple(name, "headquartered in", city, "company", "city")]


@pytest.fixture
def plain(make_mem: Callable[..., GraphMem]) -> GraphMem:
    """Amara works at Globex (Montreal) and reports to Bruno, who lives in Osaka and works at
    Initech (Lisbon); three people report to Amara."""
    mem = make_mem()
    facts = [*firm("Globex", "Montreal"), *firm("Initech", "Lisbon"),
             *staff("Amara Dunmore", "Globex", "Bergen", manager="Bruno Okafor"),
             *staff("Bruno Okafor", "Initech", "Osaka")]
    for i in range(3):
        facts += staff(f"Report {i}", "Globex", "Bergen", manager="Amara Dunmore")
    mem.remember_facts(facts)
    return mem


def names(mem: GraphMem, keys: tuple[str, ...]) -> list[str]:
    return [k.split(":", 1)[1] for k in keys]


def chain(result: Any) -> list[str]:
    return [result.entities[k].name for k in result.paths[0].keys]


MANAGER = "Where does Amara Dunmore's manager live?"


def test_a_word_matched_by_type_alone_ranks_the_path_but_names_no_answer(
        plain: GraphMem) -> None:
    """Nothing links `manager` with `reports to` in the lexicon; REPORTS_TO is the one
    relation from a person to a person, so the path comes first, but it is a guess."""
    result = plain.recall_related(MANAGER)
    assert chain(result) == ["Amara Dunmore", "Bruno Okafor", "Osaka"]
    assert result.answers == () and result.guessed == ("manager",)
    assert "No answer" in str(result) and "relation schema" in str(result)
    assert result.paths[0].sources == ("type", "label")


def test_a_declared_relation_answers_in_the_words_people_use(plain: GraphMem) -> None:
    schema = plain.entities.declare_relations([
        {"label": "reports to", "description": "the person someone reports to",
         "inverse": ["manages"], "tail_nouns": ["manager", "boss"],
         "head_nouns": ["direct report"]}])
    assert schema.version == 1 and [d.label for d in schema.relations] == ["reports to"]
    result = plain.recall_related(MANAGER)
    assert names(plain, result.answers) == ["osaka"]
    assert result.paths[0].sources[0] == "declared"
    managed = plain.recall_related("Whom does Amara Dunmore manage?")
    assert sorted(names(plain, managed.answers)) == ["report 0", "report 1", "report 2"]


def test_the_schema_is_versioned_and_replace_keeps_only_what_is_given(plain: GraphMem
                                                                      ) -> None:
    plain.entities.declare_relations([{"label": "reports to", "tail_nouns": ["manager"]}])
    second = plain.entities.declare_relations([{"label": "works_at",
                                                "tail_nouns": ["employer"]}])
    assert second.version == 2 and len(second.relations) == 2
    third = plain.entities.declare_relations([{"label": "WORKS_AT",
                                               "inverse": ["employs"]}], replace=True)
    assert third.version == 3 and [d.inverse for d in third.relations] == [("employs",)]
    assert plain.entities.relation_schema() == third
    infos = {r.type: r for r in plain.entities.relations()}
    assert infos["WORKS_AT"].declared and not infos["REPORTS_TO"].declared


@pytest.mark.parametrize(("relations", "reason"), [
    ([{"tail_nouns": ["manager"]}], "needs a label"),
    ([{"label": "!!!"}], "no letters or digits"),
    ([{"label": "reports to", "colour": "red"}], "unknown field"),
    ([{"label": "reports to", "cardinality": "several"}], "cardinality"),
    ([{"label": "reports to", "tail_nouns": "manager"}], "list of words"),
    ([{"label": "reports to", "tail_nouns": ["w"] * 21}], "at most 20"),
    ([{"label": "reports to", "description": "x" * 501}], "longer than 500"),
    (["reports to"], "must be an object"),
])
def test_a_malformed_declaration_is_refused_with_the_reason(
        plain: GraphMem, relations: list[Any], reason: str) -> None:
    with pytest.raises(InvalidInput, match=reason):
        plain.entities.declare_relations(relations)
    assert plain.entities.relation_schema().version == 0


def test_hostile_words_are_only_words(plain: GraphMem) -> None:
    """Cypher, Lucene syntax and control characters in a declaration stay data."""
    hostile = "MATCH (n) DETACH DELETE n // \u202e OR 1=1"
    plain.entities.declare_relations([{"label": "reports to", "tail_nouns": [hostile],
                                       "description": hostile}])
    assert plain.recall_related(MANAGER).paths
    assert plain.records.stats().active > 0


def test_declaring_relations_needs_the_admin_capability(plain: GraphMem) -> None:
    writer = GraphMem(plain.space.key, runtime=plain.runtime,
                      caller=Caller("writer", ROLES["writer"]))
    with pytest.raises(AccessDenied, match="admin"):
        writer.entities.declare_relations([{"label": "reports to"}])
    assert [r.type for r in writer.entities.relations()]  # reading them needs read only


def test_the_lexicon_reads_the_label_and_says_so(plain: GraphMem) -> None:
    infos = {r.type: r for r in plain.entities.relations()}
    works = infos["WORKS_AT"]
    assert works.head_types == ("person",) and works.tail_types == ("company",)
    readings = {(r.words, r.kind, r.source) for r in works.readings}
    assert ("works at", ReadingKind.FORWARD, ReadingSource.LABEL) in readings
    assert ("employer", ReadingKind.TAIL, ReadingSource.LEXICON) in readings  # work: "be employed"
    assert ("employee", ReadingKind.HEAD, ReadingSource.LEXICON) in readings
    employer = plain.recall_related("Where is Amara Dunmore's employer headquartered?")
    assert names(plain, employer.answers) == ["montreal"]
    assert employer.paths[0].sources == ("lexicon", "label")


def test_words_are_learned_from_the_text_the_facts_came_from(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    mem.remember_facts([
        triple("Amara Dunmore", "reports to", "Bruno Okafor", "person", "person",
               raw="Amara Dunmore's supervisor is Bruno Okafor."),
        triple("Chen Lindqvist", "reports to", "Bruno Okafor", "person", "person",
               raw="Chen Lindqvist's supervisor is Bruno Okafor."),
        *staff("Bruno Okafor", "Initech", "Osaka")])
    info = {r.type: r for r in mem.entities.relations()}["REPORTS_TO"]
    assert ("supervisor", ReadingKind.TAIL, ReadingSource.TEXT) in {
        (r.words, r.kind, r.source) for r in info.readings}
    result = mem.recall_related("Where does Amara Dunmore's supervisor live?")
    assert names(mem, result.answers) == ["osaka"] and result.paths[0].sources[0] == "text"


@pytest.mark.parametrize("question", [
    "Who is Amara Dunmore's dentist?",
    "What is the salary of Amara Dunmore's manager?",
    "When was Globex founded?",
])
def test_a_relation_the_graph_lacks_names_no_answer_and_says_which_words(
        plain: GraphMem, question: str) -> None:
    plain.entities.declare_relations([{"label": "reports to", "tail_nouns": ["manager"]}])
    result = plain.recall_related(question)
    assert result.answers == ()
    assert result.unexplained or result.guessed or result.mismatch
    assert str(result).splitlines()[0].startswith("No answer")


def test_a_model_describes_each_new_relation_once_and_never_per_question(
        llm: LLMServer, make_llm_mem: Callable[..., GraphMem]) -> None:
    mem = make_llm_mem()
    mem.remember_facts([*staff("Amara Dunmore", "Globex", "Bergen", manager="Bruno Okafor"),
                        *staff("Bruno Okafor", "Initech", "Osaka")])
    llm.script("describe", "reports to", json.dumps({
        "description": "the person someone reports to", "forward": ["reports to"],
        "inverse": ["manages"], "tail_nouns": ["manager", "boss"], "head_nouns": []}))
    first = mem.recall_related(MANAGER, answer=False)
    assert llm.count("describe") == 3  # works at, lives in, reports to: one call each
    assert "Relation label: reports to" in [r.user.split("\n")[0] for r in llm.requests
                                            if r.kind == "describe"]
    assert names(mem, first.answers) == ["osaka"] and first.paths[0].sources[0] == "model"
    mem.recall_related(MANAGER, answer=False)
    mem.recall_related("Where does Amara Dunmore work?", answer=False)
    assert llm.count("describe") == 3  # stored: no call per question
    mem.remember_facts(firm("Initech", "Lisbon"))
    mem.runtime.relation_knowledge.forget(mem.space.key)
    mem.recall_related(MANAGER, answer=False)
    assert llm.count("describe") == 4  # one new relation type, one call
    info = {r.type: r for r in mem.entities.relations()}["REPORTS_TO"]
    assert info.described_by == "test-model"
    audited = [row.operation for row in mem.records.audit_log(limit=50)]
    assert "recall_related" in audited


def test_a_model_answer_that_is_not_a_description_is_kept_as_tried(
        llm: LLMServer, make_llm_mem: Callable[..., GraphMem]) -> None:
    mem = make_llm_mem()
    mem.remember_facts(staff("Amara Dunmore", "Globex", "Bergen"))
    llm.script("describe", "works at", "not JSON at all")
    llm.script("describe", "lives in", "[1, 2]")
    assert mem.recall_related("Where does Amara Dunmore live?", answer=False).paths
    assert len(mem.entities.describe_relations()) == 0  # both tried: not asked again
    assert len(mem.entities.describe_relations(force=True)) == 2


def test_a_schema_and_the_descriptions_survive_an_export_and_an_import(
        plain: GraphMem, make_mem: Callable[..., GraphMem], tmp_path: Path) -> None:
    plain.entities.declare_relations([{"label": "reports to", "tail_nouns": ["manager"],
                                       "inverse": ["manages"]}])
    out = tmp_path / "space.jsonl"
    plain.transfer.export(out)
    copy = make_mem()
    copy.transfer.import_memory(out)
    assert copy.entities.relation_schema().relations == plain.entities.relation_schema(
        ).relations
    assert names(copy, copy.recall_related(MANAGER).answers) == ["osaka"]


def test_a_path_pattern_follows_exact_relations_both_ways_and_pages(plain: GraphMem) -> None:
    result = plain.recall_related(entities=["Amara Dunmore"],
                                  path=[("REPORTS_TO", "OUT"), ("LIVES_IN", "OUT")])
    assert [[result.entities[k].name for k in p.keys] for p in result.paths] == [
        ["Amara Dunmore", "Bruno Okafor", "Osaka"]]
    assert names(plain, result.answers) == ["osaka"] and result.next_cursor is None
    reports = plain.recall_related(entities=[("person", "Amara Dunmore")],
                                   path=[("reports to", "IN")], limit=2)
    assert len(reports.paths) == 2 and reports.next_cursor
    rest = plain.recall_related(entities=[("person", "Amara Dunmore")],
                                path=[("reports to", "IN")], limit=2,
                                after=reports.next_cursor)
    seen = {p.keys[-1] for p in (*reports.paths, *rest.paths)}
    assert len(rest.paths) == 1 and rest.next_cursor is None and len(seen) == 3


def test_a_path_pattern_reads_as_of_an_instant(plain: GraphMem) -> None:
    before = datetime.now(UTC)
    plain.remember_facts([triple("Bruno Okafor", "lives in", "Nairobi", "person", "city")])
    now = plain.recall_related(entities=["Amara Dunmore"],
                               path=[("REPORTS_TO", "OUT"), ("LIVES_IN", "OUT")])
    then = plain.recall_related(entities=["Amara Dunmore"],
                                path=[("REPORTS_TO", "OUT"), ("LIVES_IN", "OUT")],
                                as_of=before)
    assert names(plain, now.answers) == ["nairobi"] and names(plain, then.answers) == ["osaka"]


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"path": [("REPORTS_TO", "UP")]}, "OUT or IN"),
    ({"path": [("???", "OUT")]}, "no letters or digits"),
    ({"path": [("REPORTS_TO", "OUT")], "after": "bm90IGEgY3Vyc29y"}, "not a path cursor"),
    ({"after": "cGF0aDoy"}, "pages a path pattern"),
])
def test_a_bad_path_pattern_is_refused_with_the_reason(plain: GraphMem, kwargs: dict[str, Any],
                                                       reason: str) -> None:
    with pytest.raises(InvalidInput, match=reason):
        plain.recall_related(entities=["Amara Dunmore"], **kwargs)
