"""An embedder outage is logged once, then summarised once per quiet period, then its end."""

from __future__ import annotations

import logging

import pytest

from graphmem.embeddings import EmbedderUnavailable
from graphmem.recall.vectors import Outage


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records]


def test_a_dead_embedder_is_logged_once_per_quiet_period_not_once_per_write(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    outage = Outage(quiet=60, clock=clock)
    error = EmbedderUnavailable("connection refused")
    with caplog.at_level(logging.WARNING, logger="graphmem.recall.vectors"):
        for _ in range(500):  # 500 writes within the first minute
            outage.failed(1, error)
            clock.now += 0.1
        assert len(messages(caplog)) == 1
        assert "embedder unavailable, 1 fact(s) stored without vectors" in messages(caplog)[0]
        clock.now = 61
        outage.failed(2, error)
        assert len(messages(caplog)) == 2
        assert "still unavailable: 501 more fact(s)" in messages(caplog)[1]
        outage.failed(1, error)
        outage.worked()
        outage.worked()
    assert len(messages(caplog)) == 3
    assert "available again (1 more fact embedding(s) failed" in messages(caplog)[2]


def test_a_working_embedder_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage(quiet=60, clock=Clock())
    with caplog.at_level(logging.DEBUG, logger="graphmem.recall.vectors"):
        for _ in range(10):
            outage.worked()
    assert messages(caplog) == []
