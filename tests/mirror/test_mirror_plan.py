"""The mirror's pass planning and its audit queue's bookkeeping, without threads or I/O: which
spaces a pass reads, which committed entries it may apply as they are, the order of rows and
entries in one relational transaction, and the queue's tickets and drops."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from graphmem.graph.outbox import OutboxEntry
from graphmem.mirror import audit_queue
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.audit_queue import AuditQueue, Item, Marker
from graphmem.mirror.plan import follow_on, follows, plan, unread


def entry(event: str, space: str, seq: int | None) -> OutboxEntry:
    return OutboxEntry(event, space, "remember", json.dumps({"facts": []}),
                       datetime(2026, 1, 1, tzinfo=UTC), seq)


def row(operation: str) -> AuditEntry:
    return AuditEntry("s", "bob", operation, "ok")


def marker(*events: tuple[str, str]) -> Marker:
    return Marker(tuple(events))


# ---- follows / follow_on ---------------------------------------------------------------------
def test_committed_entries_follow_on_in_any_order_and_share_a_counter_value() -> None:
    assert follows(4, [entry("e2", "s", 6), entry("e1", "s", 5)]), "sorted by the counter"
    assert follows(4, [entry("e1", "s", 5), entry("e2", "s", 5)]), "one write, two entries"
    assert follows(4, []), "nothing committed: nothing in between"


def test_a_gap_or_an_entry_without_a_counter_means_the_outbox_is_read() -> None:
    assert not follows(4, [entry("e1", "s", 5), entry("e3", "s", 7)]), "seq 6 came elsewhere"
    assert not follows(4, [entry("e1", "s", 4)]), "applied already"
    assert not follows(4, [entry("e1", "s", None)])
    assert not follows(None, [entry("e1", "s", 1)]), "nothing applied here yet"


def test_follow_on_serves_only_spaces_the_pass_does_not_read_anyway() -> None:
    fresh = {"a": [entry("a1", "a", 3)], "b": [entry("b1", "b", 8)], "c": [entry("c1", "c", 2)]}
    served = follow_on(fresh, wanted={"c"}, last_seq={"a": 2, "b": 6, "c": 1})
    assert served == {"a": fresh["a"]}, "b has a gap, c is read from the outbox"


# ---- unread ----------------------------------------------------------------------------------
def test_a_queued_write_s_spaces_are_read_unless_its_entries_are_applied_or_at_hand() -> None:
    items: list[tuple[int, Item]] = [
        (1, row("active")),
        (2, marker(("a", "a1"), ("b", "b1"))),
        (3, marker(("c", "c1"))),  # applied before
        (4, marker(("d", "d1"), ("e", "e1"))),  # e1 not applied: both spaces are read
        (5, marker(("f", "f1"))),  # committed here and served as it is
    ]
    assert unread(items, applied={"c1", "d1"}, known={"f1"}) == {"a", "b", "d", "e"}
    assert unread([(1, row("active"))], applied=set(), known=set()) == set()


# ---- plan ------------------------------------------------------------------------------------
def test_without_queued_items_every_entry_goes_in_one_step() -> None:
    entries = [entry("a1", "a", 1), entry("b1", "b", 1)]
    assert plan(entries, [], t0=0, capped=False, applied=set()) == ([entries], 0, True)
    assert plan([], [], t0=0, capped=False, applied=set()) == ([], 0, True)


def test_a_write_s_entries_take_those_committed_before_them_in_their_space() -> None:
    a1, a2, a3, b1 = (entry("a1", "a", 1), entry("a2", "a", 2), entry("a3", "a", 3),
                      entry("b1", "b", 1))
    items: list[tuple[int, Item]] = [(1, marker(("a", "a2"))), (2, marker(("a", "a1"))),
                                     (3, marker(("a", "a3"), ("b", "b1")))]
    steps, taken, whole = plan([a1, a2, a3, b1], items, t0=3, capped=False, applied=set())
    assert steps == [[a1, a2], [a3, b1]], "a1 went with a2: its own marker adds nothing"
    assert (taken, whole) == (3, True)


def test_a_marker_whose_entries_were_applied_before_adds_no_step() -> None:
    items: list[tuple[int, Item]] = [(1, marker(("a", "a1"))), (2, row("active"))]
    steps, taken, whole = plan([], items, t0=1, capped=False, applied={"a1"})
    assert (steps, taken, whole) == ([row("active")], 2, True)


def test_a_capped_read_stops_at_a_marker_it_did_not_reach() -> None:
    a1 = entry("a1", "a", 1)
    items: list[tuple[int, Item]] = [(1, row("active")), (2, marker(("z", "z1")))]
    steps, taken, whole = plan([a1], items, t0=2, capped=True, applied=set())
    assert (steps, taken, whole) == ([row("active")], 1, False), "a1 waits for the next pass"


def test_a_queue_longer_than_a_batch_leaves_the_other_entries_for_the_next_pass() -> None:
    a1, b1 = entry("a1", "a", 1), entry("b1", "b", 1)
    items: list[tuple[int, Item]] = [(1, marker(("a", "a1"))), (2, row("active")),
                                     (3, row("history"))]
    steps, taken, whole = plan([a1, b1], items, t0=3, capped=False, applied=set(), batch=2)
    assert (steps, taken, whole) == ([[a1], row("active")], 2, False)
    steps, taken, whole = plan([a1, b1], items[:2], t0=3, capped=False, applied=set(), batch=2)
    assert (steps, taken, whole) == ([[a1], row("active"), [b1]], 2, True)


# ---- the audit queue's tickets -----------------------------------------------------------------
class Woken:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


def test_the_queue_hands_out_tickets_and_retires_what_is_written() -> None:
    woken = Woken()
    queue = AuditQueue(woken, lambda: False)
    for operation in ("active", "history", "fact"):
        queue.put(row(operation))
    assert woken.count == 3 and queue.last_ticket() == 3 and queue.backlog == 3
    t0, head = queue.snapshot(2)
    assert t0 == 3 and head == [(1, row("active")), (2, row("history"))]
    queue.written(2)
    assert queue.written_through(2) and not queue.written_through(3)
    assert queue.peek(10) == [(3, row("fact"))]


def test_a_full_queue_drops_its_oldest_items_while_the_store_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_queue, "AUDIT_QUEUE", 2)
    queue = AuditQueue(Woken(), lambda: False)
    queue.put(row("active"))
    queue.put(row("history"))
    queue.store_failed()
    queue.put(row("fact"))
    assert queue.dropped == 1 and queue.backlog == 2
    assert queue.written_through(1), "a dropped item counts as done for a flush"
    assert [ticket for ticket, _ in queue.peek(10)] == [2, 3]


def test_the_worker_itself_never_waits_on_a_full_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_queue, "AUDIT_QUEUE", 1)
    queue = AuditQueue(Woken(), lambda: True)
    queue.put(row("active"))
    queue.put(row("history"))
    assert queue.dropped == 1 and queue.peek(10) == [(2, row("history"))]
