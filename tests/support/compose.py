"""Compose for the tests that validate Compose files offline (`config` needs no engine), and
the secrets scripts/compose-env.sh generates for them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "compose-env.sh"


def compose_cli() -> list[str] | None:
    """`docker compose` (v2 plugin) or `docker-compose`, whichever answers `version`."""
    for cli in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(cli[0]) is None:
            continue
        probe = subprocess.run([*cli, "version"], capture_output=True, check=False, timeout=60)
        if probe.returncode == 0:
            return cli
    return None


def compose_or_skip(what: str) -> list[str]:
    """The Compose command; a skip with the reason where there is none (a failure in CI,
    which installs Compose)."""
    found = compose_cli()
    if found is not None:
        return found
    why = "neither `docker compose` nor `docker-compose` answers `version`"
    if os.environ.get("CI"):
        pytest.fail(f"CI installs Compose (.ci/run), yet {why}", pytrace=False)
    pytest.skip(f"Compose's own validation of {what} needs Compose: {why}")


def generated_env(tmp: Path, *flags: str) -> dict[str, str]:
    """What scripts/compose-env.sh writes into a fresh .env under `tmp`."""
    env_file = tmp / ".env"
    subprocess.run(["bash", str(SCRIPT), str(env_file), *flags], check=True,
                   capture_output=True, timeout=60)
    lines = env_file.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line)
