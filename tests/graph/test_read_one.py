"""Single-statement reads run auto-commit (one round trip); a transient failure is run
again in a managed, retried transaction, and anything else surfaces unchanged."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from neo4j import Session
from neo4j.exceptions import ClientError, TransientError

from graphmem import GraphMem
from graphmem.graph.rows import read_one

pytestmark = pytest.mark.races


def _failing_once(monkeypatch: pytest.MonkeyPatch, error: Exception) -> list[str]:
    failed: list[str] = []
    original, caller = Session.run, threading.get_ident()

    def run(session: Session, text: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed and threading.get_ident() == caller:  # not a background worker's
            failed.append(str(text))
            raise error
        return original(session, text, *args, **kwargs)

    monkeypatch.setattr(Session, "run", run)
    return failed


def test_a_transient_failure_is_retried_in_a_managed_transaction(
        mem: GraphMem, monkeypatch: pytest.MonkeyPatch) -> None:
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    failed = _failing_once(monkeypatch, TransientError("deadlock, try again"))
    rows = read_one(mem.runtime.graph, "facts/history", space=mem.space.key, subject="db",
                    scope=None)
    assert failed and [r["fact"]["value"] for r in rows] == ["Postgres"]


def test_other_errors_surface_unchanged(mem: GraphMem, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    _failing_once(monkeypatch, ClientError("syntax error"))
    with pytest.raises(ClientError, match="syntax error"):
        read_one(mem.runtime.graph, "facts/history", space=mem.space.key, subject="db", scope=None)
