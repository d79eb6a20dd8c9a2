"""bench/mcp: what one MCP tool call adds over the same Python API call.

    python -m bench.mcp                  # 200 interleaved pairs per transport
    python -m bench.mcp --calls 50       # fewer

The same read (`history` of one subject in a space of 20 facts) through `GraphMem` in this
process and as an MCP tool call: over stdio (the SDK's client, `graphmem mcp` as a
subprocess) and over streamable HTTP (`graphmem serve` as a subprocess, with a bearer key),
where it is timed twice: with the SDK's client, and with a lean keep-alive client posting
the JSON-RPC request (the server's share without the client library's). Calls alternate
(which side goes first swaps every pair), so machine load hits both sides alike; the figure
is the median of the per-pair differences. The server's own time outside the tool (from its
/metrics: the /mcp request time less the tool's) is reported beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from bench.api.__main__ import PEPPER, free_port, serve, wait_ready
from bench.results import median, percentile, write_section
from graphmem import GraphMem
from graphmem.auth import KeyStore
from graphmem.model import Space
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

TENANT = "bench"
USER = "mcp"
SUBJECT = "setting_7"
ARGS = {"subject": SUBJECT, "user_id": USER}
PROTOCOL = "2025-06-18"


def seed(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": f"setting_{n}", "value": f"v{n}", "confidence": 0.9}
                        for n in range(20)])
    mem.remember_facts([{"subject": SUBJECT, "value": "v7b", "action": "SUPERSEDE",
                         "confidence": 0.9}])


def env_for(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    user, password = settings.neo4j_auth()
    env.update(GRAPHMEM_HOME=str(settings.home), GRAPHMEM_DATABASE_URL=settings.relational_url,
               GRAPHMEM_NEO4J_URI=settings.bolt_uri, GRAPHMEM_NEO4J_USER=user,
               GRAPHMEM_NEO4J_PASSWORD=password, GRAPHMEM_API_KEY_PEPPER=PEPPER,
               GRAPHMEM_LOG_LEVEL="WARNING")
    return env


async def pairs(local: Callable[[], object], remote: Callable[[], Awaitable[object]],
                calls: int, warm: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"local": [], "remote": [], "diffs": []}
    for n in range(warm + calls):
        t_local = t_remote = 0.0
        for side in ((0, 1) if n % 2 else (1, 0)):
            started = time.perf_counter()
            if side == 0:
                local()
                t_local = time.perf_counter() - started
            else:
                await remote()
                t_remote = time.perf_counter() - started
        if n >= warm:
            found["local"].append(t_local)
            found["remote"].append(t_remote)
            found["diffs"].append(t_remote - t_local)
    return found


def checked(result: Any) -> Any:
    if getattr(result, "is_error", False):
        raise SystemExit(f"benchmark call failed: {result.content}")
    return result


async def over_stdio(settings: Settings, mem: GraphMem, calls: int, warm: int
                     ) -> dict[str, list[float]]:
    graphmem = str(Path(sys.executable).parent / "graphmem")
    params = StdioServerParameters(command=graphmem, args=["mcp"], env=env_for(settings))
    async with Client(params) as client:
        return await pairs(lambda: mem.history(SUBJECT),
                           lambda: client.call_tool("history", ARGS), calls, warm)


async def over_http_sdk(url: str, token: str, mem: GraphMem, calls: int, warm: int
                        ) -> dict[str, list[float]]:
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client, \
            Client(streamable_http_client(url, http_client=http_client)) as client:
        async def call() -> Any:
            return checked(await client.call_tool("history", ARGS))

        return await pairs(lambda: mem.history(SUBJECT), call, calls, warm)


class Lean:
    """A keep-alive HTTP/1.1 client speaking JSON-RPC to /mcp in one session."""

    def __init__(self, base: str, token: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                        "Accept": "application/json, text/event-stream"}
        self.next_id = 0
        opened = self.post("initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                                          "clientInfo": {"name": "bench", "version": "1"}})
        self.headers["mcp-session-id"] = opened["session"]
        self.headers["mcp-protocol-version"] = PROTOCOL
        self.notify("notifications/initialized")

    def post(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.conn.request("POST", "/mcp", json.dumps(body).encode(), self.headers)
        response = self.conn.getresponse()
        raw = response.read().decode()
        if response.status != 200:
            raise SystemExit(f"benchmark request failed: {response.status} {raw[:300]}")
        data = [line[5:] for line in raw.splitlines() if line.startswith("data:")]
        message = json.loads(data[-1] if data else raw)
        if "error" in message or message.get("result", {}).get("isError"):
            raise SystemExit(f"benchmark call failed: {raw[:300]}")
        return {"message": message, "session": response.getheader("mcp-session-id")}

    def notify(self, method: str) -> None:
        body = {"jsonrpc": "2.0", "method": method}
        self.conn.request("POST", "/mcp", json.dumps(body).encode(), self.headers)
        self.conn.getresponse().read()

    def call(self) -> None:
        self.post("tools/call", {"name": "history", "arguments": ARGS})


async def over_http_lean(base: str, token: str, mem: GraphMem, calls: int, warm: int
                         ) -> dict[str, list[float]]:
    lean = Lean(base, token)

    async def call() -> None:
        lean.call()

    try:
        return await pairs(lambda: mem.history(SUBJECT), call, calls, warm)
    finally:
        lean.conn.close()


def server_seconds(base: str) -> dict[str, float]:
    """The server's totals for /mcp requests and for the `history` tool."""
    wanted = {'graphmem_http_request_seconds_sum{route="/mcp"}': "http",
              'graphmem_http_request_seconds_count{route="/mcp"}': "requests",
              'graphmem_operation_seconds_sum{operation="history"}': "tool"}
    found = dict.fromkeys(wanted.values(), 0.0)
    for line in httpx.get(f"{base}/metrics", timeout=30).text.splitlines():
        name, _, value = line.rpartition(" ")
        if name in wanted:
            found[wanted[name]] += float(value)
    return found


