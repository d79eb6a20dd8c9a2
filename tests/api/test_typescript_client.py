"""The typed TypeScript client (clients/typescript, GraphQL Code Generator's typed document
nodes): what is committed is what the generator writes from today's schema, it type-checks,
and its own tests (node --test) pass against a live server: a mutation, queries, Relay
pagination, a graphql-transport-ws subscription and refusals with their codes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.api_support import Api, new_tenant

pytestmark = pytest.mark.races  # a subscription's socket

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
NPM = shutil.which("npm")


def npm(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    assert NPM is not None, "the TypeScript client needs Node.js and npm"
    assert (CLIENT / "node_modules").is_dir(), (
        "`make clients-ts` installs the TypeScript client's locked dependencies")
    return subprocess.run([NPM, *args], cwd=CLIENT, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=300)


def test_the_committed_typescript_client_is_what_the_generator_writes() -> None:
    done = npm("run", "codegen:check")
    assert done.returncode == 0, "run `make clients` and commit what it writes:\n" + (
        done.stdout[-2000:] + done.stderr[-2000:])


def test_the_typescript_client_passes_its_tests_against_a_live_server(api: Api) -> None:
    built = npm("run", "build")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    done = npm("test", env={"GRAPHMEM_URL": f"{api.base}/graphql",
                            "GRAPHMEM_KEY": api.key("writer", new_tenant())})
    report = done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    assert "# pass 4" in done.stdout and "# fail 0" in done.stdout, report
