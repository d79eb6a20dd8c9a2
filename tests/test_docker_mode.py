"""`make test-docker` without a Docker engine: the run stops before any test, saying why,
instead of skipping or falling back to another server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.containers import NEO4J_IMAGE, POSTGRES_IMAGE

ROOT = Path(__file__).resolve().parents[1]


def test_make_test_docker_runs_pytest_in_docker_mode() -> None:
    dry = subprocess.run(["make", "-n", "test-docker", "PYTEST_ARGS=-k nothing",
                          "PYTEST_WORKERS=2"], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=60)
    assert "GRAPHMEM_TEST_DOCKER=1 .venv/bin/pytest -n 2 --dist loadgroup -k nothing" in dry.stdout
    assert "neo4j install" not in dry.stdout and "test-postgres" not in dry.stdout


def test_docker_mode_without_an_engine_stops_the_run_with_the_reason() -> None:
    env = {**os.environ, "GRAPHMEM_TEST_DOCKER": "1", "DOCKER_HOST": "tcp://127.0.0.1:1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests/model"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert f"{NEO4J_IMAGE} and {POSTGRES_IMAGE}" in run.stderr
    assert "no Docker engine answers at tcp://127.0.0.1:1" in run.stderr
    assert "passed" not in run.stdout and "skipped" not in run.stdout
