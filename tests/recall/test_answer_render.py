"""The deterministic parts of a recall result: provenance lines, warnings, fallbacks."""

from __future__ import annotations

from graphmem.model import Fact, Status
from graphmem.model.recall import (
    NO_FACTS,
    NO_MODEL,
    ConflictFact,
    OpenConflict,
    Recall,
    RecalledFact,
)
from graphmem.recall.answer import prompt


def fact(**kw: object) -> Fact:
    base: dict[str, object] = {"id": "f2", "space": "s", "subject": "state", "value": "Zustand"}
    return Fact(**{**base, **kw})  # type: ignore[arg-type]


def test_provenance_line_follows_the_seed() -> None:
    line = RecalledFact(fact(confidence=0.95, source="crm", supersedes=("f1",))).line()
    assert line == "#f2 state = Zustand [conf 0.95, from crm, supersedes #f1]"
    assert RecalledFact(fact(subject="db", value="MySQL", id="f3", confidence=0.95)).line() == (
        "#f3 db = MySQL [conf 0.95]")


def test_line_tags_scope_history_flags_and_tombstones() -> None:
    assert RecalledFact(fact(scope="mobile")).line() == "#f2 state = Zustand (mobile)"
    assert RecalledFact(fact(value="Redux"), history=True).line() == "#f2 state = Redux (history)"
    flagged = fact(status=Status.FLAGGED_CONFLICT, confidence=0.6)
    assert RecalledFact(flagged).line() == "#f2 state = Zustand (flagged) [conf 0.60]"
    tomb = fact(value="(retracted: Redux)", retracts=("f1",), status=Status.HISTORICAL)
    assert RecalledFact(tomb, True).line() == (
        "#f2 state = (retracted: Redux) (history) [retracts #f1]")


CONFLICT = OpenConflict("c1", "uncertainty", (
    ConflictFact("f1", "plan", "global", "Pro", "ACTIVE"),
    ConflictFact("f2", "plan", "global", "Free", "FLAGGED_CONFLICT")))


def test_answer_then_warning_then_explain() -> None:
    result = Recall("q", "You use Zustand.", (RecalledFact(fact(confidence=0.95)),),
                    (CONFLICT,), explain=True)
    assert str(result) == (
        "You use Zustand.\n\n"
        "⚠ OPEN CONFLICTS: some of these facts are contested; resolve them before relying on"
        " the answer:\n"
        "  c1 (uncertainty) on plan: #f1 Pro [ACTIVE] vs #f2 Free [FLAGGED_CONFLICT]\n\n"
        "Based on these facts:\n"
        "• #f2 state = Zustand [conf 0.95]")


def test_without_explain_only_the_answer() -> None:
    assert str(Recall("q", "You use Zustand.", (RecalledFact(fact()),))) == "You use Zustand."


def test_without_a_model_the_ranked_facts_are_the_answer() -> None:
    result = Recall("q", None, (RecalledFact(fact()), RecalledFact(fact(id="f9", value="x"))))
    assert str(result) == f"{NO_MODEL}\n• #f2 state = Zustand\n• #f9 state = x"
    assert not result.model_answered


def test_nothing_to_answer_from() -> None:
    assert str(Recall("q", None, ())) == NO_FACTS


def test_the_model_prompt_lists_facts_and_conflicts() -> None:
    text = prompt("what plan?", (RecalledFact(fact()),), (CONFLICT,))
    assert text == ("Question: what plan?\n\nFacts:\n#f2 state = Zustand\n\nOpen conflicts:\n"
                    "c1 (uncertainty) on plan: #f1 Pro [ACTIVE] vs #f2 Free [FLAGGED_CONFLICT]")
