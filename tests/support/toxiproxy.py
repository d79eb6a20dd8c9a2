"""Toxiproxy (Shopify's TCP proxy for simulating network conditions) between graphmem and a
store: latency, dropped connections and refusals on demand, driven through its HTTP API.

Its server is built from the Go module proxy on first use (`go install`, about a minute) into
the suite's home, and kept there for later runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from support.fleet import free_port

MODULE = "github.com/Shopify/toxiproxy/v2/cmd/server"
VERSION = "v2.5.0"


def server_binary(home: Path) -> Path:
    """The toxiproxy server of VERSION under `home`/tools, built when missing."""
    binary = home / "tools" / f"toxiproxy-server-{VERSION}"
    if binary.exists():
        return binary
    go = shutil.which("go") or "/usr/local/go/bin/go"
    with tempfile.TemporaryDirectory(prefix="toxiproxy-") as scratch:
        subprocess.run([go, "install", f"{MODULE}@{VERSION}"], check=True, timeout=900,
                       env={**os.environ, "GOBIN": scratch, "GOFLAGS": "-mod=mod"})
        binary.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(Path(scratch) / "server"), binary)
    return binary


@dataclass
class Toxic:
    """One proxy of a running toxiproxy server."""

    api: str
    name: str
    port: int

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> None:
        reply = httpx.request(method, f"{self.api}{path}", json=body, timeout=30)
        reply.raise_for_status()

    def enable(self, on: bool) -> None:
        """Off: every connection through it is closed and new ones are refused."""
        self._call("POST", f"/proxies/{self.name}", {"enabled": on})

    def add(self, kind: str, name: str, stream: str = "downstream", **attributes: Any) -> None:
        self._call("POST", f"/proxies/{self.name}/toxics",
                   {"name": name, "type": kind, "stream": stream, "attributes": attributes})

    def remove(self, name: str) -> None:
        self._call("DELETE", f"/proxies/{self.name}/toxics/{name}")


@contextmanager
def toxiproxy(home: Path, upstream: str, name: str = "store") -> Iterator[Toxic]:
    """A toxiproxy server with one proxy to `upstream` (host:port) on a free port."""
    api_port, port = free_port(), free_port()
    proc = subprocess.Popen([str(server_binary(home)), "-host", "127.0.0.1", "-port",
                             str(api_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    api = f"http://127.0.0.1:{api_port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{api}/version", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        httpx.post(f"{api}/proxies", json={"name": name, "listen": f"127.0.0.1:{port}",
                                           "upstream": upstream, "enabled": True},
                   timeout=30).raise_for_status()
        yield Toxic(api, name, port)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
