"""bench/api: what HTTP + GraphQL costs on top of the Python API, and how it holds under load.

    python -m bench.api                      # 10 s per level, 1/8/32 clients
    python -m bench.api --seconds 30         # longer runs

    python -m bench.api --only pages --page-calls 20 --no-write   # a smoke run of the pages

A real `graphmem serve` (one worker) on loopback. First the same two calls, one at a time,
in-process and over HTTP (a lean keep-alive client), against a server in this process on the
same runtime and against `graphmem serve`: interleaved (the figure is the median of
the per-pair differences, so machine load hits both sides alike; the target is at most 2 ms)
and sequentially; then 1, 8 and 32 concurrent clients for a bounded time, each writing with
rememberFacts into its own space and reading with facts, alternately. Last, a frontend's two
heaviest pages (the conflicts inbox, a timeline) against the Cypher they send (bench/api/pages).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
from pydantic import SecretStr

from bench.api import pages
from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.auth import KeyStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action } }")
FACTS = "query($s: String!) { facts(space: $s, first: 20) { totalCount edges { node { id value"
FACTS += " } } } }"
PEPPER = "bench-pepper-" + "0" * 40
T = TypeVar("T")
SEQUENTIAL = 200


def scratch_settings(name: str) -> tuple[Path, Settings]:
    """The configured settings over a fresh SQLite store, in a new folder of its own."""
    workdir = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
    return workdir, load_settings(database_url=f"sqlite:///{workdir / 'bench.db'}")


def open_scratch(name: str) -> tuple[Path, Runtime]:
    """A migrated Runtime of the managed Neo4j and a fresh SQLite store (scratch_settings),
    and the store's folder."""
    workdir, settings = scratch_settings(name)
    runtime = Runtime.open(settings)
    runtime.migrate()
    return workdir, runtime


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(settings: Settings, port: int, log: Path, workers: int = 1,
          log_level: str = "WARNING",
          extra: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`graphmem serve` over the bench's stores (INFO logs one access line per request),
    with `extra` settings in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    user, password = settings.neo4j_auth()
    env.update(GRAPHMEM_HOME=str(settings.home), GRAPHMEM_DATABASE_URL=settings.relational_url,
               GRAPHMEM_NEO4J_USER=user, GRAPHMEM_NEO4J_PASSWORD=password,
               GRAPHMEM_API_KEY_PEPPER=PEPPER, GRAPHMEM_RATE_PER_MIN="1000000000",
               GRAPHMEM_LOG_LEVEL=log_level, **(extra or {}))
    if settings.neo4j_uri:
        env["GRAPHMEM_NEO4J_URI"] = settings.neo4j_uri
    graphmem = Path(sys.executable).parent / "graphmem"
    return subprocess.Popen([str(graphmem), "serve", "--port", str(port), "--workers",
                             str(workers)], env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)


def wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"graphmem serve exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("graphmem serve did not start")


def fact(n: int) -> dict[str, Any]:
    return {"subject": f"setting_{n}", "value": f"v{n}", "confidence": 0.9}


OPERATIONS = ("facts", "rememberFacts")  # reads first: writes leave background work behind
SETTLE = 2.0  # seconds between phases, for the previous phase's background work to end


class Client:
    """A lean keep-alive HTTP/1.1 client (the standard library's): the figure is the server's
    layer, not a client library's own cost (httpx adds about 0.8 ms a request here)."""

    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port,
                                               timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.used = 0.0

    def ready(self) -> None:
        """Reconnect (outside the timing) after a pause the server's keep-alive may end."""
        if time.monotonic() - self.used > 2.0:
            self.conn.close()
            self.conn.connect()

    def post(self, body: dict[str, Any]) -> None:
        self.conn.request("POST", "/graphql", json.dumps(body).encode(), self.headers)
        response = self.conn.getresponse()
        data = response.read()
        self.used = time.monotonic()
        if response.status != 200 or b'"errors"' in data:
            raise SystemExit(f"benchmark request failed: {response.status} {data[:500]!r}")

    def close(self) -> None:
        self.conn.close()


class Caller:
    """The same operation in-process (what a resolver runs) and over HTTP, each in a fresh
    space of its own that grows the same way."""

    def __init__(self, runtime: Runtime, client: Client) -> None:
        self.mem = GraphMem(space=f"bench/{uuid.uuid4().hex[:8]}", runtime=runtime)
        self.space = f"seq-{uuid.uuid4().hex[:8]}"
        self.client = client

    def local(self, name: str, n: int) -> float:
        started = time.perf_counter()
        if name == "rememberFacts":
            self.mem.remember_facts([fact(n)])
        else:
            self.mem.active()
        return time.perf_counter() - started

    def http(self, name: str, n: int) -> float:
        body = ({"query": REMEMBER, "variables": {"s": self.space, "f": [fact(n)]}}
                if name == "rememberFacts" else {"query": FACTS, "variables": {"s": self.space}})
        self.client.ready()
        started = time.perf_counter()
        self.client.post(body)
        return time.perf_counter() - started


def settle(caller: Caller) -> None:
    """Let a phase's background work (embedding its writes, the mirror, audit rows) end
    before the next phase is timed."""
    caller.mem.records.wait_for_embeddings()
    time.sleep(SETTLE)


def compare(runtime: Runtime, base: str, token: str, calls: int) -> dict[str, Any]:
    """Per operation, `calls` of each side two ways: interleaved (local and HTTP alternate,
    which goes first swapping every time, so both see the same machine load; the figure is
    the median of the per-pair differences) and sequential (all local calls, then all HTTP
    calls, in fresh spaces)."""
    found: dict[str, Any] = {}
    client = Client(base, token)
    try:
        for name in OPERATIONS:
            pairs = Caller(runtime, client)
            local, http, diffs = [], [], []
            for n in range(calls):
                first, second = (pairs.local, pairs.http) if n % 2 else (pairs.http, pairs.local)
                a, b = first(name, n), second(name, n)
                t_local, t_http = (a, b) if n % 2 else (b, a)
                local.append(t_local)
                http.append(t_http)
                diffs.append(t_http - t_local)
            apart = Caller(runtime, client)
            settle(pairs)
            seq_local = [apart.local(name, n) for n in range(calls)]
            seq_http = [apart.http(name, n) for n in range(calls)]
            settle(apart)
            found[name] = {"local": local, "http": http, "diffs": diffs,
                           "seq_local": seq_local, "seq_http": seq_http}
    finally:
        client.close()
    return found


def check(response: httpx.Response) -> None:
    if response.status_code != 200 or "errors" in response.json():
        raise SystemExit(f"benchmark request failed: {response.status_code} {response.text}")


async def load(base: str, token: str, clients: int, seconds: float) -> dict[str, Any]:
    """`clients` workers, each in its own space, alternating a write and a read."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits,
                                 headers={"Authorization": f"Bearer {token}"}) as client:

        async def worker(index: int) -> None:
            space, n = f"load-{clients}-{index}-{uuid.uuid4().hex[:6]}", 0
            while time.monotonic() < stop:
                n += 1
                body = ({"query": REMEMBER, "variables": {"s": space, "f": [fact(n)]}}
                        if n % 2 else {"query": FACTS, "variables": {"s": space}})
                started = time.perf_counter()
                response = await client.post("/graphql", json=body)
                latencies.append(time.perf_counter() - started)
                check(response)

        began = time.monotonic()
        await asyncio.gather(*(worker(i) for i in range(clients)))
        elapsed = time.monotonic() - began
    return {"clients": clients, "requests": len(latencies), "rps": len(latencies) / elapsed,
            "p50": percentile(latencies, 50) * 1000, "p99": percentile(latencies, 99) * 1000}


def ms(samples: list[float], q: float = 50) -> float:
    return percentile(samples, q) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.api")
    parser.add_argument("--seconds", type=float, default=10.0, help="per concurrency level")
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--calls", type=int, default=SEQUENTIAL,
                        help="sequential calls of each kind for the in-process comparison")
    parser.add_argument("--page-calls", type=int, default=SEQUENTIAL,
                        help="calls of each page (inbox, timeline) and of its Cypher")
    parser.add_argument("--only", choices=("all", "pages"), default="all")
    parser.add_argument("--no-write", action="store_true",
                        help="print the figures without writing bench/RESULTS.md")
    args = parser.parse_args(argv)
    levels = [int(c) for c in args.clients.split(",")]

    workdir, runtime = open_scratch("api")
    settings = runtime.settings
    token = KeyStore(runtime.store, PEPPER.encode()).create("bench", "admin").token
    if args.only == "pages":
        runtime.close()
        found = page_figures(settings, token, args.page_calls)
        table = "\n".join(pages.rows(found))
        print(table)
        if not args.no_write:
            load = os.getloadavg()[0]
            write_section("api pages", f"Command: `python -m bench.api --only pages`; load"
                                       f" average {load:.1f} at the end, 2 cores.\n\n{table}"
                                       f"\n\n{pages.NOTE}")
        return
    shared = same_process(settings, token, args.calls)
    found = page_figures(settings, token, args.page_calls)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(settings, port, workdir / "serve.log")
    try:
        wait_ready(base, proc)
        compare(runtime, base, token, 10)  # warm: model load, connections, caches
        before = server_seconds(base)
        times = compare(runtime, base, token, args.calls)
        after = server_seconds(base)
        rows = [asyncio.run(load(base, token, c, args.seconds)) for c in levels]
        floor = asyncio.run(stack_floor(settings, token))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        runtime.close()
    report(shared, times, rows, args, ms, outside_resolvers(before, after), floor, found)


def in_thread(settings: Settings, work: Callable[[Runtime, str], T]) -> T:
    """`work(runtime, base)` against a Uvicorn server in a thread of this process, on the
    runtime the work uses too: both sides share the Neo4j pool, the mirror's and the audit's
    background threads and the machine, so a difference is the layer alone."""
    import threading

    import uvicorn

    from graphmem.http.app import create_app

    app = create_app(settings.model_copy(update={
        "api_key_pepper": SecretStr(PEPPER), "rate_per_min": 10**9,
        "api_max_complexity": 100_000}))  # the inbox page's estimate is far above the default
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on",
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise SystemExit("the in-process API server did not start")
        time.sleep(0.05)
    try:
        return work(app.state.runtime, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=60)


def same_process(settings: Settings, token: str, calls: int) -> dict[str, Any]:
    def work(runtime: Runtime, base: str) -> dict[str, Any]:
        compare(runtime, base, token, 10)  # warm
        return compare(runtime, base, token, calls)

    return in_thread(settings, work)


def page_figures(settings: Settings, token: str, calls: int) -> list[pages.PageRow]:
    """The inbox and timeline pages against their Cypher, on a server in this process."""
    def work(runtime: Runtime, base: str) -> list[pages.PageRow]:
        space = pages.fill(runtime, "bench")
        client = Client(base, token)
        try:
            def post(body: dict[str, Any]) -> None:
                client.ready()
                client.post(body)

            return pages.measure(post, runtime, space, calls)
        finally:
            client.close()

    return in_thread(settings, work)


async def stack_floor(settings: Settings, token: str, calls: int = 300) -> tuple[float, float]:
    """p50 ms of `{ __typename }` (every layer, no resolver, no data) and of /healthz (no
    layer but the request id), through the ASGI app in this process: the stack's own cost."""
    from graphmem.http.app import create_app

    app = create_app(settings.model_copy(update={"api_key_pepper": SecretStr(PEPPER),
                                                 "rate_per_min": 10**9}))
    samples: dict[str, list[float]] = {"graphql": [], "healthz": []}
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://bench",
            headers={"Authorization": f"Bearer {token}"}) as client:
        for n in range(calls + 20):
            started = time.perf_counter()
            await client.post("/graphql", json={"query": "{ __typename }"})
            middle = time.perf_counter()
            await client.get("/healthz")
            if n >= 20:
                samples["graphql"].append(middle - started)
                samples["healthz"].append(time.perf_counter() - middle)
    return ms(samples["graphql"]), ms(samples["healthz"])


