"""bench/hosts: the throughput benchmark's HTTP load through nginx over 1, 2 and 3 graphmem
hosts sharing one Neo4j and one Postgres, with one host SIGKILLed mid-load in the 3-host run.

    python -m bench.hosts                      # 16 clients (8 on one space), 30 s a run
    python -m bench.hosts --seconds 10 --no-write

Each host is a real `graphmem serve` with a home of its own and the shared secrets from its
environment (tests/support/fleet.py, which the 3-host test uses too); the relational store is
a fresh schema of the Postgres database at GRAPHMEM_TEST_POSTGRES_URL (else the one `.ci/run`
sets up). Every run writes new spaces of a tenant of its own; its acknowledged writes are then
checked against the graph (none lost, none twice, one active value per slot), the mirror
against the graph, and the audit chain from every host's home.

On this machine's two cores the hosts share one CPU budget with Neo4j, Postgres and nginx: the
figures measure what running several hosts costs, not what it gains.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import psycopg
from psycopg import sql

from bench.api.__main__ import scratch_settings
from bench.load.__main__ import Client, correctness, ms
from bench.results import write_section
from graphmem.auth import KeyStore
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from support.fleet import Fleet  # noqa: E402  (the harness the 3-host test uses)

POSTGRES = (os.environ.get("GRAPHMEM_TEST_POSTGRES_URL")
            or "postgresql://graphmem:graphmem@127.0.0.1:5432/graphmem_test")


def fresh_schema(url: str) -> tuple[str, str]:
    """A new schema of the database at `url`: its name, and a URL whose tables land in it."""
    schema = f"bench_hosts_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    joiner = "&" if "?" in url else "?"
    return schema, f"{url}{joiner}options=-csearch_path%3D{schema}"


def schema_bytes(url: str, schema: str) -> int:
    """The schema's tables with their indexes and TOAST, on disk."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                           " JOIN pg_namespace n ON n.oid = c.relnamespace"
                           " WHERE n.nspname = %s AND c.relkind = 'r'", (schema,)).fetchone()
    return int(row[0]) if row else 0


def drop_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def one_run(count: int, args: argparse.Namespace, kill: bool) -> dict[str, object]:
    workdir, settings = scratch_settings(f"hosts{count}")
    schema, database = fresh_schema(POSTGRES)
    store = RelationalStore(database)
    store_migrations.up(store)
    fleet = Fleet(workdir, settings, database, count=count, extra={
        "GRAPHMEM_RATE_PER_MIN": "1000000000", "GRAPHMEM_API_MODEL_CALLS_PER_MIN": "1000000000",
        "GRAPHMEM_LOG_LEVEL": "WARNING"})
    tenant = f"hosts-{uuid.uuid4().hex[:8]}"
    token = KeyStore(store, fleet.secrets["GRAPHMEM_API_KEY_PEPPER"].encode()).create(
        tenant, "writer").token
    runtime = Runtime.open(settings)  # the graph, for the checks
    stop = threading.Event()
    clients: list[Client] = []
    killed = ""
    try:
        fleet.start()
        clients = [Client(fleet.base, token, stop, number=i,
                          space="shared/a/r" if i < args.shared else f"c{i}/a/r",
                          shared=i < args.shared) for i in range(args.clients)]
        for client in clients:
            client.start()
        time.sleep(args.warm)
        warm = [len(c.times) for c in clients]
        began = time.monotonic()
        if kill:
            time.sleep(args.seconds / 3)
            victim = fleet.hosts[1]
            victim.kill()
            down = time.monotonic()
            victim.start()
            victim.wait_ready()
            killed = f"{victim.name} SIGKILLed and back in {time.monotonic() - down:.1f} s"
            time.sleep(max(0.0, args.seconds - (time.monotonic() - began)))
        else:
            time.sleep(args.seconds)
        stop.set()
        for client in clients:
            client.join(180)
        elapsed = time.monotonic() - began
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and pending(runtime, tenant):
            time.sleep(0.5)
        checked = correctness(runtime, tenant, clients)
        spaces = {f"{tenant}/{c.space}" for c in clients}
        mirror = [fleet.hosts[0].cli("mirror", "check", "--space", s).returncode
                  for s in sorted(spaces)]
        for host in fleet.hosts:
            host.stop()
        audit = [host.cli("audit", "verify").returncode for host in fleet.hosts]
        stored = schema_bytes(POSTGRES, schema)
    finally:
        stop.set()
        fleet.close()
        runtime.close()
        store.close()
        drop_schema(POSTGRES, schema)
    times = [t for c, w in zip(clients, warm, strict=True) for t in c.times[w:]]
    failures: Counter[str] = Counter()
    for client in clients:
        failures.update(client.failures)
    return {"hosts": count, "writes_s": len(times) / elapsed, "p50": ms(times, 50),
            "p99": ms(times, 99), "checked": checked, "failures": dict(failures),
            "mirror_ok": not any(mirror), "audit_ok": not any(audit), "killed": killed,
            "pg_bytes": stored / max(1, checked["acknowledged"])}


def pending(runtime: Runtime, tenant: str) -> int:
    with runtime.graph.session() as session:
        found = session.run("MATCH (o:Outbox) WHERE o.done = false AND o.space STARTS WITH"
                            " $t RETURN count(o) AS n", t=tenant + "/").data()
        return int(found[0]["n"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.hosts")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--shared", type=int, default=8, help="clients on one shared space")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warm", type=float, default=15.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    runs = []
    for n in (1, 2, 3):
        runs.append(one_run(n, args, kill=n == 3))
        print(f"{n} host(s): {runs[-1]['writes_s']:.1f} writes/s", flush=True)
    base = float(runs[0]["writes_s"])  # type: ignore[arg-type]
    lines = ["| hosts | writes/s | vs 1 host | client p50 | client p99 | acknowledged | lost"
             " | twice | slots with 2 actives | mirror = graph | audit verify | failed calls"
             " | Postgres bytes per write |",
             "|" + " ---: |" * 9 + " --- | --- | --- | ---: |"]
    for run in runs:
        c = run["checked"]
        assert isinstance(c, dict)
        lines.append(
            f"| {run['hosts']} | {run['writes_s']:.1f} | {float(run['writes_s']) / base:.2f}x"  # type: ignore[arg-type]
            f" | {run['p50']:.0f} ms | {run['p99']:.0f} ms | {c['acknowledged']} | {c['lost']}"
            f" | {c['duplicated']} | {c['slots_with_two_actives']}"
            f" | {'ok' if run['mirror_ok'] else 'DIFFERS'}"
            f" | {'ok' if run['audit_ok'] else 'BROKEN'}"
            f" | {run['failures'] or 'none'} | {run['pg_bytes']:,.0f} |")
    text = "\n".join(lines) + (
        f"\n\nIn the 3-host run {runs[2]['killed']}; the calls it held when it died are the"
        " failed calls (nginx answers them 502 with its own page, which the clients count as"
        " a JSONDecodeError; a refused connection goes on to the next host). Each host is one"
        " `graphmem serve --workers 1` process, so more hosts also means more Python processes"
        " on the two cores; the hosts, Neo4j, Postgres and nginx share one CPU budget: this"
        " measures what several hosts cost, not a speed-up.")
    print(text)
    if not args.no_write:
        write_section("hosts", f"Command: `python -m bench.hosts --clients {args.clients}"
                               f" --shared {args.shared} --seconds {args.seconds:g}"
                               f" --warm {args.warm:g}`; the real model, Postgres mirror,"
                               f" nginx round-robin, {os.cpu_count()} cores.\n\n{text}")


if __name__ == "__main__":
    main()
