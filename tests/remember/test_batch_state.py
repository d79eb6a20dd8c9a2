"""A batch reconciles fact after fact in memory: the facts a later decision of the same call
sees are exactly the facts the write stores, as `active` and `history` read them back."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.model import Fact, SlotState, Status
from graphmem.remember import pipeline

pytestmark = pytest.mark.neo4j

LISTS = {"slots": [{"name": "allergy", "category": "critical", "multi": True}]}


class Seen:
    """The slot states of one write: what each decision saw, and the state after it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.before: list[SlotState] = []
        self.after: list[SlotState] = []
        reconcile, apply_to_state = pipeline.reconcile, pipeline.apply_to_state

        def seen_reconcile(p: Any, state: SlotState, *args: Any) -> Any:
            self.before.append(state)
            return reconcile(p, state, *args)

        def seen_apply(*args: Any) -> SlotState:
            state = apply_to_state(*args)
            self.after.append(state)
            return state

        monkeypatch.setattr(pipeline, "reconcile", seen_reconcile)
        monkeypatch.setattr(pipeline, "apply_to_state", seen_apply)

    def last(self, n: int) -> tuple[list[SlotState], list[SlotState]]:
        """The states of the last transaction (a retried one reconciles again)."""
        return self.before[-n:], self.after[-n:]


def fact(subject: str, value: str, **kw: Any) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": kw.pop("confidence", 0.95), **kw}


def by_id(facts: list[Fact] | tuple[Fact, ...]) -> dict[str, Fact]:
    return {f.id: f for f in facts}


def test_a_later_decision_sees_the_earlier_fact_as_written(
        make_mem: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two items of one list slot in one call, with a source_ref and no valid_from."""
    mem: GraphMem = make_mem(slot_schema=LISTS)
    seen = Seen(monkeypatch)
    results = mem.remember_facts(
        [fact("allergy", "penicillin", reason="stated plainly"), fact("allergy", "latex")],
        text="allergic to penicillin and latex", source="fhir", source_ref="enc-42",
        metadata={"channel": "intake"})
    assert [r.action.value for r in results] == ["ADD", "ADD"]
    before, after = seen.last(2)
    (earlier,) = before[1].facts  # what the second decision reasoned about
    stored = by_id(mem.active("allergy"))
    assert earlier == stored[earlier.id]
    assert earlier.source_ref == "enc-42" and earlier.valid_from == earlier.recorded_at
    assert earlier.space == mem.space.key and earlier.metadata["channel"] == "intake"
    assert by_id(after[1].facts) == stored


def test_a_superseding_fact_in_the_batch_is_the_one_history_reads(
        mem: GraphMem, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = Seen(monkeypatch)
    mem.remember_facts([fact("db", "MySQL"), fact("db", "Postgres", action="SUPERSEDE")],
                       source="crm", source_ref="ticket-7")
    before, after = seen.last(2)
    (mysql,) = before[1].facts
    (postgres,) = after[1].facts
    assert postgres.supersedes == (mysql.id,)
    history = by_id([e.fact for e in mem.history("db").entries])
    assert postgres == history[postgres.id] == by_id(mem.active("db"))[postgres.id]
    written = history[mysql.id]
    assert written.status == Status.SUPERSEDED
    assert written.valid_to == postgres.valid_from  # the successor's valid_from closes it
    assert mysql == replace(written, status=Status.ACTIVE, retired_at=None, valid_to=None)


def test_a_refine_in_the_batch_is_the_refine_that_is_written(
        mem: GraphMem, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = Seen(monkeypatch)
    results = mem.remember_facts([
        fact("db", "Postgres", confidence=0.8),
        fact("db", "Postgres 16", action="REFINE", confidence=0.99),
    ], source="crm", source_ref="ticket-8")
    assert [r.action.value for r in results] == ["ADD", "REFINE"]
    _, after = seen.last(2)
    (refined,) = after[1].facts
    assert (refined.value, refined.confidence) == ("Postgres 16", 0.99)
    assert [r["value"] for r in refined.revisions] == ["Postgres"]
    assert refined == by_id(mem.active("db"))[refined.id]
