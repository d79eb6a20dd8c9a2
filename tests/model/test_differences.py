"""The comparison of two instants, without a database: which slots differ, how, and by which
events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.model import Fact
from graphmem.model.differences import Clock, SlotChangeKind, Span, Step, compare

T0 = datetime(2026, 1, 1, tzinfo=UTC)
H = timedelta(hours=1)


def span(fid: str, value: str, start: datetime | None, end: datetime | None = None,
         subject: str = "city", revisions: tuple[dict[str, Any], ...] = (),
         refined_at: datetime | None = None, refined_event: str | None = None) -> Span:
    fact = Fact(id=fid, space="s", subject=subject, value=value, revisions=revisions)
    return Span(fact, start, end, f"e-{fid}-start", f"e-{fid}-end", refined_at,
                refined_event)


def test_a_superseded_value_is_a_change_with_both_events() -> None:
    found = compare([span("a", "Paris", T0, T0 + 2 * H), span("b", "Berlin", T0 + 2 * H)],
                    T0 + H, T0 + 3 * H, Clock.RECORDED)
    assert len(found) == 1 and found[0].kind == SlotChangeKind.CHANGED
    assert [(c.step, c.event) for c in found[0].causes] == [
        (Step.STOPPED, "e-a-end"), (Step.STARTED, "e-b-start")]


def test_a_value_that_came_and_went_inside_the_window_is_no_change() -> None:
    assert compare([span("a", "Oslo", T0 + H, T0 + 2 * H)], T0, T0 + 3 * H,
                   Clock.RECORDED) == []


def test_added_and_removed_slots() -> None:
    found = compare([span("a", "x", T0 + H, subject="new"),
                     span("b", "y", T0, T0 + H, subject="gone")], T0 + H / 2, T0 + 2 * H,
                    Clock.RECORDED)
    assert [(c.subject, c.kind) for c in found] == [
        ("gone", SlotChangeKind.REMOVED), ("new", SlotChangeKind.ADDED)]


def test_a_refinement_reads_the_value_each_end_had() -> None:
    refined = span("a", "Google DeepMind", T0, revisions=(
        {"value": "Google", "at": (T0 + H).isoformat(), "source": ""},),
        refined_at=T0 + H, refined_event="e-refine")
    found = compare([refined], T0 + H / 2, T0 + 2 * H, Clock.RECORDED)
    assert [f.value for f in found[0].before] == ["Google"]
    assert [f.value for f in found[0].after] == ["Google DeepMind"]
    assert [(c.step, c.event) for c in found[0].causes] == [(Step.REFINED, "e-refine")]
    assert compare([refined], T0 + 2 * H, T0 + 3 * H, Clock.RECORDED) == []


def test_the_valid_clock_ignores_refinements_and_knows_since_always() -> None:
    always = span("a", "blue", None, T0 + H, revisions=(
        {"value": "navy", "at": (T0 + H / 2).isoformat()},))
    found = compare([always], T0, T0 + 2 * H, Clock.VALID)
    assert [(c.kind, [f.value for f in c.before]) for c in found] == [
        (SlotChangeKind.REMOVED, ["blue"])]
