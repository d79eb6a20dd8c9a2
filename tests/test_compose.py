"""docker-compose.yml and the Dockerfile: validated by Compose itself (`docker compose` or the
standalone `docker-compose`; neither needs a running engine), and checked for structure and
consistency with the settings graphmem reads. No password is ever written in the file: they
are required variables, which scripts/compose-env.sh generates on first use.

The two tests that run Compose are skipped, with the reason, on a machine without it; under
CI (`CI` set, as `.ci/run` does, which installs Compose) a missing Compose fails them.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphmem.settings import load_settings

from support.compose import compose_or_skip, generated_env

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
_DEFAULTED = re.compile(r"\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}")
_REQUIRED = re.compile(r"\$\{([A-Z_][A-Z0-9_]*):\?([^}]*)\}")


def resolve(value: Any, env: dict[str, str]) -> str:
    """A Compose value with `${VAR:-default}` replaced by its default and `${VAR:?why}` by
    the variable from `env` (Compose refuses to start without it)."""
    text = _DEFAULTED.sub(lambda m: m.group(2), str(value))
    text = _REQUIRED.sub(lambda m: env[m.group(1)], text)
    assert "$" not in text, f"{value!r}: a variable with neither default nor requirement"
    return text


@pytest.fixture(scope="module")
def cli() -> list[str]:
    return compose_or_skip("docker-compose.yml")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    doc = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


def test_compose_config_validates(cli: list[str], tmp_path: Path) -> None:
    generated_env(tmp_path)
    proc = subprocess.run([*cli, "-f", str(COMPOSE), "--env-file", str(tmp_path / ".env"),
                           "config", "-q"], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_services_and_images(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"neo4j", "postgres", "graphmem"}
    assert services["neo4j"]["image"] == "neo4j:5.26"
    assert services["postgres"]["image"] == "postgres:16"
    assert services["graphmem"]["build"] == "."
    assert (ROOT / services["graphmem"]["build"] / "Dockerfile").is_file()


def test_every_service_has_a_healthcheck(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        check = service.get("healthcheck")
        assert check and check.get("test"), f"{name} has no healthcheck"
        assert check["test"][0] in ("CMD", "CMD-SHELL"), name
    graphmem = compose["services"]["graphmem"]
    assert "/readyz" in " ".join(graphmem["healthcheck"]["test"])
    assert graphmem["depends_on"] == {
        "neo4j": {"condition": "service_healthy"},
        "postgres": {"condition": "service_healthy"},
    }


def test_no_password_is_committed_and_every_one_is_required(compose: dict[str, Any]) -> None:
    text = COMPOSE.read_text()
    for name, service in compose["services"].items():
        for key, value in (service.get("environment") or {}).items():
            if "PASSWORD" in key or key in ("NEO4J_AUTH", "GRAPHMEM_DATABASE_URL"):
                assert not _DEFAULTED.search(str(value)), f"{name}.{key} has a default"
                assert _REQUIRED.search(str(value)), f"{name}.{key} is not a required variable"
    for former in ("graphmem-change-me", "POSTGRES_PASSWORD:-", "NEO4J_PASSWORD:-"):
        assert former not in text


def test_compose_refuses_to_start_without_the_passwords(cli: list[str],
                                                        tmp_path: Path) -> None:
    empty = tmp_path / "empty.env"
    empty.write_text("")
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("NEO4J_PASSWORD", "POSTGRES_PASSWORD")}
    proc = subprocess.run([*cli, "-f", str(COMPOSE), "--env-file", str(empty), "config", "-q"],
                          cwd=tmp_path, capture_output=True, text=True, check=False,
                          timeout=60, env=environment)
    assert proc.returncode != 0 and "compose-env.sh" in proc.stderr


def test_the_passwords_are_generated_once_and_kept(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("GRAPHMEM_LOG_LEVEL=DEBUG")  # an existing file is kept
    first = generated_env(tmp_path)
    assert first["GRAPHMEM_LOG_LEVEL"] == "DEBUG"
    neo4j, postgres = first["NEO4J_PASSWORD"], first["POSTGRES_PASSWORD"]
    assert re.fullmatch(r"[0-9a-f]{32}", neo4j) and re.fullmatch(r"[0-9a-f]{32}", postgres)
    assert neo4j != postgres
    assert (tmp_path / ".env").stat().st_mode & 0o077 == 0
    assert generated_env(tmp_path) == first  # a second run changes nothing
    other = tmp_path / "other"
    other.mkdir()
    assert generated_env(other)["NEO4J_PASSWORD"] != neo4j  # random, not a constant


def test_graphmem_reaches_the_other_two_with_their_credentials(compose: dict[str, Any],
                                                               tmp_path: Path) -> None:
    services = compose["services"]
    generated = generated_env(tmp_path)
    env = {k: resolve(v, generated) for k, v in services["graphmem"]["environment"].items()}
    neo4j_user, neo4j_password = resolve(services["neo4j"]["environment"]["NEO4J_AUTH"],
                                         generated).split("/")
    pg = {k: resolve(v, generated) for k, v in services["postgres"]["environment"].items()}
    assert env["GRAPHMEM_NEO4J_URI"] == "bolt://neo4j:7687"
    assert (env["GRAPHMEM_NEO4J_USER"], env["GRAPHMEM_NEO4J_PASSWORD"]) == (
        neo4j_user, neo4j_password)
    assert len(neo4j_password) >= 8, "Neo4j refuses passwords shorter than 8 characters"
    assert env["GRAPHMEM_DATABASE_URL"] == (
        f"postgresql://{pg['POSTGRES_USER']}:{pg['POSTGRES_PASSWORD']}@postgres:5432/"
        f"{pg['POSTGRES_DB']}"
    )
    settings = load_settings(**{k.removeprefix("GRAPHMEM_").lower(): v for k, v in env.items()})
    assert not settings.managed_neo4j
    assert settings.relational_url.startswith("postgresql://")


def test_ports_stay_on_loopback_and_volumes_are_declared(compose: dict[str, Any]) -> None:
    declared = set(compose.get("volumes") or {})
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} beyond loopback"
        for volume in service.get("volumes", []):
            source = str(volume).split(":")[0]
            assert source in declared, f"{name} uses undeclared volume {source}"


def test_dockerfile_runs_the_service() -> None:
    text = DOCKERFILE.read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.MULTILINE)
    assert re.search(r"pip install \.", text)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)
    assert cmd is not None
    assert yaml.safe_load(cmd.group(1))[:4] == ["graphmem", "serve", "--host", "0.0.0.0"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".graphmem", ".venv", ".env"} <= set(ignored)