def server_seconds(base: str) -> dict[str, float]:
    """The server's own totals: time in /graphql requests and in resolvers, and how many."""
    wanted = {'graphmem_http_request_seconds_sum{route="/graphql"}': "http",
              'graphmem_http_request_seconds_count{route="/graphql"}': "requests"}
    found = {"http": 0.0, "requests": 0.0, "resolvers": 0.0}
    for line in httpx.get(f"{base}/metrics").text.splitlines():
        name, _, value = line.rpartition(" ")
        if name in wanted:
            found[wanted[name]] += float(value)
        elif name.startswith("graphmem_operation_seconds_sum{"):
            found["resolvers"] += float(value)
    return found


def outside_resolvers(before: dict[str, float], after: dict[str, float]) -> float:
    """Mean ms per request the server spent outside the resolver (middlewares, auth, parse,
    validate, serialize), measured inside each request, so the machine's load on the
    resolver's database work does not enter it."""
    requests = after["requests"] - before["requests"]
    spent = (after["http"] - before["http"]) - (after["resolvers"] - before["resolvers"])
    return spent / requests * 1000 if requests else float("nan")


def comparison_rows(where: str, times: dict[str, Any],
                    q: Callable[[list[float], float], float]) -> tuple[list[str], float]:
    """Table rows for one server, and the largest median per-pair difference."""
    lines, added = [], []
    for name in OPERATIONS:
        t = times[name]
        a, b, paired = q(t["local"], 50), q(t["http"], 50), q(t["diffs"], 50)
        sa, sb = q(t["seq_local"], 50), q(t["seq_http"], 50)
        added.append(paired)
        lines.append(f"| {where} | {name} | {a:.2f} | {b:.2f} | **{paired:+.2f}** |"
                     f" {b - a:+.2f} | {sa:.2f} / {sb:.2f} | {sb - sa:+.2f} |")
    return lines, max(added)


