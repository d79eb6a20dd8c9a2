"""`graphmem keys create|list|revoke` as a user runs them: the key printed once, on stdout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.auth import KeyStore
from graphmem.auth.pepper import load_pepper
from graphmem.mirror import migrations
from graphmem.mirror.db import RelationalStore
from graphmem.settings import load_settings

pytestmark = pytest.mark.races

GRAPHMEM = Path(sys.executable).parent / "graphmem"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GRAPHMEM), "keys", *args], env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_create_list_revoke(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(GRAPHMEM_HOME=str(tmp_path), GRAPHMEM_DATABASE_URL=url)
    missing = run(["list"], env)
    assert missing.returncode == 1 and "graphmem migrate up" in missing.stderr
    store = RelationalStore(url)
    migrations.up(store)

    created = run(["create", "--role", "writer", "--tenant", "acme", "--spaces",
                   "alice,bob/bot", "--name", "ingest"], env)
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip()
    assert token.startswith("gm_sk_") and "\n" not in token
    assert "not shown again" in created.stderr
    principal = KeyStore(store, load_pepper(load_settings(home=tmp_path))).authenticate(token)
    assert (principal.tenant, principal.role, principal.spaces) == ("acme", "writer",
                                                                   ("alice", "bob/bot"))

    listed = run(["list"], env)
    assert listed.returncode == 0 and token not in listed.stdout
    assert "ingest  tenant=acme  role=writer  spaces=alice,bob/bot" in listed.stdout

    revoked = run(["revoke", principal.key_id or ""], env)
    assert revoked.returncode == 0 and "revoked" in revoked.stdout
    assert "revoked" in run(["list", "--tenant", "acme"], env).stdout

    bad = run(["create", "--role", "root", "--tenant", "acme"], env)
    assert bad.returncode == 1 and bad.stderr.startswith("error: unknown role 'root'")
    store.close()
