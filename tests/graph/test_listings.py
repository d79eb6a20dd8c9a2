"""Paged reads against the real Neo4j, through the Python API: facts as they stood at any
instant agree with the Cypher that filtered them, counts by aggregation agree with the
listings, and refinements read as they did then."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput
from graphmem.model import ConflictStatus, Status, When
from graphmem.model.listings import ConflictFilter, FactFilter

pytestmark = pytest.mark.races


def now() -> datetime:
    at = datetime.now(UTC)
    time.sleep(0.01)
    return at


@pytest.fixture
def story(mem: GraphMem) -> dict[str, datetime]:
    """plan Free → refined → Pro; db Postgres, then a doubtful MySQL; a past billing."""
    times = {"t0": now()}
    mem.remember_facts([{"subject": "plan", "value": "Free", "confidence": 0.9},
                        {"subject": "db", "value": "Postgres", "confidence": 0.9},
                        {"subject": "billing", "value": "monthly", "time_ref": "past"}])
    times["t1"] = now()
    mem.remember_facts([{"subject": "plan", "value": "Free (annual)", "action": "REFINE",
                         "confidence": 0.9}])
    times["t2"] = now()
    mem.remember_facts([{"subject": "plan", "value": "Pro", "action": "SUPERSEDE",
                         "confidence": 0.9},
                        {"subject": "db", "value": "MySQL", "action": "SUPERSEDE",
                         "confidence": 0.3}])
    times["t3"] = now()
    return times


def test_the_status_a_fact_had_agrees_with_the_cypher_filter(mem: GraphMem,
                                                              story: dict[str, datetime]) -> None:
    for at in (None, *story.values()):
        when = When(as_of=at)
        everything = mem.records.page(FactFilter(statuses=tuple(Status)), when, first=500)
        for status in Status:
            page = mem.records.page(FactFilter(statuses=(status,)), when, first=500)
            assert {f.status for f in page.items} <= {status}, (at, status)
            assert page.total == len(page.items)
            assert {f.id for f in page.items} == {f.id for f in everything.items
                                                  if f.status == status}
        stats = mem.records.stats(when)
        counted = {s: sum(1 for f in everything.items if f.status == s) for s in Status}
        assert (stats.active, stats.flagged, stats.superseded, stats.historical) == (
            counted[Status.ACTIVE], counted[Status.FLAGGED_CONFLICT],
            counted[Status.SUPERSEDED], counted[Status.HISTORICAL])


def test_refined_values_read_as_they_did_then(mem: GraphMem, story: dict[str, datetime]) -> None:
    plan = FactFilter(subject="plan", statuses=tuple(Status))
    assert [f.value for f in mem.records.page(plan, When(as_of=story["t1"])).items] == ["Free"]
    assert [f.value for f in mem.records.page(plan, When(as_of=story["t2"])).items] == [
        "Free (annual)"]
    then = mem.records.history_page("plan", when=When(as_of=story["t1"]))
    assert [(e.value, e.status) for e in then.items] == [("Free", "ACTIVE")]
    assert then.total == 1
    now_ = mem.records.history_page("plan")
    assert [(e.value, e.status) for e in now_.items] == [
        ("Free", "REFINED"), ("Free (annual)", "SUPERSEDED"), ("Pro", "ACTIVE")]
    assert now_.total == 3


def test_conflicts_by_the_status_they_had(mem: GraphMem, story: dict[str, datetime]) -> None:
    opened = mem.review.list_conflicts()
    assert opened.total == 1 and opened.items[0].subject == "db"
    mem.review.dismiss_conflict(opened.items[0].id, "both fine")
    assert mem.review.list_conflicts().total == 0
    assert mem.review.list_conflicts(ConflictFilter(status=ConflictStatus.DISMISSED)).total == 1
    was_open = mem.review.list_conflicts(when=When(as_of=datetime.now(UTC)))
    assert was_open.total == 0
    assert mem.review.list_conflicts(when=When(as_of=story["t3"])).total == 1
    assert mem.review.list_conflicts(when=When(as_of=story["t2"])).total == 0


def test_cursors_of_one_listing_are_refused_by_another(mem: GraphMem,
                                                       story: dict[str, datetime]) -> None:
    page = mem.records.page(first=1)
    with pytest.raises(InvalidInput, match="not one this field issued"):
        mem.review.list_conflicts(after=page.cursors[0])
    with pytest.raises(InvalidInput, match="between 0 and"):
        mem.records.page(first=10_000_000)
    with pytest.raises(InvalidInput, match="valid_at or a validity interval"):
        When(valid_at=story["t1"], valid_start=story["t0"])
    with pytest.raises(InvalidInput, match="must carry a timezone"):
        When(as_of=datetime(2026, 1, 1))
