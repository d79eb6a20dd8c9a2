"""The managed local Neo4j: fetched from Maven Central, run in the background on loopback.

The server's lib/ holds the jars `jars.lock` names (Neo4j Community 5.26 LTS, its HTTP server
and Neo4j Browser, resolved from the pom beside this file), as the official tarball lays it
out, so no Docker and no download outside Maven Central is needed.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphmem.errors import ManagedNeo4jError
from graphmem.neo4j_local import browser, jars
from graphmem.settings import Settings

# The JVM options of the official distribution's neo4j.conf: Neo4j's page cache, transaction
# log and Bolt (Netty) need the opened java.base packages for their fast paths, and fall back
# to slower copies and no fadvise/preallocation without them.
JVM_OPTIONS = (
    "-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow", "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields", "-XX:+DisableExplicitGC", "-XX:-RestrictContended",
    "-Djdk.nio.maxCachedBufferSize=1024", "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048", "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
)
MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
ADMIN_CLASS = "org.neo4j.cli.AdminTool"
MIN_JAVA = 17


@dataclass(frozen=True)
class Neo4jStatus:
    installed: bool
    running: bool
    pid: int | None
    version: str | None
    bolt_port: int
    http_port: int
    home: Path

    def __str__(self) -> str:
        state = f"running (pid {self.pid})" if self.running else "stopped"
        if not self.installed:
            state = "not installed (run `graphmem neo4j install`)"
        return (
            f"Neo4j {self.version or '?'}: {state}\n"
            f"  bolt: bolt://127.0.0.1:{self.bolt_port}\n"
            f"  http: http://127.0.0.1:{self.http_port}/browser/\n"
            f"  home: {self.home}"
        )


class LocalNeo4j:
    """Install, start, stop and inspect the managed server under `<home>/neo4j`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.root = settings.neo4j_dir
        self.lib = self.root / "lib"
        self.conf = self.root / "conf"
        self.logs = self.root / "logs"
        self.pid_file = self.root / "run" / "graphmem-neo4j.pid"

    # ---- install -------------------------------------------------------------------------
    def install(self) -> str:
        """Fetch the locked jars, write the config, set the generated password."""
        check_java()
        for sub in ("conf", "data", "logs", "run", "plugins", "import"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        if not self.version():
            jars.fetch(self.settings.maven_repository, self.lib)
        self._write_conf()
        self._ensure_password()
        return f"Neo4j {self.version()} installed in {self.root}"

    def _write_conf(self) -> None:
        template = resources.files("graphmem.neo4j_local").joinpath("neo4j.conf").read_text()
        s = self.settings
        text = template.format(
            root=self.root, bolt_port=s.neo4j_bolt_port, http_port=s.neo4j_http_port,
            heap=s.neo4j_heap, pagecache=s.neo4j_pagecache,
            checkpoint_seconds=s.neo4j_checkpoint_seconds, **browser.conf_values(s),
        )
        (self.conf / "neo4j.conf").write_text(text)

    def _ensure_password(self) -> None:
        pw_file = self.settings.password_file
        if pw_file.exists():
            return
        if (self.root / "data" / "databases").exists():
            raise ManagedNeo4jError(
                f"{pw_file} is missing but the database already exists: restore the file,"
                f" or remove {self.root / 'data'} to start over"
            )
        password = new_password()
        fd = os.open(pw_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(password + "\n")
        proc = subprocess.run(
            [java_bin(), "-cp", f"{self.lib}/*", ADMIN_CLASS, "dbms", "set-initial-password",
             "--", password], env=self._env(), capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            pw_file.unlink()
            raise ManagedNeo4jError(f"could not set the initial password: {proc.stderr.strip()}")

    # ---- run -----------------------------------------------------------------------------
    def start(self) -> Neo4jStatus:
        """Start in the background and wait for Bolt; a running server is simply reported."""
        if not self.version():
            raise ManagedNeo4jError("Neo4j is not installed: run `graphmem neo4j install` first")
        pid = self._pid()
        if pid is not None:
            self._wait_for_bolt(pid)
            return self.status()
        for port in (self.settings.neo4j_bolt_port, self.settings.neo4j_http_port):
            if port_in_use(port):
                raise ManagedNeo4jError(
                    f"port {port} on 127.0.0.1 is taken by another process: stop it, or choose"
                    " another with GRAPHMEM_NEO4J_BOLT_PORT / GRAPHMEM_NEO4J_HTTP_PORT"
                )
        self._write_conf()
        self.logs.mkdir(parents=True, exist_ok=True)
        console = open(self.logs / "console.log", "ab")  # noqa: SIM115 - handed to the child
        proc = subprocess.Popen(
            [java_bin(), f"-Xms{self.settings.neo4j_heap}", f"-Xmx{self.settings.neo4j_heap}",
             *JVM_OPTIONS, *self.settings.neo4j_jvm_options.split(),
             "-cp", f"{self.lib}/*", MAIN_CLASS,
             "--home-dir", str(self.root), "--config-dir", str(self.conf)],
            stdout=console, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=self._env(), start_new_session=True,
        )
        console.close()
        self.pid_file.parent.mkdir(parents=True, exist_ok=True)
        self.pid_file.write_text(str(proc.pid))
        self._wait_for_bolt(proc.pid)
        return self.status()

    def _wait_for_bolt(self, pid: int) -> None:
        deadline = time.monotonic() + self.settings.neo4j_start_timeout
        while time.monotonic() < deadline:
            if not pid_alive(pid):
                self.pid_file.unlink(missing_ok=True)
                raise ManagedNeo4jError(f"Neo4j exited during start-up:\n{self.log_tail()}")
            if bolt_answers(self.settings.neo4j_bolt_port) and self._http_answers():
                return
            time.sleep(0.5)
        raise ManagedNeo4jError(
            f"Neo4j did not answer on Bolt within {self.settings.neo4j_start_timeout:.0f}s"
            f" (GRAPHMEM_NEO4J_START_TIMEOUT):\n{self.log_tail()}"
        )

    def _http_answers(self) -> bool:
        return port_in_use(self.settings.neo4j_http_port)

    def stop(self, timeout: float = 60.0) -> bool:
        """Stop cleanly (SIGTERM, then SIGKILL after `timeout`); False if it was not running."""
        pid = self._pid()
        if pid is None:
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.3)
        if pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
        self.pid_file.unlink(missing_ok=True)
        return True

    def status(self) -> Neo4jStatus:
        pid = self._pid()
        return Neo4jStatus(
            installed=self.version() is not None, running=pid is not None, pid=pid,
            version=self.version(), bolt_port=self.settings.neo4j_bolt_port,
            http_port=self.settings.neo4j_http_port, home=self.root,
        )

    def log_tail(self, lines: int = 30) -> str:
        chunks: list[str] = []
        for name in ("console.log", "neo4j.log", "debug.log"):
            path = self.logs / name
            if path.exists():
                tail = path.read_text(errors="replace").splitlines()[-lines:]
                chunks.append(f"--- {path}\n" + "\n".join(tail))
        return "\n".join(chunks) or f"(no logs in {self.logs})"

    def version(self) -> str | None:
        if not self.lib.is_dir():
            return None
        for jar in self.lib.glob("neo4j-5*.jar"):
            match = re.fullmatch(r"neo4j-(5\.\d+\.\d+)\.jar", jar.name)
            if match:
                return match.group(1)
        return None

    def _pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        if pid_alive(pid):
            return pid
        self.pid_file.unlink(missing_ok=True)
        return None

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["NEO4J_HOME"] = str(self.root)
        env["NEO4J_CONF"] = str(self.conf)
        return env


def new_password() -> str:
    """A generated password: letters and digits only, so no character of it is ever read as
    an option or needs quoting in a shell or a URI."""
    return secrets.token_hex(24)


def java_bin() -> str:
    java = shutil.which("java")
    if java is None:
        raise ManagedNeo4jError(
            "Java is not on PATH: install Java 17+ (Debian: `apt-get install openjdk-17-jre`)"
        )
    return java


def java_major() -> int:
    proc = subprocess.run([java_bin(), "-version"], capture_output=True, text=True, check=False)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', proc.stderr + proc.stdout)
    if not match:
        raise ManagedNeo4jError(f"cannot read the Java version from: {proc.stderr.strip()}")
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def check_java() -> int:
    major = java_major()
    if major < MIN_JAVA:
        raise ManagedNeo4jError(
            f"Neo4j 5.26 needs Java {MIN_JAVA}+, found Java {major}: install a newer JDK"
        )
    return major


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of ours is not alive
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return True


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def bolt_answers(port: int) -> bool:
    """Bolt handshake: the magic preamble and four versions; a server answers with one."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as sock:
            sock.sendall(bytes.fromhex("6060B017") + bytes.fromhex("00000505") + bytes(12))
            return len(sock.recv(4)) == 4
    except OSError:
        return False
