"""bench/audit: the audit chain's append and verify rates, and the mirror's lag under load.

    python -m bench.audit                 # 20k audit rows; lag at 200 writes/s for 10 s
    python -m bench.audit --full          # 100k audit rows (the issue's size)
    python -m bench.audit --postgres URL  # the chain on Postgres as well as SQLite

Chain: rows are appended one per transaction and 1,000 per transaction, then through a
Mirror's audit queue as operations append them (the caller only queues; the worker writes
batches); `verify` recomputes every hash and link and checks the
signed head, `verify --deep` also checks every row's Ed25519 signature.

Lag: writer threads, one space each, call remember_facts at a fixed total rate; the lag of a
fact is from its graph commit (the moment the write notifies the drainer, right after the
commit) to the relational commit that applied its outbox entry. Embeddings are switched off
(a closed endpoint): this measures the mirror, not the embedding model. Catch-up: a backlog
written while the drainer sleeps, then applied by one drain (entries/s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.mirror import apply as applying
from graphmem.mirror import audit, keys
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror import mirror as mirror_module
from graphmem.mirror.db import RelationalStore, redact
from graphmem.mirror.verify import verify as verify_chain
from graphmem.runtime import Runtime
from graphmem.settings import load_settings


# ---- the chain -------------------------------------------------------------------------------
def chain(url: str, rows: int, home: Path) -> dict[str, Any]:
    store = RelationalStore(url)
    store_migrations.up(store)
    signer = keys.signer(load_settings(home=home))
    keys.register(store, signer)
    entries = [audit.AuditEntry(f"tenant{i % 7}/user/agent/run", f"caller{i % 3}",
                                "remember_facts", "ok", {"count": 1}) for i in range(rows)]
    single = rows // 2
    t = time.perf_counter()
    for entry in entries[:single]:
        audit.append(store, signer, [entry])
    append_single = single / (time.perf_counter() - t)
    t = time.perf_counter()
    for start in range(single, rows, 1000):
        audit.append(store, signer, entries[start:start + 1000])
    append_batched = (rows - single) / (time.perf_counter() - t)
    trusted = keys.trusted_keys(store, signer.public)
    t = time.perf_counter()
    report = verify_chain(store, trusted)
    verify = report.rows / (time.perf_counter() - t)
    t = time.perf_counter()
    deep = verify_chain(store, trusted, deep=True)
    verify_deep = deep.rows / (time.perf_counter() - t)
    assert report.ok and deep.ok and report.rows == rows, report.problems
    queued, call_p50 = queue(store, home, entries[: rows // 2])
    store.close()
    result = {"store": redact(url).split(":")[0], "rows": rows, "append": append_single,
              "append_batched": append_batched, "verify": verify, "verify_deep": verify_deep,
              "queued": queued, "call_p50": call_p50}
    print(f"chain {result['store']}: append {append_single:,.0f}/s (1 per tx),"
          f" {append_batched:,.0f}/s (1,000 per tx), {queued:,.0f}/s queued (caller"
          f" {call_p50 * 1e6:.0f} µs); verify {verify:,.0f} rows/s, deep {verify_deep:,.0f}"
          " rows/s", flush=True)
    return result


def queue(store: RelationalStore, home: Path, entries: list[audit.AuditEntry]
          ) -> tuple[float, float]:
    """Rows appended as operations append them: 8 threads queue rows on a Mirror, whose
    worker writes them in batches; (rows/s until flushed, the caller's p50 seconds)."""
    mirror = mirror_module.Mirror(load_settings(home=home), None, store)  # type: ignore[arg-type]
    mirror.ensure_registered()
    spent: list[float] = []
    lock = threading.Lock()

    def call(chunk: list[audit.AuditEntry]) -> None:
        mine = []
        for entry in chunk:
            t = time.perf_counter()
            mirror.audit(entry)
            mine.append(time.perf_counter() - t)
        with lock:
            spent.extend(mine)

    t = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(call, [entries[i::8] for i in range(8)]))
    mirror.flush()
    rate = len(entries) / (time.perf_counter() - t)
    mirror.close()
    return rate, percentile(spent, 50)


@contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """A schema of the bench's own in that database, dropped afterwards."""
    import psycopg
    from psycopg import sql

    schema = f"bench_audit_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    parts = urlsplit(url)
    option = urlencode({"options": f"-csearch_path={schema}"})
    try:
        yield urlunsplit(parts._replace(query=f"{parts.query}&{option}" if parts.query
                                        else option))
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


# ---- the mirror's lag --------------------------------------------------------------------------
class Clock:
    """Records when each write committed and when each fact's entry was applied."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.applied: dict[str, float] = {}
        self.lock = threading.Lock()

    def install(self) -> None:
        notify, committed = mirror_module.Mirror.notify, mirror_module.Mirror._committed
        clock = self

        def timed_notify(self: mirror_module.Mirror, space: str,
                         entries: Sequence[outbox.OutboxEntry] = ()) -> None:
            clock.local.committed = time.time()
            notify(self, space, entries)

        def timed_committed(self: mirror_module.Mirror, done: list[applying.Applied],
                            head: audit.SignedHead | None) -> None:
            now = time.time()  # right after the relational commit that applied them
            with clock.lock:
                for item in done:
                    for fact in json.loads(item.entry.payload).get("facts", []):
                        clock.applied[fact["id"]] = now
            committed(self, done, head)

        mirror_module.Mirror.notify = timed_notify  # type: ignore[method-assign]
        mirror_module.Mirror._committed = timed_committed  # type: ignore[method-assign]


def lag(rate: float, seconds: float, threads: int, home: Path) -> dict[str, Any]:
    settings = load_settings(database_url=f"sqlite:///{home / 'lag.db'}",
                             embedding_base_url="http://127.0.0.1:9/v1", llm_max_retries=0)
    runtime = Runtime.open(settings)
    runtime.migrate()
    clock = Clock()
    clock.install()
    tag = uuid.uuid4().hex[:8]
    mems = [GraphMem(f"bench-lag-{tag}/w{i}/a/r", runtime=runtime) for i in range(threads)]
    committed: dict[str, float] = {}
    latencies: list[float] = []
    lock = threading.Lock()

    def write(n: int) -> None:
        mem = mems[n % threads]
        t = time.perf_counter()
        results = mem.remember_facts([{"subject": f"s{n % 50}", "value": f"v{n}",
                                       "confidence": 0.9}], source="bench")
        with lock:
            latencies.append(time.perf_counter() - t)
            for r in results:
                if r.fact_id:
                    committed[r.fact_id] = clock.local.committed

    for mem in mems:  # first use: claims, keys, connections
        mem.active()
    total = int(rate * seconds)
    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        for n in range(total):
            delay = started + n / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(write, n)
    elapsed = time.perf_counter() - started
    deadline = time.monotonic() + 30
    while set(committed) - set(clock.applied) and time.monotonic() < deadline:
        time.sleep(0.05)
    lags = [clock.applied[f] - t for f, t in committed.items() if f in clock.applied]
    for mem in mems:
        mem.close()
    runtime.close()
    result = {"rate": rate, "achieved": len(latencies) / elapsed, "writes": len(latencies),
              "threads": threads, "seconds": seconds, "lag_p50": percentile(lags, 50),
              "lag_p99": percentile(lags, 99), "lag_max": max(lags) if lags else float("nan"),
              "missing": len(committed) - len(lags), "write_p50": percentile(latencies, 50),
              "write_p99": percentile(latencies, 99)}
    print(f"lag: {result['achieved']:.0f} writes/s over {elapsed:.1f}s: p50"
          f" {result['lag_p50'] * 1e3:.1f} ms, p99 {result['lag_p99'] * 1e3:.1f} ms, max"
          f" {result['lag_max'] * 1e3:.1f} ms; write p50 {result['write_p50'] * 1e3:.1f} ms",
          flush=True)
    return result


def catch_up(entries: int, threads: int, home: Path) -> dict[str, Any]:
    """How fast the drainer applies a backlog (as after the relational store was down):
    writes are made with the drainer asleep, then one drain applies them all."""
    settings = load_settings(database_url=f"sqlite:///{home / 'catchup.db'}",
                             embedding_base_url="http://127.0.0.1:9/v1", llm_max_retries=0)
    runtime = Runtime.open(settings)
    runtime.migrate()
    tag = uuid.uuid4().hex[:8]
    mems = [GraphMem(f"bench-catchup-{tag}/w{i}/a/r", runtime=runtime) for i in range(threads)]
    start = mirror_module.Mirror._ensure_thread
    mirror_module.Mirror._ensure_thread = lambda self: None  # type: ignore[method-assign]
    try:  # no worker: entries stay pending, the writes' markers wait in the audit queue
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda n: mems[n % threads].remember_facts(
                [{"subject": f"s{n % 50}", "value": f"v{n}", "confidence": 0.9}],
                source="bench"), range(entries)))
    finally:
        mirror_module.Mirror._ensure_thread = start  # type: ignore[method-assign]
    t = time.perf_counter()
    applied = runtime.mirror.drain([m.space.key for m in mems])
    rate = applied / (time.perf_counter() - t)
    for mem in mems:
        mem.close()
    runtime.close()
    print(f"catch-up: {applied} pending entries applied at {rate:,.0f} entries/s", flush=True)
    return {"entries": applied, "rate": rate}


def report(chains: list[dict[str, Any]], lagged: dict[str, Any], caught: dict[str, Any]
           ) -> str:
    lines = ["| store | rows | append, 1 per tx (rows/s) | append, 1,000 per tx (rows/s) |"
             " queued, as operations append (rows/s) | caller per row, p50 (µs) |"
             " verify (rows/s) | verify --deep (rows/s) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {c['store']} | {c['rows']:,} | {c['append']:,.0f} | {c['append_batched']:,.0f}"
              f" | {c['queued']:,.0f} | {c['call_p50'] * 1e6:.0f}"
              f" | {c['verify']:,.0f} | {c['verify_deep']:,.0f} |" for c in chains]
    worst = min(c["verify"] for c in chains)
    lines += ["", f"Verify: **{worst:,.0f} rows/s** (target ≥ 20,000). `--deep` is bound by"
              " Ed25519 verification (one core). *Queued*: half as many rows again, put on a"
              " Mirror's audit queue by 8 threads the way operations do (the caller returns"
              " at once) and written by its worker in batches until flushed.", "",
              "| target rate | achieved | writes | writer threads | lag p50 (ms) | lag p99 (ms) |"
              " lag max (ms) | write p50 (ms) | write p99 (ms) |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
              f"| {lagged['rate']:.0f}/s | {lagged['achieved']:.0f}/s | {lagged['writes']:,} |"
              f" {lagged['threads']} | {lagged['lag_p50'] * 1e3:.1f} |"
              f" {lagged['lag_p99'] * 1e3:.1f} | {lagged['lag_max'] * 1e3:.1f} |"
              f" {lagged['write_p50'] * 1e3:.1f} | {lagged['write_p99'] * 1e3:.1f} |", "",
              f"Mirror lag p99: **{lagged['lag_p99']:.3f} s** (target ≤ 1 s) at"
              f" {lagged['achieved']:.0f} writes/s; {lagged['missing']} write(s) not applied"
              " within 30 s.", "",
              f"Catch-up: a backlog of {caught['entries']:,} outbox entries (the store was"
              f" down) is applied at **{caught['rate']:,.0f} entries/s**."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="100k audit rows")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--postgres", default=None, help="also run the chain on this URL")
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--backlog", type=int, default=1000, help="entries for the catch-up")
    args = parser.parse_args()
    rows = args.rows or (100_000 if args.full else 20_000)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        chains = [chain(f"sqlite:///{home / 'chain.db'}", rows, home)]
        if args.postgres:
            with pg_schema(args.postgres) as url:
                chains.append(chain(url, rows, home))
        lagged = lag(args.rate, args.seconds, args.threads, home)
        caught = catch_up(args.backlog, args.threads, home)
    body = report(chains, lagged, caught) + (
        f"\n\nMachine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the"
        " end of the run (the Neo4j server and the machine are shared with other work).")
    print(body)
    shown = ["URL" if prev == "--postgres" else arg
             for prev, arg in zip(["", *sys.argv[1:-1]], sys.argv[1:], strict=True)]
    command = " ".join(["python -m bench.audit", *shown])
    write_section("audit", f"Command: `{command}`\n\n{body}")


if __name__ == "__main__":
    main()
