"""The managed local Neo4j: the running one is inspected, never restarted or duplicated.

Failure paths run against a fake installation (a data directory whose lib/ holds an empty
`neo4j-5.26.30.jar`) and fake `java` scripts on PATH, so no second server is ever started.
"""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.errors import ManagedNeo4jError
from graphmem.graph.driver import GraphDriver
from graphmem.neo4j_local import jars, manager
from graphmem.neo4j_local.jars import locked_jars
from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.settings import Settings, load_settings

from support import loopback

pytestmark = pytest.mark.races

GRAPHMEM = Path(sys.executable).parent / "graphmem"
FAKE_VERSION = "5.26.30"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serve_folder(folder: Path) -> Iterator[str]:
    """A real HTTP server on loopback serving `folder` (a stand-in Maven repository)."""
    folder.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# ---- the running managed server --------------------------------------------------------------
@pytest.fixture
def managed(settings: Settings) -> LocalNeo4j:
    if not settings.managed_neo4j:
        pytest.skip("GRAPHMEM_NEO4J_URI points at an external Neo4j: no managed server to test")
    return LocalNeo4j(settings)


def test_status_shows_version_ports_and_pid(managed: LocalNeo4j) -> None:
    status = managed.status()
    assert status.installed and status.running
    assert status.pid == int(managed.pid_file.read_text())
    assert status.version is not None and re.fullmatch(r"5\.26\.\d+", status.version)
    text = str(status)
    assert f"Neo4j {status.version}: running (pid {status.pid})" in text
    assert f"bolt://127.0.0.1:{managed.settings.neo4j_bolt_port}" in text
    assert f"http://127.0.0.1:{managed.settings.neo4j_http_port}/browser/" in text


