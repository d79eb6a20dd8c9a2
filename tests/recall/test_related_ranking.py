"""recall_related(question) ranks paths by the question: the right path comes first, its end
is the answer, for 2- and 3-hop questions, in phrasings the ranking code never names, as of
an earlier instant too, and past hubs. The real embedding model compares the question's
words with the relations; the graph is written through remember_facts."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.recall.related import Related

from support.query_cache import without_clearing

ROOT = Path(__file__).resolve().parents[2]
RANKING_CODE = [ROOT / "graphmem" / "recall" / f"{name}.py"
                for name in ("question", "path_rank", "path_search", "related")]


def fact(head: str, head_type: str, relation: str, tail: str, tail_type: str,
         role: str, **kw: Any) -> dict[str, Any]:
    """A relation fact whose subject names the role it gives the tail, as an agent names it."""
    subject = re.sub(r"\W+", "_", f"{head} {role}".casefold())
    return {"subject": subject, "head": head, "head_type": head_type, "relation": relation,
            "tail": tail, "tail_type": tail_type, "confidence": 0.95, **kw}


def person(name: str, employer: str, city: str, manager: str | None = None,
           **kw: Any) -> list[dict[str, Any]]:
    facts = [fact(name, "person", "works at", employer, "organisation", "employer", **kw),
             fact(name, "person", "lives in", city, "location", "home city")]
    if manager:
        facts.append(fact(name, "person", "reports to", manager, "person", "manager"))
    return facts


def company(name: str, city: str, *products: str, **kw: Any) -> list[dict[str, Any]]:
    return [fact(name, "organisation", "headquartered in", city, "location", "headquarters",
                 **kw),
            *(fact(name, "organisation", "makes", p, "product", "product",
                   cardinality="many", **kw) for p in products)]


@pytest.fixture
def firms(make_mem: Callable[..., GraphMem]) -> GraphMem:
    """Amara works at Globex (Montreal; widgets, sensors) and lives in Bergen; her manager
    Bruno works at Initech (Lisbon; turbines) and lives in Osaka; Bruno reports to Chen.
    Bergen and Globex are small hubs: twenty more people live there or work there."""
    mem = make_mem()
    facts = [*company("Globex", "Montreal", "widgets", "sensors"),
             *company("Initech", "Lisbon", "turbines"),
             *person("Amara Dunmore", "Globex", "Bergen", manager="Bruno Okafor"),
             *person("Bruno Okafor", "Initech", "Osaka", manager="Chen Lindqvist"),
             *person("Chen Lindqvist", "Initech", "Lisbon")]
    for i in range(20):
        facts += person(f"Neighbour {i}", "Globex" if i % 2 else "Initech", "Bergen",
                        manager="Amara Dunmore" if i < 3 else None)
    mem.remember_facts(facts)
    return mem


def key(kind: str, name: str) -> str:
    return f"{kind}:{name.casefold()}"


def chain(result: Related) -> list[str]:
    return [result.entities[k].name for k in result.paths[0].keys]


RIGHT = {  # question -> (the right path's entities, the answer entities)
    "Where is Amara Dunmore's employer headquartered?":
        (["Amara Dunmore", "Globex", "Montreal"], [key("location", "Montreal")]),
    "What does the company Amara Dunmore works for make?":
        (["Amara Dunmore", "Globex", "sensors"],
         [key("product", "sensors"), key("product", "widgets")]),
    "Where does Amara Dunmore's manager live?":
        (["Amara Dunmore", "Bruno Okafor", "Osaka"], [key("location", "Osaka")]),
    "In which city is the employer of Amara Dunmore's manager headquartered?":
        (["Amara Dunmore", "Bruno Okafor", "Initech", "Lisbon"], [key("location", "Lisbon")]),
    "Who is the boss of Amara Dunmore's manager?":
        (["Amara Dunmore", "Bruno Okafor", "Chen Lindqvist"],
         [key("person", "Chen Lindqvist")]),
}
HELD_OUT = {  # phrasings whose relation words are held out of the ranking's tuning
    "Where is the firm that employs Amara Dunmore located?":
        (["Amara Dunmore", "Globex", "Montreal"], [key("location", "Montreal")]),
    "In which city does the supervisor of Amara Dunmore reside?":
        (["Amara Dunmore", "Bruno Okafor", "Osaka"], [key("location", "Osaka")]),
    "What does the organisation Amara Dunmore's supervisor works at manufacture?":
        (["Amara Dunmore", "Bruno Okafor", "Initech", "turbines"],
         [key("product", "turbines")]),
}


@pytest.mark.parametrize("question", [*RIGHT, *HELD_OUT])
def test_the_right_path_comes_first_and_its_end_is_the_answer(firms: GraphMem,
                                                              question: str) -> None:
    path, answers = {**RIGHT, **HELD_OUT}[question]
    result = firms.recall_related(question)
    assert result.ranked and result.matched_by == "name"
    if len(answers) > 1:  # the products: one path each, tied, any of them first
        assert chain(result)[:-1] == path[:-1]
    else:
        assert chain(result) == path, "\n".join(result.explain(p) for p in result.paths[:3])
    assert sorted(result.answers) == answers
    assert all(m for m in result.paths[0].matched), result.explain(result.paths[0])


def test_the_question_sets_the_direction(firms: GraphMem) -> None:
    reports = firms.recall_related("Who reports to Amara Dunmore?")
    assert sorted(reports.answers) == [key("person", f"Neighbour {i}") for i in range(3)]
    manager = firms.recall_related("Who does Amara Dunmore report to?")
    assert manager.answers == (key("person", "Bruno Okafor"),)


def test_a_path_between_two_named_entities_answers_how_they_are_related(
        firms: GraphMem) -> None:
    result = firms.recall_related("How is Amara Dunmore related to Lisbon?")
    assert chain(result) in (["Amara Dunmore", "Bruno Okafor", "Initech", "Lisbon"],
                             ["Amara Dunmore", "Bruno Okafor", "Chen Lindqvist", "Lisbon"])
    assert result.answers == (key("location", "Lisbon"),)


def test_an_explicit_hops_bounds_the_search(firms: GraphMem) -> None:
    result = firms.recall_related(
        "In which city is the employer of Amara Dunmore's manager headquartered?", hops=2)
    assert result.hops == 2 and max(len(p.edges) for p in result.paths) == 2
    assert firms.recall_related("Where does Amara Dunmore live?").hops == 4  # the default


def test_explain_names_the_words_each_edge_answered(firms: GraphMem) -> None:
    result = firms.recall_related("Where is Amara Dunmore's employer headquartered?")
    explained = result.explain(result.paths[0])
    assert re.fullmatch(r"-?\d+\.\d\d: WORKS_AT ← \"employer\" \(text\), HEADQUARTERED_IN ←"
                        r" \"headquartered\" \(label: headquartered in\)", explained), explained


def test_as_of_and_valid_at_rank_the_paths_that_were_true_then(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    since = "2020-01-01T00:00:00Z"
    mem.remember_facts([*company("Globex", "Montreal", valid_from=since),
                        *company("Initech", "Lisbon", valid_from=since),
                        *person("Amara Dunmore", "Globex", "Bergen",
                                valid_from="2024-01-01T00:00:00Z")])
    before = datetime.now(UTC)
    mem.remember_facts(person("Amara Dunmore", "Initech", "Bergen",
                              valid_from="2025-06-01T00:00:00Z"))
    question = "Where is Amara Dunmore's employer headquartered?"
    assert mem.recall_related(question).answers == (key("location", "Lisbon"),)
    assert mem.recall_related(question, as_of=before).answers == (key("location", "Montreal"),)
    in_world = {at: mem.recall_related(question, valid_at=datetime.fromisoformat(at)).answers
                for at in ("2025-01-01T00:00:00+00:00", "2025-07-01T00:00:00+00:00")}
    assert in_world == {"2025-01-01T00:00:00+00:00": (key("location", "Montreal"),),
                        "2025-07-01T00:00:00+00:00": (key("location", "Lisbon"),)}


def test_a_hub_is_read_a_few_edges_at_a_time(make_mem: Callable[..., GraphMem]) -> None:
    """Three hundred people live in Bergen, where Globex has its headquarters: a question
    through the city ranks right without reading its residents, and one that asks for
    them reads a few and says it was cut."""
    mem = make_mem()
    facts = [*company("Globex", "Bergen", "widgets"), *company("Initech", "Lisbon")]
    facts += person("Amara Dunmore", "Initech", "Bergen")
    for i in range(300):
        facts += person(f"Resident {i}", "Initech", "Bergen")
    mem.remember_facts(facts)
    result = mem.recall_related(
        "Which companies are headquartered in the city where Amara Dunmore lives?")
    assert chain(result) == ["Amara Dunmore", "Bergen", "Globex"]
    assert result.answers == (key("organisation", "Globex"),)
    residents = mem.recall_related("Who lives in the city where Globex is headquartered?")
    assert chain(residents)[:2] == ["Globex", "Bergen"]
    assert residents.answers and all(a.startswith("person:") for a in residents.answers)
    assert residents.truncated and len(residents.answers) < 300


def test_the_same_question_again_calls_no_model(firms: GraphMem,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The question's words, the relations and the types are embedded once, in one batch
    per hop at most, then served from the cache."""
    embedder = firms.runtime.embedder
    question = "Where does Amara Dunmore's manager live?"
    before = embedder.calls
    firms.recall_related(question)
    assert embedder.calls - before <= 4

    def again() -> bool:
        calls = embedder.calls
        firms.recall_related(question)
        return embedder.calls == calls

    assert without_clearing(embedder, monkeypatch, again), "the question called the model"


def test_without_the_embedding_model_the_paths_come_unranked_and_say_why(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(settings={"embedding_base_url": "http://127.0.0.1:9/v1",
                                   "embed_background": False})
    mem.remember_facts([*company("Globex", "Montreal"),
                        *person("Amara Dunmore", "Globex", "Bergen")])
    result = mem.recall_related("Where is Amara Dunmore's employer headquartered?")
    assert not result.ranked and result.answers == ()
    assert ["Amara Dunmore", "Globex", "Montreal"] in [
        [result.entities[k].name for k in p.keys] for p in result.paths]
    assert result.notes and "not ranked" in result.notes[0]
