"""`graphmem audit verify` anchored outside the database, and `graphmem keys create --source`
with `graphmem sources set|list|remove`, as a user runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import audit, migrations
from graphmem.mirror.db import RelationalStore
from graphmem.settings import Settings

from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime

pytestmark = pytest.mark.races

GRAPHMEM = Path(sys.executable).parent / "graphmem"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GRAPHMEM), *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_verify_fails_when_a_receipt_s_head_or_a_checkpoint_is_gone(
        settings: Settings, graph: GraphDriver, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mirror.db'}"
    checkpoints = tmp_path / "audit"
    own = settings.model_copy(update={"home": tmp_path, "database_url": SecretStr(url),
                                      "audit_checkpoint_dir": checkpoints, **NO_EMBEDDER})
    runtime = open_runtime(own, graph)
    try:
        mem = GraphMem(f"t-{uuid.uuid4().hex[:12]}/u/a/r", runtime=runtime)
        mem.remember_facts([{"subject": "plan", "value": "pro"}])
        receipt = mem.records.attest()
        runtime.mirror.flush()
        assert receipt["receipt"]["audit_head"] != audit.GENESIS, "the write's row is in"
    finally:
        close_runtime(runtime)
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    user, password = settings.neo4j_auth()  # another home: its managed password is not there
    env = {**os.environ, "GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_DATABASE_URL": url,
           "GRAPHMEM_AUDIT_CHECKPOINT_DIR": str(checkpoints), "GRAPHMEM_NEO4J_USER": user,
           "GRAPHMEM_NEO4J_PASSWORD": password}
    ok = run(["audit", "verify", "--since-receipt", str(tmp_path / "receipt.json")], env)
    assert ok.returncode == 0 and ok.stdout.startswith("audit chain OK"), ok.stdout + ok.stderr
    [line_file] = list(checkpoints.glob("checkpoints-*.jsonl"))
    shutil.copy(line_file, tmp_path / "shipped.jsonl")  # the copy on write-once storage

    store = RelationalStore(url)
    with store.transaction() as cur:  # wiped, the head reset: consistent in itself
        cur.execute("DELETE FROM audit_log")
        cur.execute("DELETE FROM events")
        cur.execute("UPDATE audit_head SET seq = 0, hash = ?, at = '', signature = '',"
                    " key_id = ''", (audit.GENESIS,))
    store.close()
    line_file.unlink()  # and the home's checkpoint file with it
    alone = run(["audit", "verify"], env)
    assert alone.returncode == 0, "nothing left in the database or the home tells"
    receipt_says = run(["audit", "verify", "--since-receipt", str(tmp_path / "receipt.json")],
                       env)
    assert receipt_says.returncode == 1
    assert "no longer holds the head receipt" in receipt_says.stdout
    shipped = run(["audit", "verify", "--checkpoints", str(tmp_path / "shipped.jsonl")], env)
    assert shipped.returncode == 1
    assert "the chain was wiped or rolled back" in shipped.stdout
    missing = run(["audit", "verify", "--checkpoints", str(tmp_path / "nope.jsonl")], env)
    assert missing.returncode == 1 and "no checkpoint file" in missing.stderr


def test_sources_are_bound_from_the_command_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(GRAPHMEM_HOME=str(tmp_path), GRAPHMEM_DATABASE_URL=url)
    store = RelationalStore(url)
    migrations.up(store)
    store.close()
    created = run(["keys", "create", "--role", "writer", "--tenant", "acme", "--name",
                   "crm-sync", "--source", "crm"], env)
    assert created.returncode == 0 and "source crm" in created.stderr, created.stderr
    assert "source=crm" in run(["keys", "list"], env).stdout
    bad = run(["keys", "create", "--role", "writer", "--tenant", "acme", "--source",
               "claimed:crm"], env)
    assert bad.returncode == 1 and "marks claims" in bad.stderr
    bound = run(["sources", "set", "acme", "fhir", "--principal", "ehr-sync", "--trusted"],
                env)
    assert bound.returncode == 0 and "acme: fhir <- ehr-sync (trusted: yes" in bound.stdout
    listed = run(["sources", "list", "--tenant", "acme"], env).stdout
    assert "acme  fhir  principals=ehr-sync  trusted=yes  curated=no" in listed
    assert run(["sources", "remove", "acme", "fhir"], env).returncode == 0
    assert "no sources bound" in run(["sources", "list"], env).stdout
    gone = run(["sources", "remove", "acme", "fhir"], env)
    assert gone.returncode == 1 and "no entry for source" in gone.stderr


def test_verify_warns_and_fails_when_the_chain_has_no_checkpoint_file(
        settings: Settings, graph: GraphDriver, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mirror.db'}"
    checkpoints = tmp_path / "audit"
    witnessed = tmp_path / "witness.jsonl"
    own = settings.model_copy(update={"home": tmp_path, "database_url": SecretStr(url),
                                      "audit_checkpoint_dir": checkpoints,
                                      "audit_witness": str(witnessed), **NO_EMBEDDER})
    runtime = open_runtime(own, graph)
    try:
        GraphMem(f"t-{uuid.uuid4().hex[:12]}/u/a/r", runtime=runtime).remember_facts(
            [{"subject": "plan", "value": "pro"}])
        runtime.mirror.flush()
    finally:
        close_runtime(runtime)
    [line_file] = list(checkpoints.glob("checkpoints-*.jsonl"))
    assert line_file.read_text(), "the first head a process signs is anchored at once"
    assert witnessed.read_text() == line_file.read_text(), "the witness holds every line"
    line_file.unlink()
    user, password = settings.neo4j_auth()
    env = {**os.environ, "GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_DATABASE_URL": url,
           "GRAPHMEM_AUDIT_CHECKPOINT_DIR": str(checkpoints), "GRAPHMEM_NEO4J_USER": user,
           "GRAPHMEM_NEO4J_PASSWORD": password}
    unanchored = run(["audit", "verify"], env)
    assert unanchored.returncode == 1 and unanchored.stdout.startswith("audit chain OK")
    assert "warning: no checkpoint file at" in unanchored.stderr
    again = run(["audit", "verify"], env)
    assert again.returncode == 0, "the verify anchored the head it found intact"