def report(shared: dict[str, Any], times: dict[str, Any], rows: list[dict[str, Any]],
           args: argparse.Namespace, q: Callable[[list[float], float], float], outside: float,
           floor: tuple[float, float], found: list[pages.PageRow]) -> None:
    lines = ["| server | call | in-process p50 (ms) | HTTP+GraphQL p50 (ms) | added: median of"
             " pairs (ms) | added: difference of p50s (ms) | sequential: in-process / HTTP p50"
             " (ms) | sequential added (ms) |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    same, worst = comparison_rows("same process", shared, q)
    apart, worst_apart = comparison_rows("`graphmem serve`", times, q)
    lines += same + apart
    lines += ["", "| clients | requests | requests/s | p50 (ms) | p99 (ms) |",
              "| ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['clients']} | {r['requests']:,} | {r['rps']:.0f} | {r['p50']:.2f}"
                     f" | {r['p99']:.2f} |")
    verdict = "met" if worst <= 2.0 else "NOT met"
    load_avg = os.getloadavg()[0]
    lines += ["", f"HTTP+GraphQL adds at most **{worst:.2f} ms** at p50 over the in-process call"
                  " on the same runtime (a server in this process; median of per-pair"
                  f" differences, interleaved; target ≤ 2 ms: {verdict}), and"
                  f" {worst_apart:.2f} ms against a separate `graphmem serve` process (whose"
                  " runtime also drains the mirror and writes the audit rows of the benchmark's"
                  " own in-process calls); inside that server, requests spent on average"
                  f" **{outside:.2f} ms** outside the resolver (middlewares, authentication,"
                  " parsing, validation, serialization, the hop to a worker thread); in-process"
                  f" through the ASGI app, an authenticated `{{ __typename }}` takes"
                  f" {floor[0]:.2f} ms at p50 against {floor[1]:.2f} ms for `/healthz`."
                  f" Comparison: {args.calls} calls of each kind and side, interleaved (the side"
                  " going first alternates), then the same sequentially in fresh spaces; load:"
                  f" {args.seconds:g} s per level, half rememberFacts (one fact, each client its"
                  " own space), half facts (first 20). Machine load average at the end:"
                  f" {load_avg:.1f} ({os.cpu_count()} cores)."]
    lines += ["", *pages.rows(found), "",
              f"Pages: {args.page_calls} calls of each side, alternating, against a server in"
              " this process on the same runtime; the direct side runs the statements the"
              " fields send (`conflicts/page` then one `facts/by_ids`; `facts/history_page`)."]
    body = (f"Command: `python -m bench.api --seconds {args.seconds:g} --clients {args.clients}"
            f" --calls {args.calls} --page-calls {args.page_calls}`")
    body += "\n\n" + "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("api", body)


if __name__ == "__main__":
    main()