def test_status_command(managed: LocalNeo4j) -> None:
    result = CliRunner().invoke(
        app, ["neo4j", "status"], env={"GRAPHMEM_HOME": str(managed.settings.home)}
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(managed.status())


def test_second_start_finds_the_running_server(managed: LocalNeo4j) -> None:
    before = managed.status()
    again = LocalNeo4j(managed.settings).start()
    assert again.running
    assert again.pid == before.pid


def test_bolt_answers_with_the_generated_password(managed: LocalNeo4j) -> None:
    password_file = managed.settings.password_file
    assert stat.S_IMODE(password_file.stat().st_mode) == 0o600
    graph = GraphDriver(managed.settings)
    try:
        with graph.session() as session:
            assert session.run("RETURN 1 AS one").single(strict=True)["one"] == 1
    finally:
        graph.close()


def test_browser_is_served(managed: LocalNeo4j) -> None:
    response = loopback.get(f"http://127.0.0.1:{managed.settings.neo4j_http_port}/browser/")
    assert response.status_code == 200
    assert "text/html" in response.headers["content-type"]
    assert "neo4j" in response.text.lower()


# ---- failure paths on a fake installation ------------------------------------------------------
def test_the_server_runs_with_the_distributions_jvm_options(managed: LocalNeo4j) -> None:
    """Started as the official tarball's neo4j.conf starts it: the page cache, the
    transaction log and Bolt get the JDK internals their fast paths need, and the heap is
    sized up front, so the debug log of this run carries none of the fallback warnings."""
    pid = managed.status().pid
    args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    for option in manager.JVM_OPTIONS:
        assert option in args
    extra = managed.settings.neo4j_jvm_options.split()
    assert extra, "the suite's servers run with GRAPHMEM_NEO4J_JVM_OPTIONS"
    assert args[args.index(manager.JVM_OPTIONS[-1]) + 1:][:len(extra)] == extra
    assert f"-Xms{managed.settings.neo4j_heap}" in args
    log = (managed.logs / "debug.log").read_text(errors="replace")
    this_run = log[log.rindex("Logging config in use"):]
    assert "using fallback mode" not in this_run
    assert "initial heap memory has not been configured" not in this_run


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def fake_home(tmp_path: Path) -> Path:
    """The layout `install` leaves, with an empty jar standing in for the real ones."""
    root = tmp_path / "home" / "neo4j"
    for sub in ("lib", "conf", "data", "logs", "run", "plugins", "import"):
        (root / sub).mkdir(parents=True)
    (root / "lib" / f"neo4j-{FAKE_VERSION}.jar").touch()
    return tmp_path / "home"


def fake_settings(home: Path, **changes: object) -> Settings:
    ports = {"neo4j_bolt_port": free_port(), "neo4j_http_port": free_port()}
    return load_settings(home=home, **{**ports, **changes})


def fake_java(folder: Path, script: str) -> Path:
    """A folder holding only a `java` that runs `script`: put it first (or alone) on PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    java = folder / "java"
    java.write_text(f"#!/bin/sh\n{script}\n")
    java.chmod(0o755)
    return folder


@pytest.fixture
def listening() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def test_fake_installation_reports_its_version(fake_home: Path) -> None:
    status = LocalNeo4j(fake_settings(fake_home)).status()
    assert (status.installed, status.running, status.version) == (True, False, FAKE_VERSION)
    assert "stopped" in str(status)


@pytest.mark.parametrize("which", ["neo4j_bolt_port", "neo4j_http_port"])
def test_a_taken_port_is_a_clear_error(fake_home: Path, listening: int, which: str) -> None:
    local = LocalNeo4j(fake_settings(fake_home, **{which: listening}))
    with pytest.raises(ManagedNeo4jError) as info:
        local.start()
    message = str(info.value)
    assert f"port {listening} on 127.0.0.1 is taken" in message
    assert "GRAPHMEM_NEO4J_BOLT_PORT" in message and "GRAPHMEM_NEO4J_HTTP_PORT" in message
    assert not local.pid_file.exists()


def test_start_before_install_says_to_install(tmp_path: Path) -> None:
    local = LocalNeo4j(fake_settings(tmp_path / "empty"))
    assert "not installed" in str(local.status())
    with pytest.raises(ManagedNeo4jError, match=r"not installed: run `graphmem neo4j install`"):
        local.start()


def test_java_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    local = LocalNeo4j(fake_settings(tmp_path / "home"))
    with pytest.raises(ManagedNeo4jError, match=r"^Java is not on PATH: install Java 17\+"):
        local.install()
    assert not local.root.exists(), "nothing is created before the checks pass"


@pytest.mark.parametrize(
    ("banner", "major"),
    [('openjdk version "11.0.22" 2024-01-16', 11), ('java version "1.8.0_392"', 8)],
)
def test_java_too_old(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, banner: str, major: int
) -> None:
    monkeypatch.setenv("PATH", str(fake_java(tmp_path / "bin", f"echo '{banner}' >&2")))
    with pytest.raises(ManagedNeo4jError, match=rf"needs Java 17\+, found Java {major}:"):
        LocalNeo4j(fake_settings(tmp_path / "home")).install()


def test_the_lock_names_every_jar_the_server_needs_with_its_digest() -> None:
    jars = {j.file_name: j for j in locked_jars()}
    assert {"neo4j-5.26.30.jar", "neo4j-server-5.26.30.jar", "neo4j-browser-5.24.0.jar",
            "netty-transport-native-epoll-4.1.137.Final-linux-x86_64.jar"} <= set(jars)
    assert all(len(j.sha256) == 64 for j in jars.values())
    epoll = jars["netty-transport-native-epoll-4.1.137.Final-linux-x86_64.jar"]
    assert epoll.path == ("io/netty/netty-transport-native-epoll/4.1.137.Final/"
                          "netty-transport-native-epoll-4.1.137.Final-linux-x86_64.jar")


def test_a_jar_that_does_not_match_its_digest_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A repository serving other bytes than the lock names never fills lib/."""
    jar = locked_jars()[0]
    served = tmp_path / "repo"
    (served / jar.path).parent.mkdir(parents=True)
    (served / jar.path).write_bytes(b"not the jar")
    monkeypatch.setattr(jars, "locked_jars", lambda: [jar])
    monkeypatch.setattr(jars, "LOCAL_REPOSITORY", tmp_path / "no-m2")
    with serve_folder(served) as url, pytest.raises(ManagedNeo4jError,
                                                   match="does not match the SHA-256"):
        jars.fetch(url, tmp_path / "lib")
    assert not (tmp_path / "lib").exists()


def test_an_unreachable_repository_names_the_url(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(jars, "locked_jars", lambda: locked_jars()[:1])
    monkeypatch.setattr(jars, "LOCAL_REPOSITORY", tmp_path / "no-m2")
    with serve_folder(tmp_path / "empty") as url, pytest.raises(
            ManagedNeo4jError, match=r"could not fetch http://127\.0\.0\.1:\d+/.*404"):
        jars.fetch(url, tmp_path / "lib")


def test_a_server_that_exits_shows_the_log_tail(
    monkeypatch: pytest.MonkeyPatch, fake_home: Path, tmp_path: Path
) -> None:
    java = fake_java(tmp_path / "bin", "echo 'fake neo4j: invalid configuration'; exit 1")
    monkeypatch.setenv("PATH", str(java))
    local = LocalNeo4j(fake_settings(fake_home))
    with pytest.raises(ManagedNeo4jError) as info:
        local.start()
    message = str(info.value)
    assert message.startswith("Neo4j exited during start-up:")
    assert "fake neo4j: invalid configuration" in message
    assert str(local.logs / "console.log") in message
    assert not local.pid_file.exists()
    assert not local.status().running


def test_a_server_that_never_answers_times_out_and_stops_cleanly(
    monkeypatch: pytest.MonkeyPatch, fake_home: Path, tmp_path: Path
) -> None:
    java = fake_java(tmp_path / "bin", "echo 'fake neo4j: still starting'; exec /bin/sleep 60")
    monkeypatch.setenv("PATH", str(java))
    local = LocalNeo4j(fake_settings(fake_home, neo4j_start_timeout=1.0))
    try:
        with pytest.raises(ManagedNeo4jError) as info:
            local.start()
        message = str(info.value)
        assert "did not answer on Bolt within 1s (GRAPHMEM_NEO4J_START_TIMEOUT)" in message
        assert "fake neo4j: still starting" in message
        status = local.status()
        assert status.running and status.pid is not None
        assert "running (pid" in str(status)
    finally:
        stopped = local.stop(timeout=10)
    assert stopped is True
    assert not local.status().running
    assert not local.pid_file.exists()
    assert local.stop() is False


# ---- the CLI: one line, no traceback -----------------------------------------------------------
def test_install_without_java_is_one_line_on_stderr(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(PATH=str(empty), GRAPHMEM_HOME=str(tmp_path / "home"))
    proc = subprocess.run([str(GRAPHMEM), "neo4j", "install"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "error: Java is not on PATH: install Java 17+ (Debian: `apt-get install openjdk-17-jre`)"
    ]
    assert proc.stdout == ""


def test_managing_is_refused_when_an_external_uri_is_set(tmp_path: Path) -> None:
    env = {"GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_NEO4J_URI": "bolt://127.0.0.1:1"}
    result = CliRunner().invoke(app, ["neo4j", "start"], env=env)
    assert result.exit_code == 1
    assert "GRAPHMEM_NEO4J_URI is set (bolt://127.0.0.1:1)" in result.output
    assert "Traceback" not in result.output


def test_a_generated_password_that_looks_like_an_option_is_still_set(
    managed: LocalNeo4j, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neo4j's admin tool reads an argument that starts with `-` as an option; the password
    follows `--`, so whatever characters it holds it is set, not refused with a help text."""
    home = tmp_path / "home"
    (home / "neo4j").mkdir(parents=True)
    (home / "neo4j" / "lib").symlink_to(managed.lib.resolve(), target_is_directory=True)
    monkeypatch.setattr(manager, "new_password", lambda: "-h-looks-like-an-option")
    local = LocalNeo4j(fake_settings(home))
    assert "installed" in local.install()
    assert local.settings.password_file.read_text().strip() == "-h-looks-like-an-option"
    assert (home / "neo4j" / "data" / "dbms" / "auth.ini").is_file()


def test_generated_passwords_are_letters_and_digits() -> None:
    passwords = {manager.new_password() for _ in range(200)}
    assert len(passwords) == 200
    assert all(re.fullmatch(r"[0-9a-f]{48}", p) for p in passwords)