def ms(samples: list[float], q: float = 50) -> float:
    return percentile(samples, q) * 1000


def row(name: str, found: dict[str, list[float]]) -> str:
    return (f"| {name} | {len(found['diffs'])} | {ms(found['local']):.2f} |"
            f" {ms(found['remote']):.2f} | **{median(found['diffs']) * 1000:.2f}** |"
            f" {ms(found['diffs'], 90):.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.mcp")
    parser.add_argument("--calls", type=int, default=200, help="timed pairs per transport")
    parser.add_argument("--warm", type=int, default=20, help="untimed pairs first")
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    settings = load_settings(database_url=f"sqlite:///{workdir / 'bench.db'}")
    runtime = Runtime.open(settings)
    runtime.migrate()
    token = KeyStore(runtime.store, PEPPER.encode()).create(TENANT, "admin").token
    local_mem = GraphMem(Space("default", USER), runtime=runtime)
    keyed_mem = GraphMem(Space(TENANT, USER), runtime=runtime)
    seed(local_mem)
    seed(keyed_mem)
    load = os.getloadavg()[0]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(settings, port, workdir / "serve.log")
    try:
        stdio_times = asyncio.run(over_stdio(settings, local_mem, args.calls, args.warm))
        wait_ready(base, proc)
        sdk_times = asyncio.run(over_http_sdk(f"{base}/mcp", token, keyed_mem, args.calls,
                                              args.warm))
        before = server_seconds(base)
        lean_times = asyncio.run(over_http_lean(base, token, keyed_mem, args.calls,
                                                args.warm))
        after = server_seconds(base)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        runtime.close()
    requests = after["requests"] - before["requests"]
    inside = ((after["http"] - before["http"]) - (after["tool"] - before["tool"])) / max(
        requests, 1) * 1000
    body = f"""
Command: `python -m bench.mcp --calls {args.calls}`

**Measured on a shared machine** (2 cores, other engineers' test runs beside it; load
average {load:.1f} at start): the figures must be retaken on a quiet machine before they
are read as graphmem's.

The same read (`history` of one subject, 21 facts in the space) through `GraphMem` in this
process and as an MCP tool call; calls alternate, the figure is the median of the per-pair
differences (ms).

| transport | pairs | Python API p50 | MCP call p50 | added (median of pairs) | added p90 |
| --- | ---: | ---: | ---: | ---: | ---: |
{row("stdio (SDK client, `graphmem mcp`)", stdio_times)}
{row("HTTP (SDK client, `graphmem serve` /mcp)", sdk_times)}
{row("HTTP (lean keep-alive client, JSON-RPC)", lean_times)}

Inside the server, per /mcp request of the lean run, outside the tool itself (middlewares,
authentication, the session transport, JSON-RPC, the guard): **{inside:.2f} ms** (from its
/metrics). Goal: at most 3 ms added at p50 over HTTP.
"""
    write_section("mcp", body)
    print(body)


if __name__ == "__main__":
    main()
