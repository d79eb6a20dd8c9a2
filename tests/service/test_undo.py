"""Undo on the real stores: every action reconciliation takes, undone and redone (the undo
undone), with history, the projection, the mirror and the audit chain checked after each;
flags and pending approvals; the refusal when later writes built on an event, and force;
who may undo; and the events that cannot be."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import AccessDenied, AlreadySettled, InvalidInput, NotFound, UndoBlocked
from graphmem.graph import outbox
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.model import Result
from graphmem.model.roles import ROLES
from graphmem.runtime import Runtime
from graphmem.service.changes import CONFLICT_CLOSED, FACT_CHANGED, events
from graphmem.service.context import Caller

from support import isolation
from support.memory_fixtures import instant

pytestmark = pytest.mark.races


def values(mem: GraphMem, subject: str, **when: Any) -> list[str]:
    return sorted(f.value for f in mem.active(subject, **when))


def consistent(mem: GraphMem) -> None:
    """fsck, the mirror and the audit chain all agree with the graph."""
    mem.records.drain()
    report = mem.records.fsck(strict=True)
    assert report.ok, str(report)
    assert check_mirror(mem.runtime, mem.space.key) == []
    assert mem.records.verify_audit().ok


def write(mem: GraphMem, subject: str, value: str, **kw: Any) -> Result:
    return mem.remember_facts([{"subject": subject, "value": value, "confidence": 0.95,
                                **kw}])[0]


def round_trip(mem: GraphMem, done: Result, subject: str, before: list[str],
               after: list[str]) -> None:
    """Undo `done` (the slot reads `before`), then undo the undo (it reads `after` again),
    consistent throughout."""
    assert done.event_id
    undone = mem.review.undo(done.event_id)
    assert undone.undone == done.event_id and undone.lines
    assert values(mem, subject) == before
    consistent(mem)
    redone = mem.review.undo(undone.event_id)
    assert values(mem, subject) == after
    consistent(mem)
    assert redone.undone == undone.event_id


def test_undo_an_add_retracts_the_value_and_redo_brings_it_back(mem: GraphMem) -> None:
    added = write(mem, "user_city", "Paris")
    assert added.action.value == "ADD"
    round_trip(mem, added, "user_city", [], ["Paris"])
    history = [(e.value, e.status) for e in mem.history("user_city").entries]
    assert history == [("Paris", "SUPERSEDED"), ("Paris", "ACTIVE")]  # rows are kept


def test_undo_a_supersede_restores_the_old_value_and_keeps_history(mem: GraphMem) -> None:
    write(mem, "user_city", "Paris")
    moved = write(mem, "user_city", "Berlin")
    assert moved.action.value == "SUPERSEDE"
    believed = instant()
    undone = mem.review.undo(moved.event_id or "")
    assert values(mem, "user_city") == ["Paris"]
    assert values(mem, "user_city", as_of=believed) == ["Berlin"]  # what memory held then
    world = datetime.now(UTC) - timedelta(milliseconds=1)
    assert values(mem, "user_city", valid_at=world) == ["Paris"]  # Berlin never held
    consistent(mem)
    mem.review.undo(undone.event_id)
    assert values(mem, "user_city") == ["Berlin"]
    consistent(mem)


def test_undo_a_retraction_brings_the_value_back(mem: GraphMem) -> None:
    write(mem, "monitoring", "Sentry")
    dropped = mem.forget(facts=[{"subject": "monitoring", "value": "Sentry"}])[0]
    assert dropped.action.value == "RETRACT"
    round_trip(mem, dropped, "monitoring", ["Sentry"], [])


def test_undo_a_refinement_refines_back(mem: GraphMem) -> None:
    write(mem, "user_employer", "Google")
    refined = write(mem, "user_employer", "Google DeepMind", action="REFINE")
    assert refined.action.value == "REFINE"
    round_trip(mem, refined, "user_employer", ["Google"], ["Google DeepMind"])


def test_undo_a_coexisting_value_retires_only_it(mem: GraphMem) -> None:
    write(mem, "state", "Redux")
    both = write(mem, "state", "MobX", action="COEXIST", scope="mobile")
    assert both.action.value == "COEXIST"
    round_trip(mem, both, "state", ["Redux"], ["MobX", "Redux"])


def test_undo_an_archive_takes_it_out_of_the_world_and_redo_puts_it_back(
        mem: GraphMem) -> None:
    archived = write(mem, "user_city", "Lyon", action="ARCHIVE", time_ref="past",
                     valid_from="2019-01-01T00:00:00+00:00",
                     valid_to="2020-01-01T00:00:00+00:00")
    assert archived.action.value == "ARCHIVE"
    then = datetime(2019, 6, 1, tzinfo=UTC)
    assert values(mem, "user_city", valid_at=then) == ["Lyon"]
    undone = mem.review.undo(archived.event_id or "")
    assert values(mem, "user_city", valid_at=then) == []
    consistent(mem)
    mem.review.undo(undone.event_id)
    assert values(mem, "user_city", valid_at=then) == ["Lyon"]
    consistent(mem)


def test_undo_a_flag_withdraws_it_and_closes_its_conflict(mem: GraphMem) -> None:
    write(mem, "user_city", "Paris")
    flagged = write(mem, "user_city", "Rome", action="SUPERSEDE", confidence=0.3)
    assert flagged.action.value == "FLAG" and flagged.conflict_id
    undone = mem.review.undo(flagged.event_id or "")
    assert mem.review.conflicts() == [] and mem.review.flagged() == []
    closed = mem.review.conflicts(status=None)
    assert any(c.id == flagged.conflict_id and c.status.value == "dismissed" for c in closed)
    assert values(mem, "user_city") == ["Paris"]
    consistent(mem)
    mem.review.undo(undone.event_id)
    assert [f.value for f in mem.review.flagged()] == ["Rome"]
    assert len(mem.review.conflicts()) == 1
    consistent(mem)


def test_undo_a_pending_change_and_an_approval(runtime: Runtime) -> None:
    with GraphMem(space=isolation.tenant(), runtime=runtime,
                  slot_schema="preset:finance") as mem:
        write(mem, "payment_method", "Amex ending 0005")
        pending = write(mem, "payment_method", "Visa ending 1111")
        assert pending.conflict_id and [f.value for f in mem.review.pending()] == [
            "Visa ending 1111"]
        mem.review.undo(pending.event_id or "")
        assert mem.review.pending() == []
        consistent(mem)
        again = write(mem, "payment_method", "Visa ending 2222")
        confirmed = mem.review.confirm(again.fact_id or "")
        assert values(mem, "payment_method") == ["Visa ending 2222"]
        mem.review.undo(confirmed.event_id or "")
        assert values(mem, "payment_method") == ["Amex ending 0005"]
        assert [f.value for f in mem.review.pending()] == ["Visa ending 2222"]
        consistent(mem)


def test_dedup_and_skip_have_nothing_to_undo(mem: GraphMem) -> None:
    write(mem, "user_city", "Paris")
    same = write(mem, "user_city", "Paris")
    assert same.action.value == "DEDUP"
    with pytest.raises(InvalidInput, match="changed nothing that can be undone"):
        mem.review.undo(same.event_id or "")


def test_an_undo_is_refused_when_later_writes_built_on_it_unless_forced(
        mem: GraphMem) -> None:
    write(mem, "user_city", "Paris")
    berlin = write(mem, "user_city", "Berlin")
    madrid = write(mem, "user_city", "Madrid")
    with pytest.raises(UndoBlocked) as refused:
        mem.review.undo(berlin.event_id or "")
    assert berlin.fact_id in str(refused.value) and madrid.fact_id in str(refused.value)
    assert values(mem, "user_city") == ["Madrid"]  # nothing changed
    forced = mem.review.undo(berlin.event_id or "", force=True)
    assert forced.forced and values(mem, "user_city") == ["Paris"]
    consistent(mem)


def test_an_event_is_undone_once(mem: GraphMem) -> None:
    added = write(mem, "user_city", "Paris")
    undone = mem.review.undo(added.event_id or "")
    with pytest.raises(AlreadySettled, match=f"already undone by {undone.event_id}"):
        mem.review.undo(added.event_id or "")


def test_what_cannot_be_undone_is_refused_clearly(mem: GraphMem,
                                                  make_mem: Callable[..., GraphMem]) -> None:
    with pytest.raises(NotFound, match="no event 'e000000000000'"):
        mem.review.undo("e000000000000")
    elsewhere = make_mem()
    theirs = write(elsewhere, "user_city", "Oslo")
    with pytest.raises(NotFound):
        mem.review.undo(theirs.event_id or "")  # another space's event is not found here
    with pytest.raises(InvalidInput, match="1-64 characters"):
        mem.review.undo("x" * 65)
    mem.review.set_reconcile_policy("AUTHORITY", {"crm": 1})
    with mem.runtime.graph.session() as session:
        policy = session.run("MATCH (o:Outbox {space: $s, kind: 'policy'}) RETURN o.id AS id",
                             s=mem.space.key).single(strict=True)["id"]
    with pytest.raises(InvalidInput, match="is a policy event"):
        mem.review.undo(policy)


def test_a_writer_undoes_its_own_write_but_not_another_callers(runtime: Runtime) -> None:
    space = isolation.tenant()
    writer = Caller("alice", ROLES["writer"])
    other = Caller("bob", ROLES["writer"])
    with GraphMem(space=space, runtime=runtime, caller=writer) as alice, \
            GraphMem(space=space, runtime=runtime, caller=other) as bob:
        mine = write(alice, "user_city", "Paris")
        with pytest.raises(AccessDenied, match="needs the approve capability"):
            bob.review.undo(mine.event_id or "")
        with pytest.raises(AccessDenied, match="force needs the approve capability"):
            alice.review.undo(mine.event_id or "", force=True)
        alice.review.undo(mine.event_id or "")
        assert values(alice, "user_city") == []


def test_an_undo_is_heard_on_the_change_feed_and_in_the_audit_chain(mem: GraphMem) -> None:
    write(mem, "user_city", "Paris")
    flagged = write(mem, "user_city", "Rome", action="SUPERSEDE", confidence=0.3)
    undone = mem.review.undo(flagged.event_id or "")
    _, entries = outbox.since(mem.runtime.graph, mem.space.key, 0, "", 100)
    entry = next(e for e in entries if e.id == undone.event_id)
    heard = {(c.channel, c.change, c.fact_id or c.conflict_id) for c in events(entry)}
    assert (FACT_CHANGED, "undone", flagged.fact_id) in heard
    assert (CONFLICT_CLOSED, "undone", flagged.conflict_id) in heard
    mem.records.drain()
    rows = mem.records.audit_log(operation="undo")
    assert [json.loads(r.detail)["undoes"] for r in rows] == [flagged.event_id]
    assert mem.records.verify_audit().ok
