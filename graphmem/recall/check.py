"""check_before_act: may an action rely on these subjects' current facts?

It refuses, with every reason, when a subject has no current value, when a fact it depends
on is flagged or has a change pending approval, when the value is older than `max_age`, or
when it changed within GRAPHMEM_CHANGE_WINDOW_SECONDS (a fresh change may still be undone).
No model call: it reads only the hot facts of the subjects named.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time, row_to_fact
from graphmem.graph.reads import value_at
from graphmem.model import ConflictKind, Fact, Status
from graphmem.model.recall import ActCheck


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f}{unit}"
    return f"{seconds:.3g}s"


MAX_AGE = timedelta(days=365 * 1000)


def _max_age(max_age: timedelta | float | None) -> timedelta | None:
    """A positive age of at most MAX_AGE: older than that, no stored time can be."""
    if max_age is None:
        return None
    seconds = (max_age.total_seconds() if isinstance(max_age, timedelta)
               else float(max_age))
    if not 0 < seconds <= MAX_AGE.total_seconds():
        raise InvalidInput(f"max_age (maxAgeSeconds) must be a positive number of seconds up to"
                           f" {MAX_AGE.total_seconds():,.0f} ({MAX_AGE.days // 365:,} years),"
                           f" got {seconds:g}")
    return timedelta(seconds=seconds)


def _changed_at(row: dict[str, Any], fact: Fact, now: datetime) -> datetime | None:
    """When the value last changed: a refinement, or taking over from a former value."""
    times = [as_time(r.get("at")) for r in fact.revisions]
    if fact.supersedes:
        times.append(as_time(row.get("held_from")) or fact.recorded_at)
    known = [t for t in times if t is not None and t <= now]
    return max(known) if known else None


def _reasons(subject: str, rows: list[dict[str, Any]], age: timedelta | None, window: int,
             now: datetime, as_of: datetime | None = None) -> tuple[list[str], list[Fact]]:
    reasons: list[str] = []
    active: list[Fact] = []
    for row in rows:
        fact = row_to_fact(row)
        if as_of is not None:
            fact = value_at(fact, as_of)
        kinds = set(row.get("open_conflicts") or ())
        if fact.status == Status.FLAGGED_CONFLICT:
            what = ("a change pending approval" if ConflictKind.PENDING.value in kinds
                    else "a flagged conflicting claim")
            reasons.append(f"{subject} has {what}: #{fact.id} {fact.value}")
            continue
        active.append(fact)
        if kinds:
            reasons.append(f"{subject} = {fact.value} (#{fact.id}) is part of an open"
                           f" {'/'.join(sorted(kinds))} conflict")
        recorded = _changed_at(row, fact, now) or fact.recorded_at
        if age is not None and recorded is not None and now - recorded > age:
            reasons.append(f"{subject} = {fact.value} (#{fact.id}) is"
                           f" {_age((now - recorded).total_seconds())} old, older than"
                           f" max_age {_age(age.total_seconds())}")
        changed = _changed_at(row, fact, now)
        if window and changed is not None and now - changed < timedelta(seconds=window):
            reasons.append(f"{subject} changed {_age((now - changed).total_seconds())} ago"
                           f" (within the {window}s change window): #{fact.id} {fact.value}")
    if not active and not reasons:
        reasons.append(f"{subject} has no current value")
    return reasons, active


def check_before_act(graph: GraphDriver, space: str, subjects: Sequence[str],
                     max_age: timedelta | float | None, window: int, now: datetime,
                     as_of: datetime | None = None, valid_at: datetime | None = None
                     ) -> ActCheck:
    """Subjects must already be canonical (the caller folds them onto declared slots).
    With `as_of` the check is made as it would have been then (memory as it stood, `now`
    being that instant); with `valid_at` only facts true in the world then count."""
    if not subjects:
        raise InvalidInput("check_before_act needs at least one subject")
    age = _max_age(max_age)
    by_subject: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in recall.check_subjects(graph, space, list(subjects), as_of, valid_at):
        by_subject[row["fact"]["subject"]].append(row["fact"])
    reasons: list[str] = []
    facts: list[Fact] = []
    for subject in dict.fromkeys(subjects):
        found, active = _reasons(subject, by_subject.get(subject, []), age, window,
                                 as_of or now, as_of)
        reasons += found
        facts += active
    return ActCheck(not reasons, tuple(reasons), tuple(facts))
