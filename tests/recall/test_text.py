"""How facts read as text, and why a question can never inject Lucene syntax."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.recall.text import fact_text, lucene_terms


def test_fact_text_spells_snake_case_subjects_as_words() -> None:
    assert fact_text("primary_database", "Postgres") == "primary database: Postgres"
    assert fact_text("state", "MobX", "mobile") == "state (mobile): MobX"
    assert fact_text("state", "Zustand", "global") == "state: Zustand"


def test_lucene_terms_are_lower_case_words_once_each() -> None:
    assert lucene_terms("What is the PRIMARY_database? What database!") == (
        "what is the primary database")


@pytest.mark.parametrize("hostile", [
    'plan:"Pro" AND NOT space:*', "a OR b", "title:(x) +y -z", "foo~2 bar^10", "*", "\\",
    "[a TO z]", "{!}", "\"unterminated", "&& || !", "/regex/", "ＡＮＤ", "", "   ",
])
def test_lucene_terms_carry_no_operator(hostile: str) -> None:
    terms = lucene_terms(hostile)
    assert re.fullmatch(r"[^\W_]*( [^\W_]+)*", terms, re.UNICODE)
    assert not {"AND", "OR", "NOT", "TO"} & set(terms.split())


@given(st.text(max_size=300))
def test_lucene_terms_are_always_plain_words(text: str) -> None:
    terms = lucene_terms(text)
    for term in terms.split():
        assert re.fullmatch(r"[^\W_]+", term, re.UNICODE)
        assert term == term.lower()
    assert len(terms.split()) <= 64
