"""A Postgres cluster of one test's own, from the Debian binaries that `.ci/run` installs, on
a free loopback port under a temporary directory: a test may stop it (a real outage of the
relational store, not a cut connection) and start it again without touching the cluster the
rest of the suite shares. As root (CI), the cluster runs as the `postgres` user, since
Postgres refuses to run as root."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from support.fleet import free_port

BINARIES = Path("/usr/lib/postgresql")


def _bin_dir() -> Path:
    versions = sorted((p for p in BINARIES.glob("*/bin") if (p / "initdb").exists()),
                      key=lambda p: int(p.parent.name))
    if not versions:
        raise RuntimeError(f"no Postgres binaries under {BINARIES}: install the Debian package"
                           " `postgresql` (`.ci/run` does)")
    return versions[-1]


@dataclass
class PrivatePostgres:
    data: Path
    port: int
    bin: Path

    @property
    def url(self) -> str:
        return f"postgresql://graphmem@127.0.0.1:{self.port}/graphmem"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120, cwd="/")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"), "-w",
                  "-o", f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        """A fast shutdown: sessions are ended, as when an operator stops the server."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A fresh cluster with a `graphmem` superuser (trust on loopback) and its database."""
    root = Path(tempfile.mkdtemp(prefix="graphmem-pg-"))
    os.chmod(root, 0o755)
    data = root / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    cluster = PrivatePostgres(data, free_port(), _bin_dir())
    cluster._run("initdb", "-D", str(data), "-U", "graphmem", "--auth=trust", "-E", "UTF8")
    cluster.start()
    try:
        cluster._run("createdb", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "graphmem",
                     "graphmem")
        yield cluster
    finally:
        try:
            cluster.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(root, ignore_errors=True)
