"""A key's denials of one operation reach the audit chain once a minute; the rest are
counted and folded into the next row."""

from __future__ import annotations

from graphmem.service.denials import DenialSampler


def test_a_keys_repeated_denials_fold_into_its_next_row() -> None:
    sampler = DenialSampler(seconds=60)
    assert sampler.row("key-a", "remember", now=0.0) == 0
    assert [sampler.row("key-a", "remember", now=t) for t in (1.0, 2.0, 59.0)] == [None] * 3
    assert sampler.row("key-a", "recall", now=2.0) == 0, "another operation: a row of its own"
    assert sampler.row("key-b", "remember", now=2.0) == 0, "another key: a row of its own"
    assert sampler.row("key-a", "remember", now=60.0) == 3, "the next row counts the rest"
    assert sampler.row("key-a", "remember", now=61.0) is None


def test_the_sampler_forgets_the_oldest_pair_when_full() -> None:
    sampler = DenialSampler(seconds=60, size=2)
    sampler.row("a", "x", now=0.0)
    sampler.row("b", "x", now=0.0)
    sampler.row("c", "x", now=0.0)
    assert sampler.row("a", "x", now=1.0) == 0, "forgotten: its next denial is a row again"
