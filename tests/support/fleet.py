"""Several graphmem hosts behind nginx, sharing nothing but the stores.

Each host is a real `graphmem serve` process with a home of its own (as a separate machine
has), over one Neo4j and one relational store; every secret the hosts must share (the API key
pepper, the audit signing key and its salt, the field-encryption key) reaches them through
the environment, never through a copied home. nginx spreads requests over them round-robin,
and passes a request on to the next host only when the chosen one refused the connection
(a POST already sent to a host that died is answered 502, never sent twice).

The 3-host test and `python -m bench.hosts` both run on this.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from cryptography.fernet import Fernet

from graphmem.settings import Settings

from support import loopback

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
READY_WAIT = 180.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def shared_secrets() -> dict[str, str]:
    """What a deployment hands every host (a mounted secret, or the environment)."""
    return {"GRAPHMEM_API_KEY_PEPPER": secrets.token_urlsafe(32),
            "GRAPHMEM_KEY": secrets.token_urlsafe(24),
            "GRAPHMEM_KEY_SALT": secrets.token_hex(16),
            "GRAPHMEM_ENCRYPTION_KEY": Fernet.generate_key().decode()}


@dataclass
class Host:
    name: str
    home: Path
    port: int
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    log_dir: Path | None = None  # where its logs go (its home when None)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return (self.log_dir or self.home) / f"serve-{self.starts}.log"

    def start(self) -> None:
        self.starts += 1
        graphmem = Path(sys.executable).parent / "graphmem"
        self.proc = subprocess.Popen(
            [str(graphmem), "serve", "--port", str(self.port), "--workers", "1"],
            env=self.env, stdout=self.log.open("w"), stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_WAIT
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:"
                                   f" {self.log.read_text()[-2000:]}")
            try:
                if loopback.get(f"{self.base}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} was not ready in {READY_WAIT:.0f}s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed, as a host that loses its power."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=60)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=60)
            self.proc = None

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A `graphmem` command run on this host (its home and environment)."""
        graphmem = Path(sys.executable).parent / "graphmem"
        return subprocess.run([str(graphmem), *args], env=self.env, capture_output=True,
                              text=True, timeout=300, check=False)


@dataclass
class Fleet:
    """`count` hosts and nginx in front of them, under `workdir`; `extra` settings go to every
    host."""

    workdir: Path
    settings: Settings
    database_url: str
    count: int = 3
    extra: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=shared_secrets)
    hosts: list[Host] = field(default_factory=list)
    port: int = 0
    nginx: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        """The balancer's address: what clients use."""
        return f"http://127.0.0.1:{self.port}"

    def host_env(self, home: Path) -> dict[str, str]:
        user, password = self.settings.neo4j_auth()
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
        env.update(self.secrets)
        env.update(GRAPHMEM_HOME=str(home), GRAPHMEM_DATABASE_URL=self.database_url,
                   GRAPHMEM_NEO4J_URI=self.settings.bolt_uri, GRAPHMEM_NEO4J_USER=user,
                   GRAPHMEM_NEO4J_PASSWORD=password,
                   GRAPHMEM_NEO4J_DATABASE=self.settings.neo4j_database,
                   GRAPHMEM_HOSTS=str(self.count), GRAPHMEM_TRUSTED_PROXIES="127.0.0.1",
                   GRAPHMEM_LOG_LEVEL="INFO")
        env.update(self.extra)
        return env

    def start(self) -> None:
        for n in range(self.count):
            home = self.workdir / f"host{n}"
            home.mkdir(parents=True, exist_ok=True)
            self.hosts.append(Host(f"host{n}", home, free_port(), self.host_env(home)))
        for host in self.hosts:
            host.start()
        for host in self.hosts:
            host.wait_ready()
        self.port = free_port()
        conf = self.workdir / "nginx.conf"
        conf.write_text(self.nginx_conf())
        self.nginx = subprocess.Popen([NGINX, "-p", str(self.workdir), "-c", str(conf)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if loopback.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not start: {(self.workdir / 'error.log').read_text()}")

    def nginx_conf(self) -> str:
        servers = "\n".join(f"    server 127.0.0.1:{h.port} max_fails=0;" for h in self.hosts)
        workdir = self.workdir
        return f"""daemon off;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {workdir}/body;
  proxy_temp_path {workdir}/proxy;
  fastcgi_temp_path {workdir}/fastcgi;
  uwsgi_temp_path {workdir}/uwsgi;
  scgi_temp_path {workdir}/scgi;
  upstream graphmem {{
{servers}
    keepalive 32;
  }}
  server {{
    listen 127.0.0.1:{self.port};
    client_max_body_size 2m;
    location / {{
      proxy_pass http://graphmem;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout;
      proxy_read_timeout 300s;
    }}
  }}
}}
"""

    def close(self) -> None:
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.wait(timeout=30)
            self.nginx = None
        for host in self.hosts:
            host.stop()
