"""What changed between two instants, on the real graph: each action's difference on the
recorded clock, the COO → CEO → CTO chain on the valid clock, paging by slot, and the events
that did each change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.model.differences import Clock, SlotChange, SlotChangeKind, Step

from support.memory_fixtures import instant

pytestmark = pytest.mark.races


def outbox_ids(mem: GraphMem) -> set[str]:
    with mem.runtime.graph.session() as session:
        return {r["id"] for r in session.run("MATCH (o:Outbox {space: $space}) RETURN o.id AS id",
                                            space=mem.space.key)}


def by_subject(changes: Any) -> dict[str, SlotChange]:
    return {c.subject: c for c in changes.items}


def test_a_new_value_is_added_and_a_replaced_one_changed(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    start = instant()
    mem.remember_facts([{"subject": "user_city", "value": "Berlin", "confidence": 0.9},
                        {"subject": "user_diet", "value": "vegetarian", "confidence": 0.9}])
    end = instant()
    found = by_subject(mem.records.changes(start, end))
    city, diet = found["user_city"], found["user_diet"]
    assert (city.kind, [f.value for f in city.before], [f.value for f in city.after]) == (
        SlotChangeKind.CHANGED, ["Paris"], ["Berlin"])
    assert (diet.kind, diet.before, [f.value for f in diet.after]) == (
        SlotChangeKind.ADDED, (), ["vegetarian"])
    steps = {(c.step, c.fact_id) for c in city.causes}
    assert steps == {(Step.STOPPED, city.before[0].id), (Step.STARTED, city.after[0].id)}
    events = {c.event for c in (*city.causes, *diet.causes)}
    assert len(events) == 1 and events <= outbox_ids(mem)  # one write did all of it
    assert all(start < c.at <= end for c in city.causes if c.at is not None)


def test_a_window_before_a_change_does_not_see_it(mem: GraphMem) -> None:
    start = instant()
    end = instant()
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    assert mem.records.changes(start, end).items == ()
    assert [c.subject for c in mem.records.changes(start).items] == ["user_city"]


def test_a_retraction_removes_the_value(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    start = instant()
    mem.forget(facts=[{"subject": "user_city", "value": "Paris"}])
    change = by_subject(mem.records.changes(start, instant()))["user_city"]
    assert change.kind == SlotChangeKind.REMOVED
    assert [f.value for f in change.before] == ["Paris"] and change.after == ()
    assert [c.step for c in change.causes] == [Step.STOPPED]


def test_a_refinement_changes_the_value_in_place(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "user_employer", "value": "Google", "confidence": 0.9}])
    start = instant()
    done = mem.remember_facts([{"subject": "user_employer", "value": "Google DeepMind",
                                "action": "REFINE", "confidence": 0.9}])
    assert done[0].action.value == "REFINE"
    change = by_subject(mem.records.changes(start, instant()))["user_employer"]
    assert change.kind == SlotChangeKind.CHANGED
    assert [f.value for f in change.before] == ["Google"]
    assert [f.value for f in change.after] == ["Google DeepMind"]
    assert change.before[0].id == change.after[0].id
    assert [c.step for c in change.causes] == [Step.REFINED]
    assert change.causes[0].event in outbox_ids(mem)


def test_a_flagged_proposal_changes_nothing_until_it_is_approved(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    start = instant()
    flagged = mem.remember_facts([{"subject": "user_city", "value": "Rome",
                                   "action": "SUPERSEDE", "confidence": 0.3}])
    assert flagged[0].action.value == "FLAG"
    asked = instant()
    assert mem.records.changes(start, asked).items == ()
    conflict = mem.review.list_conflicts().items[0]
    mem.review.resolve_conflict(conflict.id, flagged[0].fact_id)
    change = by_subject(mem.records.changes(asked, instant()))["user_city"]
    assert [f.value for f in change.after] == ["Rome"]
    settled = {c.event for c in change.causes}
    assert len(settled) == 1 and settled <= outbox_ids(mem)


def test_an_archived_past_value_is_history_not_a_change_of_what_is_held(mem: GraphMem) -> None:
    start = instant()
    done = mem.remember_facts([{"subject": "user_city", "value": "Lyon", "action": "ARCHIVE",
                                "time_ref": "past", "confidence": 0.9}])
    assert done[0].action.value == "ARCHIVE"
    assert mem.records.changes(start, instant()).items == ()


def test_a_value_held_only_inside_the_window_is_no_difference(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    start = instant()
    mem.remember_facts([{"subject": "user_city", "value": "Oslo", "confidence": 0.9}])
    mem.remember_facts([{"subject": "user_city", "value": "Paris", "confidence": 0.9}])
    change = by_subject(mem.records.changes(start, instant()))["user_city"]
    # Paris then, Paris now, but as another fact: the slot's values did not change
    assert [f.value for f in change.before] == ["Paris"] == [f.value for f in change.after]
    assert "Oslo" not in {f.value for f in (*change.before, *change.after)}


BEGAN = (datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC),
         datetime(2025, 1, 1, tzinfo=UTC))


def test_the_valid_clock_says_what_became_true_in_the_world(mem: GraphMem) -> None:
    for value, began in zip(("COO", "CEO", "CTO"), BEGAN, strict=True):
        mem.remember_facts([{"head": "Alice", "head_type": "person", "relation": "role",
                             "tail": value, "tail_type": "job title", "confidence": 0.95,
                             "valid_from": began.isoformat()}])
    day = timedelta(days=1)
    change = mem.records.changes(BEGAN[1] - day, BEGAN[1] + day, Clock.VALID).items
    assert [(c.subject, [f.value for f in c.before], [f.value for f in c.after])
            for c in change] == [("alice_role", ["COO"], ["CEO"])]
    whole = mem.records.changes(BEGAN[0] - day, BEGAN[2] + day, "valid").items
    assert [(c.kind, [f.value for f in c.after]) for c in whole] == [
        (SlotChangeKind.ADDED, ["CTO"])]
    assert mem.records.changes(BEGAN[2] + day, BEGAN[2] + 2 * day, Clock.VALID).items == ()


def test_changes_come_a_page_of_slots_at_a_time(mem: GraphMem) -> None:
    start = instant()
    mem.remember_facts([{"subject": f"topic_{k}", "value": f"v{k}", "confidence": 0.9}
                        for k in range(5)])
    end = instant()
    first = mem.records.changes(start, end, first=2)
    assert [c.subject for c in first.items] == ["topic_0", "topic_1"]
    assert first.total == 5 and first.has_next
    second = mem.records.changes(start, end, first=2, after=first.next_cursor)
    assert [c.subject for c in second.items] == ["topic_2", "topic_3"]
    back = mem.records.changes(start, end, last=2, before=second.cursors[0])
    assert [c.subject for c in back.items] == ["topic_0", "topic_1"]
    one = mem.records.changes(start, end, subject="topic_4")
    assert [c.subject for c in one.items] == ["topic_4"]


@pytest.mark.parametrize(("start", "end", "clock", "message"), [
    (datetime(2026, 1, 1), None, "RECORDED", "from must carry a timezone"),
    (datetime(2026, 1, 2, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC), "RECORDED",
     "from must come before to"),
    (datetime(2026, 1, 1, tzinfo=UTC), None, "WALL", "clock 'WALL': use RECORDED or VALID"),
])
def test_a_bad_window_is_refused_clearly(mem: GraphMem, start: datetime, end: datetime | None,
                                         clock: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        mem.records.changes(start, end, clock)
