"""Erasing a user leaves nothing: after `erase_subtree("user")` the erased values are searched
for in every store, and found nowhere.

On a Neo4j of the test's own (its transaction logs are read from disk after a checkpoint, and
its configuration is the managed one: graphmem/neo4j_local/neo4j.conf), with the relational
store on SQLite and on Postgres. Searched: every node and relationship property, the
full-text and vector indexes, every cell of every relational table (sealed values opened),
the stored bytes of the SQLite file, the caches of this process and of a second process
sharing the stores (tests/lifecycle/cache_holder.py), and the transaction log files once a
checkpoint has passed. Another user's values, written alongside, are found everywhere they
should be: the search is real.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet, InvalidToken
from pydantic import SecretStr

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import keys
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.recall.text import fact_text
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.llm_server import LLMServer, _vector

pytestmark = pytest.mark.races

HOLDER = Path(__file__).with_name("cache_holder.py")
# Long enough that Neo4j stores them as they are (short strings get a compact encoding).
ADDRESS = "Pat Quill lives at 42 Quiet Lane, Springfield, with a tabby called Marmalade"
DIAGNOSIS = "Pat Quill was diagnosed with a rare Kessler-Huang syndrome in March"
RAW = "Note from the intake call: Pat Quill moved to 42 Quiet Lane last spring"
KEPT = "Sam Rivers keeps a vegetable allotment behind the Old Mill on Ferry Road"
ERASED = (ADDRESS, DIAGNOSIS, RAW, "Kessler-Huang", "Marmalade")
QUESTION = "Where does Pat Quill live with Marmalade?"
CHECKPOINT_WAIT = 120.0


@pytest.fixture
def stores(private_neo4j: Settings, llm: LLMServer, relational_url: str,
           tmp_path: Path) -> Iterator[Runtime]:
    """A Runtime on the private Neo4j and a fresh relational store, embedding through the
    test model server, ranking from the second fact on."""
    settings = private_neo4j.model_copy(update={
        "database_url": SecretStr(relational_url), "embedding_base_url": llm.url,
        "recall_context": 1, "mirror_interval": 0.2, "embed_background": False,
        "audit_checkpoint_dir": tmp_path / "audit"})
    store = RelationalStore(settings.relational_url)
    store_migrations.up(store)
    runtime = Runtime(settings, GraphDriver(settings), store)
    yield runtime
    runtime.close()


def fill(runtime: Runtime, tenant: str) -> tuple[list[GraphMem], GraphMem, str]:
    """Pat's two spaces with a history, a decision and an attestation; Sam's space."""
    pat = [GraphMem(f"{tenant}/pat/{agent}/r1", runtime=runtime) for agent in ("intake", "care")]
    sam = GraphMem(f"{tenant}/sam/intake/r1", runtime=runtime)
    pat[0].remember_facts([{"subject": "home_address", "value": "Old Address 1 Elm Street in"
                            " Shelbyville"}], text=RAW, source="crm")
    pat[0].remember_facts([{"subject": "home_address", "value": ADDRESS},
                           {"subject": "home", "head": "Pat Quill", "relation": "lives_at",
                            "tail": "Marmalade Cottage at 42 Quiet Lane"}], text=RAW,
                          source="crm")
    pat[1].remember_facts([{"subject": "diagnosis", "value": DIAGNOSIS},
                           {"subject": "pet", "value": "Marmalade the tabby"}])
    pat[1].forget(facts=[{"subject": "pet", "value": "Marmalade the tabby"}])
    sam.remember_facts([{"subject": "hobby", "value": KEPT}])
    decision = pat[0].records.record_decision("send a letter to Pat Quill", ["home_address"])
    pat[1].records.attest()
    for mem in (*pat, sam):
        assert mem.recall(QUESTION).facts, "ranked, with vectors"
        mem.records.drain()
    return pat, sam, str(decision["receipt"]["id"])


def holder(runtime: Runtime, space: str, receipt_id: str, tmp_path: Path
           ) -> subprocess.Popen[str]:
    s = runtime.settings
    env = {"PATH": os.environ.get("PATH", ""), "GRAPHMEM_HOME": str(s.home),
           "GRAPHMEM_NEO4J_URI": s.bolt_uri,
           "GRAPHMEM_NEO4J_PASSWORD": s.neo4j_auth()[1],
           "GRAPHMEM_DATABASE_URL": s.relational_url,
           "GRAPHMEM_EMBEDDING_BASE_URL": str(s.embedding_base_url),
           "GRAPHMEM_RECALL_CONTEXT": "1", "GRAPHMEM_MIRROR_INTERVAL": "0.2",
           "GRAPHMEM_AUDIT_CHECKPOINT_DIR": str(tmp_path / "audit-holder"),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, str(HOLDER), space, receipt_id, QUESTION],
                            env=env, cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def report(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, f"the second process ended (exit {proc.poll()})"
    found: dict[str, Any] = json.loads(line)
    return found


def hits(texts: Any, values: tuple[str, ...] = ERASED) -> list[str]:
    blob = json.dumps(texts, default=str)
    return [v for v in values if v in blob]


# ---- the stores, searched ------------------------------------------------------------------
def graph_text(graph: GraphDriver) -> list[Any]:
    with graph.session() as s:
        nodes = [r["p"] for r in s.run("MATCH (n) RETURN properties(n) AS p")]
        edges = [r["p"] for r in s.run("MATCH ()-[r]->() RETURN properties(r) AS p")]
    return [{k: v for k, v in p.items() if k != "embedding"} for p in nodes + edges]


def index_hits(graph: GraphDriver, words: tuple[str, ...], vectors: list[list[float]]
               ) -> list[Any]:
    found: list[Any] = []
    with graph.session() as s:
        names = [r["name"] for r in s.run("SHOW FULLTEXT INDEXES YIELD name RETURN name")]
        for name in names:
            s.run("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()").consume()
            for word in words:
                found += [r["p"] for r in s.run(
                    "CALL db.index.fulltext.queryNodes($index, $q) YIELD node"
                    " RETURN properties(node) AS p", index=name, q=f'"{word}"')]
        for vector in vectors:
            found += [r["p"] for r in s.run(
                "CALL db.index.vector.queryNodes('fact_vector', 5, $v) YIELD node, score"
                " WHERE score > 0.9999 RETURN node.fact_id AS p", v=vector)]
    return found


def relational_text(runtime: Runtime) -> list[str]:
    """Every cell of every table, sealed cells opened with the data key (whatever row they
    claim to belong to)."""
    store = runtime.store
    fernet = Fernet(keys.data_keys(runtime.settings).fernet)
    if store.dialect.name == "sqlite":
        tables = [r[0] for r in store.query("SELECT name FROM sqlite_master WHERE type ="
                                            " 'table'")]
    else:
        tables = [r[0] for r in store.query("SELECT table_name FROM information_schema.tables"
                                            " WHERE table_schema = current_schema()")]
    cells: list[str] = []
    for table in tables:
        for row in store.query(f"SELECT * FROM {table}"):  # noqa: S608 - test's own listing
            for cell in row:
                text = str(cell)
                cells.append(text)
                if text[:3] in ("f1:", "f2:"):
                    try:
                        cells.append(fernet.decrypt(text[3:].encode()).decode())
                    except InvalidToken:
                        cells.append("<does not open>")
    return cells


def stored_file_bytes(runtime: Runtime) -> bytes:
    if runtime.store.dialect.name != "sqlite":
        return b""
    path = Path(runtime.store.url[len("sqlite:///"):])
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists())


def transaction_logs(settings: Settings) -> bytes:
    """Every transaction log file's bytes; a file Neo4j prunes between the listing and the
    read holds nothing any more."""
    folder = settings.neo4j_dir / "data" / "transactions" / "neo4j"
    found = []
    for path in sorted(folder.glob("neostore.transaction.db.*")):
        try:
            found.append(path.read_bytes())
        except FileNotFoundError:
            continue
    return b"".join(found)


def caches(runtime: Runtime) -> dict[str, Any]:
    return {"decrypted": runtime.mirror.cipher.cached_texts(),
            "vectors": runtime.ranker.vectors.cache.held(),
            "questions": runtime.embedder.cached_questions()}


# ---- the test ------------------------------------------------------------------------------
@pytest.mark.slow
def test_erasing_a_user_leaves_no_copy_in_any_store(stores: Runtime, tmp_path: Path) -> None:
    runtime, settings = stores, stores.settings
    pat, sam, receipt_id = fill(runtime, f"t-{uuid.uuid4().hex[:10]}")
    erased_ids = {e.fact.id for mem in pat for e in mem.history("home_address")} | {
        f.id for mem in pat for f in mem.active()}
    other = holder(runtime, pat[0].space.key, receipt_id, tmp_path)
    try:
        warm = report(other)
        assert hits(warm["decrypted"]) and warm["vectors"].get(pat[0].space.key) and hits(
            warm["questions"], (QUESTION,)), "the second process held the values"
        assert hits(caches(runtime)), "so did this one"
        assert hits(graph_text(runtime.graph)) and hits(relational_text(runtime))
        assert ADDRESS.encode() in transaction_logs(settings), "the log holds what was written"

        receipt = pat[0].erasure.erase_subtree("user")
        assert receipt["receipt"]["mirror"] == "erased"

        assert other.stdin is not None
        other.stdin.write("check\n")
        other.stdin.flush()
        after = report(other)
    finally:
        other.kill()
        other.wait(timeout=30)
    assert after["erasures_seen"], "the second process read the erasure from the log"
    assert hits(after) == [] and pat[0].space.key not in after["vectors"], after
    assert hits(caches(runtime)) == [] and pat[0].space.key not in caches(runtime)["vectors"]

    assert hits(graph_text(runtime.graph)) == []
    vectors = [_vector(fact_text(s, v), 384) for s, v in (("home_address", ADDRESS),
                                                         ("diagnosis", DIAGNOSIS))]
    found = index_hits(runtime.graph, ("Kessler", "Marmalade", "Quill", "Springfield"),
                       vectors)
    assert found == [], found
    assert not {str(i) for i in erased_ids} & {str(v) for v in graph_text(runtime.graph)}
    cells = relational_text(runtime)
    assert hits(cells) == [] and "send a letter" not in " ".join(cells)
    stored = stored_file_bytes(runtime)
    assert [v for v in ERASED if v.encode() in stored] == [], "SQLite overwrote the cells"
    assert hits(relational_text(runtime), (KEPT,)) == [KEPT], "the other user stays"
    assert hits(graph_text(runtime.graph), (KEPT,)) == [KEPT]

    deadline = time.monotonic() + CHECKPOINT_WAIT  # the next checkpoint prunes the old file
    while any(v.encode() in transaction_logs(settings) for v in ERASED):
        assert time.monotonic() < deadline, "the transaction logs still hold erased values"
        time.sleep(0.5)
