"""docker-compose.yml and the Dockerfile: validated by Compose itself where it is installed
(`docker compose` or the standalone `docker-compose`; neither needs a running engine), and
always checked for structure and consistency with the settings graphmem reads.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphmem.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
_DEFAULTED = re.compile(r"\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}")


def compose_cli() -> list[str] | None:
    """`docker compose` (v2 plugin) or `docker-compose`, whichever answers `version`."""
    for cli in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(cli[0]) is None:
            continue
        probe = subprocess.run([*cli, "version"], capture_output=True, check=False, timeout=60)
        if probe.returncode == 0:
            return cli
    return None


def defaults(value: Any) -> str:
    """A Compose value with every `${VAR:-default}` replaced by its default."""
    assert "$" not in _DEFAULTED.sub("", str(value)), f"{value!r}: give every variable a default"
    return _DEFAULTED.sub(lambda m: m.group(2), str(value))


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    doc = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


def test_compose_config_validates() -> None:
    cli = compose_cli()
    if cli is None:
        # No Compose on this machine: the structural tests below are the whole check.
        assert isinstance(yaml.safe_load(COMPOSE.read_text()), dict)
        return
    proc = subprocess.run([*cli, "-f", str(COMPOSE), "config", "-q"], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=60)
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


def test_graphmem_reaches_the_other_two_with_their_credentials(compose: dict[str, Any]) -> None:
    services = compose["services"]
    env = {k: defaults(v) for k, v in services["graphmem"]["environment"].items()}
    neo4j_user, neo4j_password = defaults(services["neo4j"]["environment"]["NEO4J_AUTH"]).split("/")
    pg = {k: defaults(v) for k, v in services["postgres"]["environment"].items()}
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
