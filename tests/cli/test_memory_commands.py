"""`graphmem remember|recall|history|conflicts` end to end: the real CLI, settings from the
environment, the test LLM server, a real Neo4j."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.settings import Settings

from support import isolation
from support.llm_server import LLMServer


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, settings: Settings, runtime: object,
        llm: LLMServer) -> CliRunner:
    """Environment for the CLI: the session's Neo4j and relational store, the test LLM."""
    monkeypatch.setenv("GRAPHMEM_HOME", str(settings.home))
    monkeypatch.setenv("GRAPHMEM_DATABASE_URL", settings.relational_url)
    if settings.neo4j_uri:
        monkeypatch.setenv("GRAPHMEM_NEO4J_URI", settings.neo4j_uri)
    if settings.neo4j_password is not None:
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", llm.url)
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "test-model")
    return CliRunner()


@pytest.fixture
def space() -> str:
    return f"{isolation.tenant()}/cli"


def run(cli: CliRunner, *args: str) -> tuple[int, str, str]:
    result = cli.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_remember_recall_history_and_conflicts(cli: CliRunner, llm: LLMServer,
                                              space: str) -> None:
    llm.extraction("We are on Pro", {"subject": "plan", "value": "Pro", "confidence": 0.95})
    llm.extraction("Actually we are on Free", {"subject": "plan", "value": "Free",
                                               "confidence": 0.8})
    assert run(cli, "remember", "We are on Pro", "--space", space, "--source", "crm") == (
        0, "Stored: [ADD] plan = Pro\n", "")
    assert run(cli, "remember", "Actually we are on Free", "--space", space,
               "--source", "crm") == (0, "Stored: [FLAG] plan = Free\n", "")

    code, out, _ = run(cli, "recall", "what plan are we on?", "--space", space, "--explain")
    assert code == 0
    assert out.startswith("Answer from 2 facts.\n\n⚠ OPEN CONFLICTS")
    assert "Based on these facts:\n• #" in out and "plan = Pro [conf 0.95, from crm]" in out

    code, out, _ = run(cli, "history", "plan", "--space", space)
    assert (code, out) == (0, "History for 'plan' (oldest → newest):\n  1. Pro [ACTIVE]\n"
                              "  2. Free [FLAGGED_CONFLICT]\n")

    code, out, _ = run(cli, "conflicts", "--space", space)
    assert code == 0 and " [open] uncertainty (medium): #f" in out
    assert run(cli, "conflicts", "--space", space, "--status", "resolved")[1] == (
        "No resolved conflicts.\n")
    assert llm.count("extract") == 2 and llm.count("answer") == 1


def test_recall_as_of_needs_a_timezone(cli: CliRunner, space: str) -> None:
    code, out, err = run(cli, "recall", "what plan?", "--space", space, "--as-of",
                         "2026-01-01T00:00:00")
    assert (code, out) == (1, "")
    assert err == "error: --as-of needs a timezone, e.g. 2026-03-01T00:00:00+00:00\n"


def test_remember_without_an_llm_is_one_clear_line(cli: CliRunner, space: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHMEM_LLM_BASE_URL")
    code, _, err = run(cli, "remember", "We are on Pro", "--space", space)
    assert code == 1
    assert err.startswith("error: remember(text) and forget(text) need an LLM")
    assert err.count("\n") == 1
