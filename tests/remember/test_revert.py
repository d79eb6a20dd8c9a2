"""The undo's rules without a database: what an event's batches did, and the inverse planned
against the space as it is now (blockers included)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from graphmem.remember.revert import Slot, plan, touched

NOW = datetime(2026, 12, 6, tzinfo=UTC)
EARLIER = datetime(2026, 12, 1, tzinfo=UTC)


def ids() -> Any:
    counter = itertools.count()
    return lambda prefix: f"{prefix}{next(counter)}"


def fact(fid: str, value: str, status: str, **extra: Any) -> dict[str, Any]:
    return {"id": fid, "subject": "city", "scope": "global", "value": value,
            "value_key": value.lower(), "status": status, "cardinality": "one",
            "held_from": EARLIER, "valid_from": EARLIER, **extra}


SUPERSEDE = {"facts": [{"id": "new", "status": "ACTIVE"}],
             "supersedes": [{"new": "new", "old": "old"}]}


def test_a_supersede_made_one_fact_current_and_retired_another() -> None:
    did = touched("remember", SUPERSEDE, [SUPERSEDE])
    assert (did.current, did.retired, did.flagged, did.history) == (("new",), ("old",), (), ())


def test_undoing_a_supersede_retires_the_new_value_and_restores_a_copy_of_the_old() -> None:
    did = touched("remember", SUPERSEDE, [SUPERSEDE])
    facts = {"new": fact("new", "Berlin", "ACTIVE"),
             "old": fact("old", "Paris", "SUPERSEDED", retired_at=NOW, valid_to=NOW,
                         valid_to_at=NOW)}
    slots = {("city", "global"): Slot({"new": ("ACTIVE", "berlin")})}
    out = plan(did, facts, slots, {}, False, NOW, "alice", ids())
    assert out.blockers == [] and out.undone == ["new"]
    assert out.statuses == [{"id": "new", "status": "SUPERSEDED"}]
    (copy,) = out.facts
    assert (copy["value"], copy["status"], copy["held_from"]) == ("Paris", "ACTIVE", NOW)
    assert (copy["valid_from"], "valid_to" in copy) == (NOW, False)  # from where it was cut
    assert out.restores == [{"new": copy["id"], "old": "old"}]


def test_a_later_value_in_the_slot_blocks_the_undo_and_force_retires_it() -> None:
    did = touched("remember", SUPERSEDE, [SUPERSEDE])
    facts = {"new": fact("new", "Berlin", "SUPERSEDED", retired_event="e9"),
             "old": fact("old", "Paris", "SUPERSEDED", valid_to_at=NOW, valid_to=NOW)}
    slots = {("city", "global"): Slot({"later": ("ACTIVE", "madrid")})}
    refused = plan(did, facts, slots, {}, False, NOW, "alice", ids())
    assert {b.fact_id for b in refused.blockers} == {"new", "later"}
    forced = plan(did, facts, slots, {}, True, NOW, "alice", ids())
    assert {"id": "later", "status": "SUPERSEDED"} in forced.statuses
    assert "later" in forced.undone


def test_a_refinement_is_refined_back_unless_it_was_refined_again() -> None:
    refine = {"refines": [{"id": "f", "value": "Google DeepMind",
                           "revision": '{"value": "Google", "at": "2026-12-01T00:00:00+00:00"}'}]}
    did = touched("remember", refine, [refine])
    assert did.refined == {"f": ("Google", "Google DeepMind")}
    now = {"f": fact("f", "Google DeepMind", "ACTIVE")}
    out = plan(did, now, {}, {}, False, NOW, "alice", ids())
    assert [r["value"] for r in out.refines] == ["Google"]
    again = {"f": fact("f", "Alphabet", "ACTIVE")}
    assert plan(did, again, {}, {}, False, NOW, "alice", ids()).blockers[0].fact_id == "f"


def test_nothing_changed_is_empty() -> None:
    assert touched("remember", {"results": []}, [{"facts": []}]).empty
