"""Replay: values said at times, imported out of order, land in their chronology; and the
valid-time rule of a backfill (a backdated value never supersedes a newer one)."""

from __future__ import annotations

import csv
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.errors import AccessDenied, InvalidInput
from graphmem.service.context import Caller

Make = Callable[..., GraphMem]
START = datetime(2023, 1, 1, tzinfo=UTC)


def dated_values(subjects: int, values: int, seed: int) -> list[tuple[str, str, datetime]]:
    """`values` values over `subjects` subjects, each at its own instant (none shared)."""
    rng = random.Random(seed)
    instants = rng.sample(range(0, 2 * 365 * 24 * 60), values)
    rows = []
    for index, minute in enumerate(instants):
        subject = f"metric_{index % subjects:02d}"
        rows.append((subject, f"{subject}-value-{index}", START + timedelta(minutes=minute)))
    return rows


def write_csv(path: Path, rows: list[tuple[str, str, datetime]], seed: int) -> None:
    shuffled = rows[:]
    random.Random(seed).shuffle(shuffled)
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["subject", "value", "time", "source"])
        for subject, value, at in shuffled:
            out.writerow([subject, value, at.isoformat(), "sensor"])


def truth_at(rows: list[tuple[str, str, datetime]], at: datetime) -> dict[str, str]:
    """The chronological truth, computed here on its own: each subject's latest value said
    at or before `at`."""
    latest: dict[str, tuple[datetime, str]] = {}
    for subject, value, when in rows:
        if when <= at and (subject not in latest or when > latest[subject][0]):
            latest[subject] = (when, value)
    return {subject: value for subject, (_, value) in latest.items()}


def test_a_replayed_csv_lands_in_its_chronology(make_mem: Make, tmp_path: Path) -> None:
    rows = dated_values(subjects=50, values=500, seed=7)
    path = tmp_path / "values.csv"
    write_csv(path, rows, seed=11)
    mem = make_mem()
    report = mem.transfer.import_memory(path, batch=120)
    assert (report.mode, report.format, report.records) == ("replay", "csv", 500)
    assert report.written == {"facts": 500} and report.unmapped == ()
    for subject in sorted({r[0] for r in rows}):
        said = sorted((at, value) for s, value, at in rows if s == subject)
        history = mem.history(subject)
        assert [e.value for e in history] == [v for _, v in said], subject
        assert [e.status for e in history] == ["SUPERSEDED"] * (len(said) - 1) + ["ACTIVE"]
        assert [e.fact.recorded_at for e in history] == [at for at, _ in said]
    rng = random.Random(3)
    for _ in range(20):
        at = START + timedelta(minutes=rng.randrange(0, 2 * 365 * 24 * 60))
        held = {f.subject: f.value for f in mem.active(as_of=at)}
        assert held == truth_at(rows, at), at
        true = {f.subject: f.value for f in mem.active(valid_at=at)}
        assert true == truth_at(rows, at), at
    assert mem.transfer.import_memory(path).already


def test_a_backdated_value_does_not_supersede_a_newer_one(make_mem: Make) -> None:
    mem = make_mem()
    jan, jun = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC)
    mem.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.9,
                         "recorded_at": jun.isoformat()}])
    older = mem.remember_facts([{"subject": "plan", "value": "Free", "confidence": 0.9,
                                 "recorded_at": jan.isoformat()}])[0]
    assert str(older) == "Stored: [ARCHIVE] plan = Free"
    assert [f.value for f in mem.active("plan")] == ["Pro"]
    assert [f.value for f in mem.active("plan", valid_at=jan + timedelta(days=1))] == ["Free"]
    assert [f.value for f in mem.active("plan", valid_at=jun + timedelta(days=1))] == ["Pro"]
    archived = mem.records.fact(older.fact_id or "")
    assert (archived.status.value, archived.valid_from, archived.valid_to) == (
        "HISTORICAL", jan, jun)
    newer = mem.remember_facts([{"subject": "plan", "value": "Team", "confidence": 0.9,
                                 "valid_from": (jun + timedelta(days=30)).isoformat()}])[0]
    assert str(newer) == "Stored: [SUPERSEDE] plan = Team"


def test_a_backdated_removal_older_than_the_value_removes_nothing(make_mem: Make) -> None:
    mem = make_mem()
    mem.remember_facts([{"subject": "tool", "value": "Sentry", "confidence": 0.9,
                         "recorded_at": "2024-06-01T00:00:00+00:00"}])
    gone = mem.forget(facts=[{"subject": "tool", "value": "Sentry", "confidence": 0.9,
                              "recorded_at": "2024-01-01T00:00:00+00:00"}])[0]
    assert gone.action.value == "SKIP"
    assert [f.value for f in mem.active("tool")] == ["Sentry"]


def test_time_stamped_writes_need_the_backfill_capability(make_mem: Make) -> None:
    writer = make_mem(caller=Caller("pipeline", frozenset({"read", "write"})))
    for field in ("recorded_at", "valid_from"):
        with pytest.raises(AccessDenied, match="backfill"):
            writer.remember_facts([{"subject": "plan", "value": "Pro",
                                    field: "2024-01-01T00:00:00+00:00"}])
    assert writer.active() == []
    importer = make_mem(space=writer.space.key, caller=Caller(
        "loader", frozenset({"read", "write", "backfill"})))
    stored = importer.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.9,
                                       "recorded_at": "2024-01-01T00:00:00+00:00"}])[0]
    recorded = importer.records.fact(stored.fact_id or "").recorded_at
    assert recorded == datetime(2024, 1, 1, tzinfo=UTC)
    with pytest.raises(InvalidInput, match="later than now"):
        importer.remember_facts([{"subject": "plan", "value": "Team",
                                  "recorded_at": "2999-01-01T00:00:00+00:00"}])
    with pytest.raises(AccessDenied, match="backfill"):
        writer.transfer.import_memory(__file__)


def test_a_replay_leaves_out_what_an_undo_voided(make_mem: Make, tmp_path: Path) -> None:
    """An added value undone never held, so a replay of the export does not say it; an
    undone supersede replays as the value it restored."""
    source = make_mem()
    added = source.remember_facts([{"subject": "user_city", "value": "Paris",
                                    "confidence": 0.9}])[0]
    source.review.undo(added.event_id or "")
    source.remember_facts([{"subject": "region", "value": "eu-west", "confidence": 0.9}])
    moved = source.remember_facts([{"subject": "region", "value": "us-east",
                                    "confidence": 0.9}])[0]
    source.review.undo(moved.event_id or "")
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    target = make_mem()
    report = target.transfer.import_memory(path, mode="replay")
    assert "2 undone facts not replayed: an undo voided them" in " ".join(report.unmapped)
    assert [(f.subject, f.value) for f in target.active()] == [("region", "eu-west")]
    assert [f.value for f in target.active()] == [f.value for f in source.active()]
