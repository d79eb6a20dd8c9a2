"""What changed between two instants: each slot as it stood at the first compared with how it
stands at the second, on either clock. Pure: the graph supplies the facts whose times fall in
the window (`Span`s), this module says which slots differ and which events did it.

On the RECORDED clock a fact is current from `held_from` until `retired_at`, and a refinement
changes its value in place at the refinement's time. On the VALID clock a fact holds in the
world from `valid_from` (always, when unknown) until `valid_to`, as memory knows it now. A
fact that began and ended inside the window was never current at either end, so it is no
difference between them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from graphmem.model import Fact


class Clock(StrEnum):
    RECORDED = "RECORDED"
    VALID = "VALID"


class SlotChangeKind(StrEnum):
    ADDED = "ADDED"  # nothing compared at the start, something at the end
    REMOVED = "REMOVED"
    CHANGED = "CHANGED"


class Step(StrEnum):
    STARTED = "STARTED"  # became current (or began to hold)
    STOPPED = "STOPPED"
    REFINED = "REFINED"  # its value was rewritten in place


@dataclass(frozen=True)
class Span:
    """One fact's life on one clock, and the events that began and ended it."""

    fact: Fact
    start: datetime | None  # None: since always
    end: datetime | None  # None: still
    start_event: str | None = None
    end_event: str | None = None
    refined_at: datetime | None = None
    refined_event: str | None = None

    def holds_at(self, at: datetime) -> bool:
        return (self.start is None or self.start <= at) and (self.end is None or self.end > at)


@dataclass(frozen=True)
class Cause:
    """One event's part in a slot's change: what it did to which fact, and when."""

    step: Step
    fact_id: str
    at: datetime | None
    event: str | None


@dataclass(frozen=True)
class SlotChange:
    """A slot (subject and scope) whose facts differ between the two instants: `before`,
    those current at the start that are not at the end (with the values they had then);
    `after`, the reverse."""

    subject: str
    scope: str
    kind: SlotChangeKind
    before: tuple[Fact, ...]
    after: tuple[Fact, ...]
    causes: tuple[Cause, ...]

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject, self.scope)


def value_then(fact: Fact, at: datetime) -> Fact:
    """A refined fact as it read at `at`: the first revision made after then holds its value
    of that time."""
    for revision in fact.revisions:
        when = _time(revision.get("at"))
        if when is not None and when > at and revision.get("value") is not None:
            return Fact(**{**fact.__dict__, "value": str(revision["value"])})
    return fact


def _time(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return None


def compare(spans: Iterable[Span], start: datetime, end: datetime, clock: Clock
            ) -> list[SlotChange]:
    """The slots whose current facts at `start` differ from those at `end`, by slot."""
    slots: dict[tuple[str, str], list[Span]] = {}
    for span in spans:
        slots.setdefault((span.fact.subject, span.fact.scope), []).append(span)
    found = [change for key in sorted(slots)
             if (change := _slot(key, slots[key], start, end, clock)) is not None]
    return found


def _slot(key: tuple[str, str], spans: list[Span], start: datetime, end: datetime,
          clock: Clock) -> SlotChange | None:
    def at(span: Span, moment: datetime) -> Fact:
        return value_then(span.fact, moment) if clock == Clock.RECORDED else span.fact

    then = {s.fact.id: at(s, start) for s in spans if s.holds_at(start)}
    now = {s.fact.id: at(s, end) for s in spans if s.holds_at(end)}
    gone = [f for fid, f in then.items() if fid not in now or now[fid].value != f.value]
    came = [f for fid, f in now.items() if fid not in then or then[fid].value != f.value]
    if not gone and not came:
        return None
    causes: list[Cause] = []
    for span in spans:
        fid = span.fact.id
        if fid in now and fid not in then:
            causes.append(Cause(Step.STARTED, fid, span.start, span.start_event))
        elif fid in then and fid not in now:
            causes.append(Cause(Step.STOPPED, fid, span.end, span.end_event))
        elif fid in then and then[fid].value != now[fid].value:
            inside = span.refined_at is not None and start < span.refined_at <= end
            causes.append(Cause(Step.REFINED, fid, span.refined_at if inside else None,
                                span.refined_event if inside else None))
    causes.sort(key=lambda c: (c.at is None, c.at or start, c.fact_id))
    kind = (SlotChangeKind.ADDED if not gone else
            SlotChangeKind.REMOVED if not came else SlotChangeKind.CHANGED)
    return SlotChange(key[0], key[1], kind, tuple(gone), tuple(came), tuple(causes))
