"""The removal-language checks decide in linear time, and exactly as the former regular
expressions did.

The former implementation is kept here as the oracle: it searched the whole text before each
removal phrase for a negation, and split clauses with one regular expression that reads a
whitespace run once per position in it, both quadratic on hostile text.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.remember import language
from graphmem.remember.language import (
    MAX_TEXT,
    _definite_removal_phrase,
    _fold,
    _names_replacement,
    _negated_before,
    _split_clauses,
    has_hedge,
    has_sarcasm,
    is_removal,
    is_removal_of,
)

_FLAGS = re.IGNORECASE

# ---- the former implementation (the oracle) -------------------------------------------------
OLD_NEGATED = re.compile(r"(?:\b(?:not|never|hardly)|n't|n’t)\s+(?:\w+\s+)?$", _FLAGS)
OLD_CLAUSE_SPLIT = re.compile(
    r"[.;!?\n]+|,?\s+\b(?:and|but|while|whereas|although|though|then|also|plus)\b\s+", _FLAGS
)


def old_definite_removal_phrase(text: str) -> bool:
    return any(
        language._INHERENTLY_NEGATIVE.fullmatch(m.group(0))
        or not OLD_NEGATED.search(text[: m.start()])
        for m in language._REMOVAL.finditer(text)
    )


def old_is_removal(text: str) -> bool:
    if not text or has_sarcasm(text) or has_hedge(text):
        return False
    return old_definite_removal_phrase(text)


def old_clauses_mentioning(text: str, value: str) -> list[str]:
    needle = _fold(value)
    if not needle:
        return []
    return [c for c in OLD_CLAUSE_SPLIT.split(text) if needle in _fold(c)]


def old_is_removal_of(text: str, value: str) -> bool:
    if not text or has_sarcasm(text):
        return False
    clauses = old_clauses_mentioning(text, value)
    if not clauses:
        return old_is_removal(text)
    return any(old_is_removal(c) and not _names_replacement(c, value) for c in clauses)


# ---- ordinary sentences ---------------------------------------------------------------------
VALUES = ["Redis", "Sentry", "Postgres", "Zustand", "Redux", "warfarin", "Heroku", "Jira",
          "peanuts", "MongoDB"]
SUBJECTS = ["we", "I", "they", "the team", "the patient", "ops", "she"]
VERBS = ["dropped", "removed", "no longer use", "stopped using", "got rid of", "ditched",
         "moved off", "discontinued", "use", "added", "kept", "switched to", "deprecated",
         "retired", "replaced", "quit", "shut down", "cancelled", "dumped", "drop"]
NEGATIONS = ["", "", "", "never", "didn't", "did not", "haven't", "hardly", "don't really",
             "won't", "not"]
HEDGES = ["", "", "", "", "maybe", "probably", "we think", "I guess", "should have",
          "planning to", "going to", "perhaps"]
TAILS = ["", "", "", "anymore", "last sprint", "for good", "in favour of Zustand",
         "for Postgres", "to Fly", "yesterday", "now", "instead", "lol", "/s", "?"]
JOINERS = [". ", "; ", ", and ", " and ", " but ", ", then ", " while ", "! ", "\n", ", "]


@st.composite
def clause(draw: st.DrawFn) -> str:
    words = [draw(st.sampled_from(HEDGES)), draw(st.sampled_from(SUBJECTS)),
             draw(st.sampled_from(NEGATIONS)), draw(st.sampled_from(VERBS)),
             draw(st.sampled_from(VALUES)), draw(st.sampled_from(TAILS))]
    return " ".join(w for w in words if w)


@st.composite
def sentence(draw: st.DrawFn) -> str:
    parts = draw(st.lists(clause(), min_size=1, max_size=4))
    text = parts[0]
    for part in parts[1:]:
        text += draw(st.sampled_from(JOINERS)) + part
    if draw(st.booleans()):
        text = text.capitalize()
    return text + draw(st.sampled_from(["", ".", "!", "?", " 🙄", "..."]))


@settings(max_examples=1500, deadline=None)
@given(sentence(), st.sampled_from(VALUES))
def test_the_linear_checks_decide_exactly_as_the_former_ones(text: str, value: str) -> None:
    assert is_removal(text) == old_is_removal(text)
    assert is_removal_of(text, value) == old_is_removal_of(text, value)


# ---- the pieces agree on any text, hostile shapes included ------------------------------------
HOSTILE = st.lists(st.sampled_from(
    [" ", "  ", "\n", "\t", "\u00a0", ",", ".", ";", "?", "!", "a", "x", "_", "'", "’", "9",
     "and", "And", "then", "though", "although", "plus", "andrew", "not", "Not", "never",
     "hardly", "cannot", "n't", "n’t", "didn't", "dropped", "drop", "no longer", "anymore",
     "removed", "é"]), max_size=30).map("".join)


@settings(max_examples=3000, deadline=None)
@given(HOSTILE)
def test_the_one_pass_split_equals_the_former_regular_expression(text: str) -> None:
    assert _split_clauses(text) == OLD_CLAUSE_SPLIT.split(text)


@settings(max_examples=3000, deadline=None)
@given(HOSTILE, st.integers(0, 80))
def test_the_backward_negation_check_equals_the_former_search(text: str, end: int) -> None:
    end = min(end, len(text))
    assert _negated_before(text, end) == bool(OLD_NEGATED.search(text[:end]))


@settings(max_examples=1000, deadline=None)
@given(HOSTILE)
def test_removal_phrases_are_judged_as_before_on_any_text(text: str) -> None:
    assert _definite_removal_phrase(text) == old_definite_removal_phrase(text)


# ---- hostile text is decided in linear time -------------------------------------------------
MEGABYTE = 1_000_000
ADVERSARIAL = {
    # each removal phrase used to search everything before it for a negation
    "negated removals": "we did not really drop Redis, " * (MEGABYTE // 30),
    # each position of a whitespace run used to read the rest of the run
    "a whitespace run": "Redis" + " " * MEGABYTE + "dropped",
    "newlines and spaces": "Redis dropped" + "\n " * (MEGABYTE // 2),
    "commas and spaces": "Redis dropped" + ", " * (MEGABYTE // 2),
}


@pytest.mark.timeout(30)
def test_a_megabyte_of_hostile_text_is_decided_at_once() -> None:
    """Over MAX_TEXT the message is not judged: the extractor's label stands."""
    for text in ADVERSARIAL.values():
        assert not is_removal_of(text, "Redis")
        assert not is_removal(text)


@pytest.mark.timeout(60)
def test_the_checks_themselves_are_linear_on_a_megabyte() -> None:
    """The cap is not what makes them fast: the pieces read a megabyte in one pass (the
    quadratic forms they replace ran for hours on these texts, which the timeout catches)."""
    for text in ADVERSARIAL.values():
        assert isinstance(_split_clauses(text), list)
        _definite_removal_phrase(text)


def test_text_at_the_cap_is_still_judged() -> None:
    padding = "x" * (MAX_TEXT - len("We dropped Redis. "))
    assert is_removal_of("We dropped Redis. " + padding, "Redis")
    assert not is_removal_of("We dropped Redis. " + padding + "x", "Redis")
