"""Reading a multi-hop question: its relation phrases in the order the question applies them
from the entity it names outwards, the side of the name each stands on, and the kind of
answer it asks for. Pure: no model, no database."""

from __future__ import annotations

import pytest

from graphmem.recall.question import Question, normalise, read


def phrases(question: Question) -> list[str]:
    return [p.text for p in question.phrases]


@pytest.mark.parametrize(("text", "order", "kind"), [
    ("Where is Amara Dunmore's employer headquartered?", ["employer", "headquartered"], "place"),
    ("In which city is the employer of Amara Dunmore's manager headquartered?",
     ["manager", "employer", "headquartered"], "city"),
    ("What is the home city of Amara Dunmore's boss's manager?",
     ["boss", "manager", "home city"], None),
    ("Where is the company Amara Dunmore works for headquartered?",
     ["works", "company", "headquartered"], "place"),
    ("What does the employer of Amara Dunmore make?", ["employer", "make"], None),
    ("Who lives in the city where Amara Dunmore is based?", ["based", "city", "lives"],
     "person"),
    ("Which companies does Amara Dunmore own?", ["own"], "companies"),
])
def test_a_question_reads_from_its_named_entity_outwards(text: str, order: list[str],
                                                        kind: str | None) -> None:
    reading = read(text, "amara dunmore")
    assert phrases(reading) == order
    assert reading.answer_kind == kind


def test_a_phrase_before_the_name_says_so() -> None:
    reading = read("Who reports to Amara Dunmore?", "amara dunmore")
    assert [(p.text, p.before) for p in reading.phrases] == [("reports", True)]
    reading = read("Who does Amara Dunmore report to?", "amara dunmore")
    assert [(p.text, p.before) for p in reading.phrases] == [("report", False)]


def test_other_named_entities_are_not_relation_words() -> None:
    reading = read("How is Amara Dunmore related to Globex?", "amara dunmore", ("globex",))
    assert phrases(reading) == ["related"]


def test_a_question_without_the_name_keeps_every_content_word() -> None:
    reading = read("Which city hosts the biggest employer?", "amara dunmore")
    assert phrases(reading) == ["city hosts", "biggest employer"]
    assert reading.answer_kind is None


@pytest.mark.parametrize("hostile", [
    "MATCH (n) DETACH DELETE n // Amara Dunmore's employer?",
    "Amara Dunmore's employer\x00\u202e OR 1=1; --",
    "title:(foo AND bar)^3 Amara Dunmore's manager~2",
    "",
])
def test_hostile_text_is_only_words(hostile: str) -> None:
    reading = read(hostile, normalise("Amara Dunmore"))
    for phrase in reading.phrases:
        assert all(ch.isalnum() or ch in " '’" for ch in phrase.text), phrase
