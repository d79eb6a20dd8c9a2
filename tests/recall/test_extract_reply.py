"""Parsing the extractor's reply into facts, and the prompt it is given, without a model."""

from __future__ import annotations

import json

import pytest

from graphmem.model import Fact, SlotSpec
from graphmem.remember.extract import (
    FORGET,
    RESPONSE_SCHEMA,
    SYSTEM,
    VERBATIM,
    ExtractionInput,
    parse_reply,
    usable,
    user_prompt,
)
from graphmem.slots import load_slot_schema

PRO = {"subject": "plan", "value": "Pro", "confidence": 0.9}
EU = {"subject": "region", "value": "eu", "action": "add"}


def subjects(content: str) -> list[str] | None:
    facts = parse_reply(content)
    return None if facts is None else [f.subject for f in facts]


def test_the_documented_shape_parses() -> None:
    assert subjects(json.dumps({"facts": [PRO, EU]})) == ["plan", "region"]


@pytest.mark.parametrize("content", [
    json.dumps([PRO, EU]),
    "```json\n" + json.dumps({"facts": [PRO, EU]}) + "\n```",
    "Here you are: " + json.dumps({"facts": [PRO, EU]}) + " Hope it helps!",
])
def test_a_bare_array_or_surrounding_prose_still_parses(content: str) -> None:
    assert subjects(content) == ["plan", "region"]


def test_no_facts_is_an_empty_list_not_a_failure() -> None:
    assert parse_reply('{"facts": []}') == []


@pytest.mark.parametrize("content", ["", "no JSON here", '{"answer": 42}', "{broken",
                                     '{"facts": "none"}', '{"facts": [{"subj'])
def test_unusable_replies_ask_for_another_try(content: str) -> None:
    assert parse_reply(content) is None


def test_a_malformed_array_keeps_the_well_formed_facts_before_the_break() -> None:
    cut = '{"facts": [' + json.dumps(PRO) + ", " + json.dumps(EU) + ', {"subject": "se'
    assert subjects(cut) == ["plan", "region"]
    broken_mid = '{"facts": [' + json.dumps(PRO) + ', {"subject": oops}, ' + json.dumps(EU)
    assert subjects(broken_mid) == ["plan"]


def test_invalid_facts_are_dropped_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    content = json.dumps({"facts": [PRO, {"value": "x"}, {**EU, "confidence": 3},
                                    {**EU, "kind": "rumour"}]})
    assert subjects(content) == ["plan"]
    assert caplog.text.count("dropped a malformed fact") == 3


def test_only_invalid_facts_ask_for_another_try() -> None:
    assert parse_reply(json.dumps({"facts": [{"value": "no subject"}]})) is None


def test_case_and_nulls_are_normalised() -> None:
    facts = parse_reply(json.dumps({"facts": [
        {"subject": "plan", "value": 5, "action": "supersede", "kind": "STATE",
         "time_ref": "Past", "scope": None, "head": None}]}))
    assert facts is not None
    f = facts[0]
    assert (f.value, f.action, f.kind, f.time_ref, f.scope) == ("5", "SUPERSEDE", "state",
                                                                "past", "global")
    assert f.model_dump(exclude_none=True) == {
        "subject": "plan", "value": "5", "scope": "global", "kind": "state",
        "time_ref": "past", "action": "SUPERSEDE"}


def test_usable_applies_the_pipeline_validation() -> None:
    schema = load_slot_schema({"slots": [{"name": "plan", "aliases": ["tier"]}]})
    kept = usable([{"subject": "tier", "value": "Pro"}, {"subject": "!!!", "value": "x"},
                   {"subject": "seats", "value": "5", "cardinality": "lots"}], schema)
    assert kept == [{"subject": "tier", "value": "Pro"}]


def test_response_schema_is_strict() -> None:
    item = RESPONSE_SCHEMA["$defs"]["ExtractedFact"]
    assert RESPONSE_SCHEMA["required"] == ["facts"]
    assert RESPONSE_SCHEMA["additionalProperties"] is False
    assert item["additionalProperties"] is False
    assert set(item["required"]) == set(item["properties"])
    assert "default" not in json.dumps(RESPONSE_SCHEMA)
    assert item["properties"]["action"]["enum"] == ["ADD", "SUPERSEDE", "RETRACT", "REFINE",
                                                     "COEXIST", "SKIP"]


def test_prompt_carries_context_slots_vocabulary_and_the_message() -> None:
    fact = Fact(id="f1", space="s", subject="state", value="Redux", scope="web")
    inp = ExtractionInput(
        text="We moved to Zustand", facts=(fact,),
        slots=(SlotSpec("active_medication", ("meds",), "drugs taken now", multi=True,
                        verbatim=True, confirm=True),),
        entities=(("Acme", "organisation"),), relations=("works_at",))
    prompt = user_prompt(inp)
    assert "Current facts (id, subject [scope] = value):\n#f1 state [web] = Redux" in prompt
    assert ("- active_medication (also called meds): drugs taken now [list; changes need"
            " confirmation; verbatim]") in prompt
    assert VERBATIM in prompt
    assert "Known entities (reuse these names exactly): Acme (organisation)" in prompt
    assert "Relation labels in use (reuse exactly): works_at" in prompt
    assert prompt.endswith("Message:\n<<<\nWe moved to Zustand\n>>>")
    assert FORGET not in prompt
    assert FORGET in user_prompt(ExtractionInput("forget Redux", forget=True))


def test_an_empty_space_prompt_is_just_the_message() -> None:
    assert user_prompt(ExtractionInput("hello")) == "Message:\n<<<\nhello\n>>>"
    assert "We moved to Postgres and dropped Redis" in SYSTEM
