"""The operator's commands go through the service like every other caller: `graphmem erase
--tenant` erases a tenant's spaces with a signed receipt and an audit row, `audit log` lists
the tenant's rows, `mirror check` compares one space, `migrate status` names both schemas."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, settings: Settings, runtime: Runtime) -> CliRunner:
    """The session's Neo4j and relational store, no model."""
    monkeypatch.setenv("GRAPHMEM_HOME", str(settings.home))
    monkeypatch.setenv("GRAPHMEM_DATABASE_URL", settings.relational_url)
    if settings.neo4j_uri:
        monkeypatch.setenv("GRAPHMEM_NEO4J_URI", settings.neo4j_uri)
    if settings.neo4j_password is not None:
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.delenv("GRAPHMEM_LLM_BASE_URL", raising=False)
    return CliRunner()


def run(cli: CliRunner, *args: str) -> tuple[int, str]:
    result = cli.invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def test_erasing_a_tenant_from_the_command_line_is_audited(cli: CliRunner,
                                                           runtime: Runtime) -> None:
    tenant = isolation.tenant()
    for user in ("ana", "bo"):
        GraphMem(f"{tenant}/{user}", runtime=runtime).remember_facts(
            [{"subject": "plan", "value": "Pro", "confidence": 0.9}])
    code, out = run(cli, "erase", "--tenant", tenant)
    assert code == 0, out
    receipt = json.loads(out)
    assert receipt["receipt"]["facts"] == 2, receipt
    mem = GraphMem(f"{tenant}/ana", runtime=runtime)
    assert mem.active() == [] and GraphMem(f"{tenant}/bo", runtime=runtime).active() == []
    code, out = run(cli, "audit", "log", "--tenant", tenant, "--limit", "20")
    assert code == 0, out
    operations = [json.loads(line)["operation"] for line in out.splitlines()]
    assert "erase_subtree" in operations, operations


def test_mirror_check_and_migrate_status_answer_for_one_space(cli: CliRunner,
                                                              runtime: Runtime) -> None:
    mem = GraphMem(isolation.tenant(), runtime=runtime)
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    mem.records.drain()
    code, out = run(cli, "mirror", "check", "--space", mem.space.key)
    assert (code, out.strip()) == (0, "mirror agrees with the graph")
    code, out = run(cli, "migrate", "status")
    assert code == 0, out
    assert [line.split(":")[0] for line in out.splitlines()] == ["graph", "relational"]
    assert all(" of " in line for line in out.splitlines()), out
