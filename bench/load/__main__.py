"""bench/load: concurrent clients writing over HTTP with the real embedding model.

    python -m bench.load                          # 16 clients, 8 on one space, 40 s, 2 workers
    python -m bench.load --clients 4 --seconds 10 --no-write
    python -m bench.load --recall-facts 100000 --warm 30   # and questions over 100k facts

A real `graphmem serve --workers N` on loopback with its defaults (the all-MiniLM-L6-v2
model on ONNX Runtime, vectors stored by the background embedding worker), over the managed
Neo4j and a fresh SQLite store. Each client sends one fact per `rememberFacts` call, as an
agent streams what it learns, as fast as it is answered: `--shared` of them write into one
space, over twenty slots (each write supersedes the slot's value), the others each into a
space of its own, new subjects. Reported: writes/s, the clients' p50/p99, the server's own
(its access log), CPU per write of the server's processes and of Neo4j, and how long after the
last write the last acknowledged fact got its vector. Then every acknowledged write is
checked: none lost, none stored twice, one active value per slot.

With `--recall-facts N`, `--recall-clients` more clients ask `recall` questions (no model
answer: the ranked facts) of a space of N facts while the writers run, and their p50/p95 is
reported. That space (bench.retrieval's corpus, with vectors of the real model) is written
once and kept in the graph for later runs: the first run spends minutes embedding it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.api.__main__ import PEPPER, free_port, open_scratch, serve, wait_ready
from bench.cpu import _server_pid, _stat_seconds
from bench.results import percentile, write_section
from bench.retrieval import corpus as retrieval_corpus
from graphmem import GraphMem
from graphmem.auth import KeyStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings

WRITE = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
         " { action value } }")
SLOTS = 20  # the shared space's subjects
STORING = {"ADD", "SUPERSEDE", "RETRACT", "ARCHIVE", "FLAG", "COEXIST"}
ACCESS = re.compile(r'"POST /graphql" 200 ([0-9.]+)ms')
RECALL = ("query($s: String!, $q: String!) { recall(space: $s, question: $q)"
          " { facts { fact { subject value } } } }")
RECALL_TENANT = "bench-recall"


@dataclass(eq=False)
class Caller(threading.Thread):
    """One client over HTTP, calling until stopped; failures counted by kind or error code."""

    base: str
    token: str
    stop: threading.Event
    times: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with httpx.Client(timeout=120, headers=headers) as http:
            self.calls(http)

    def calls(self, http: httpx.Client) -> None:
        raise NotImplementedError

    def post(self, http: httpx.Client, query: str, variables: dict[str, Any]
             ) -> tuple[float, dict[str, Any] | None] | None:
        """(seconds, the answer's data, None when it carried errors), or None when the call
        failed on the way."""
        began = time.perf_counter()
        try:
            body = http.post(f"{self.base}/graphql",
                             json={"query": query, "variables": variables}).json()
        except (httpx.HTTPError, ValueError) as e:
            self.failures[type(e).__name__] += 1
            return None
        took = time.perf_counter() - began
        if body.get("errors"):
            self.failures[str(body["errors"][0].get("extensions", {}).get("code"))] += 1
            return took, None
        data: dict[str, Any] = body["data"]
        return took, data


@dataclass(eq=False)
class Client(Caller):
    """Writes one fact per call: the shared space's slots in turn, or new subjects."""

    number: int = 0
    space: str = ""
    shared: bool = False
    acknowledged: list[tuple[str, str, str, str]] = field(default_factory=list)

    def calls(self, http: httpx.Client) -> None:
        n = 0
        while not self.stop.is_set():
            subject = f"slot_{n % SLOTS}" if self.shared else f"c{self.number}_k{n}"
            value = f"c{self.number}-v{n}"
            fact = {"subject": subject, "value": value, "confidence": 0.9}
            answer = self.post(http, WRITE, {"s": self.space, "f": [fact]})
            if answer is None:
                continue
            took, data = answer
            self.times.append(took)
            for result in data["rememberFacts"] if data is not None else ():
                self.acknowledged.append((self.space, subject, value, result["action"]))
            n += 1


@dataclass(eq=False)
class Asker(Caller):
    """Asks the recall space's questions in turn, one at a time, until stopped."""

    space: str = ""
    questions: list[str] = field(default_factory=list)
    empty: int = 0

    def calls(self, http: httpx.Client) -> None:
        n = 0
        while not self.stop.is_set():
            question = self.questions[n % len(self.questions)]
            n += 1
            answer = self.post(http, RECALL, {"s": self.space, "q": question})
            if answer is None or answer[1] is None:
                continue
            self.times.append(answer[0])
            if not answer[1]["recall"]["facts"]:
                self.empty += 1


def recall_space(runtime: Runtime, size: int) -> tuple[str, list[str]]:
    """The space of `size` facts the askers question (written and embedded when missing) and
    its questions, as (space under RECALL_TENANT, questions)."""
    space = f"c{size}/a/r"
    corpus = retrieval_corpus.build(size)
    key = f"{RECALL_TENANT}/{space}"
    vectors = query(runtime, "MATCH (v:FactVector) WHERE v.space = $space AND v.seq IS NOT NULL"
                             " RETURN count(v) AS n", space=key)[0]["n"]
    if vectors < size:
        print(f"writing the recall space ({size:,} facts, {vectors:,} with vectors); the real"
              " model embeds them, which takes minutes the first time", flush=True)
        with GraphMem(space=key, runtime=runtime) as mem:
            if not mem.active(corpus.facts[-1]["subject"]):
                for start in range(0, size, 1000):
                    mem.remember_facts(corpus.facts[start:start + 1000])
            mem.records.wait_for_embeddings(3600)
    rng = random.Random(3)
    return space, [q.text for q in rng.sample(corpus.questions, 500)]


def process_cpu(root: int) -> float:
    """CPU seconds of a process and its descendants (the server's workers and their
    embedding processes)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    family, grown = {root}, True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                grown = True
    return sum(_stat_seconds(Path(f"/proc/{pid}/stat")) or 0.0 for pid in family)


def neo4j_cpu(settings: Settings) -> float | None:
    pid = _server_pid(settings)
    return None if pid is None else _stat_seconds(Path(f"/proc/{pid}/stat"))


def query(runtime: Runtime, cypher: str, **params: Any) -> list[dict[str, Any]]:
    with runtime.graph.session() as session:
        return [record.data() for record in session.run(cypher, params)]


def unembedded(runtime: Runtime, tenant: str) -> int:
    rows = query(runtime,
        "MATCH (f:Fact) WHERE f.space STARTS WITH $tenant AND f.status = 'ACTIVE'"
        " AND NOT EXISTS { MATCH (:FactVector {fact_id: f.id}) } RETURN count(f) AS n",
        tenant=tenant + "/")
    return int(rows[0]["n"])


def embedding_lag(runtime: Runtime, tenant: str, limit: float = 600.0) -> float:
    """Seconds from now until every active fact of the tenant has its vector."""
    began = time.monotonic()
    while unembedded(runtime, tenant) and time.monotonic() - began < limit:
        time.sleep(0.25)
    return time.monotonic() - began


def correctness(runtime: Runtime, tenant: str, clients: list[Client]) -> dict[str, int]:
    """Acknowledged writes against the graph: lost, stored twice, slots with two actives."""
    stored = Counter((f"{tenant}/{space}", subject, value)
                     for c in clients for space, subject, value, action in c.acknowledged
                     if action in STORING)
    found = Counter((r["space"], r["subject"], r["value"]) for r in query(runtime,
        "MATCH (f:Fact) WHERE f.space STARTS WITH $tenant"
        " RETURN f.space AS space, f.subject AS subject, f.value AS value", tenant=tenant + "/"))
    doubles = query(runtime,
        "MATCH (f:Fact:Active) WHERE f.space STARTS WITH $tenant"
        " WITH f.space AS space, f.subject AS subject, f.scope AS scope, count(*) AS n"
        " WHERE n > 1 RETURN count(*) AS slots", tenant=tenant + "/")
    return {"acknowledged": sum(stored.values()),
            "lost": sum(1 for k in stored if not found[k]),
            "duplicated": sum(1 for k, n in found.items() if n > 1),
            "slots_with_two_actives": int(doubles[0]["slots"])}


def server_times(log: Path, skip: int) -> list[float]:
    """The server's own times for /graphql POSTs, in seconds, after the first `skip`."""
    found = [float(m.group(1)) / 1000 for line in log.read_text().splitlines()
             if (m := ACCESS.search(line))]
    return found[skip:]


def ms(samples: list[float], q: float) -> float:
    return percentile(samples, q) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--shared", type=int, default=8, help="clients on one shared space")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--warm", type=float, default=10.0,
                        help="seconds of the same load before the measured window")
    parser.add_argument("--workers", type=int, default=2, help="graphmem serve --workers")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for the server (GRAPHMEM_...), repeatable")
    parser.add_argument("--no-results", action="store_true",
                        help="print the figures only, bench/RESULTS.md untouched (a run"
                             " under a profiler)")
    parser.add_argument("--recall-facts", type=int, default=0,
                        help="facts in the space the askers question (0: no askers)")
    parser.add_argument("--recall-clients", type=int, default=1)
    parser.add_argument("--no-write", action="store_true",
                        help="print the figures without writing bench/RESULTS.md")
    args = parser.parse_args(argv)
    workdir, runtime = open_scratch("load")
    settings = runtime.settings
    tenant = f"load-{uuid.uuid4().hex[:8]}"
    keys = KeyStore(runtime.store, PEPPER.encode())
    token = keys.create(tenant, "writer").token
    asked, questions = (recall_space(runtime, args.recall_facts) if args.recall_facts
                        else ("", []))
    reader = keys.create(RECALL_TENANT, "reader").token
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = workdir / "serve.log"
    extra = dict(item.split("=", 1) for item in args.server_env)
    # one asker stands for many users: the per-key budget of model-calling fields is lifted
    extra.setdefault("GRAPHMEM_API_MODEL_CALLS_PER_MIN", str(10**9))
    proc = serve(settings, port, log, workers=args.workers, log_level="INFO", extra=extra)
    stop = threading.Event()
    clients = [Client(base, token, stop, number=i,
                      space="shared/a/r" if i < args.shared else f"c{i}/a/r",
                      shared=i < args.shared) for i in range(args.clients)]
    askers = [Asker(base, reader, stop, space=asked, questions=questions[i::args.recall_clients])
              for i in range(args.recall_clients if questions else 0)]
    try:
        wait_ready(base, proc)
        for client in [*clients, *askers]:
            client.start()
        time.sleep(args.warm)
        warm_calls = [len(c.times) for c in clients]
        warm_asked = [len(a.times) for a in askers]
        warm_served = len(server_times(log, 0))
        cpu_before, neo_before = process_cpu(proc.pid), neo4j_cpu(settings)
        began = time.monotonic()
        time.sleep(args.seconds)
        stop.set()
        for client in [*clients, *askers]:
            client.join(180)
        elapsed = time.monotonic() - began
        cpu_after, neo_after = process_cpu(proc.pid), neo4j_cpu(settings)
        lag = embedding_lag(runtime, tenant)
        checked = correctness(runtime, tenant, clients)
    finally:
        proc.terminate()
        proc.wait(timeout=600)
        runtime.close()
    measured = [c.times[warm:] for c, warm in zip(clients, warm_calls, strict=True)]
    times = [t for found in measured for t in found]
    shared = [t for c, found in zip(clients, measured, strict=True) if c.shared for t in found]
    own = [t for c, found in zip(clients, measured, strict=True) if not c.shared for t in found]
    writes = len(times)
    served = server_times(log, warm_served)  # recall's among them, if asked
    recalls = [t for a, warm in zip(askers, warm_asked, strict=True) for t in a.times[warm:]]
    failures: Counter[str] = Counter()
    for caller in [*clients, *askers]:
        failures.update(caller.failures)
    server_ms = (cpu_after - cpu_before) / max(writes, 1) * 1000
    neo_ms = ((neo_after - neo_before) / writes * 1000 if neo_after and neo_before and writes
              else None)
    neo = "not measured" if neo_ms is None else f"{neo_ms:.1f} ms"
    ceiling = ("" if neo_ms is None else
               f" CPU per write, server and Neo4j: {server_ms + neo_ms:.1f} ms, so"
               f" {os.cpu_count()} cores can do at most"
               f" {(os.cpu_count() or 1) * 1000 / (server_ms + neo_ms):.0f} writes/s"
               " (the clients' own CPU aside).")
    rows = [
        "| writes/s | client p50 | client p99 | server p50 | server p99 | server CPU/write"
        " | Neo4j CPU/write | embedding lag after the end |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {writes / elapsed:.1f} | {ms(times, 50):.0f} ms | {ms(times, 99):.0f} ms"
        f" | {ms(served, 50):.0f} ms | {ms(served, 99):.0f} ms"
        f" | {server_ms:.1f} ms | {neo}"
        f" | {lag:.1f} s |",
    ]
    verdict = (f"Checked: {checked['acknowledged']} acknowledged stored facts,"
               f" {checked['lost']} lost, {checked['duplicated']} stored twice,"
               f" {checked['slots_with_two_actives']} slots with two active values; failed"
               f" calls: {dict(failures) or 'none'}.{ceiling}")
    split = (f"Clients on the shared space: p50 {ms(shared, 50):.0f} ms, p99 {ms(shared, 99):.0f}"
             f" ms ({len(shared)} writes); on spaces of their own: p50 {ms(own, 50):.0f} ms,"
             f" p99 {ms(own, 99):.0f} ms ({len(own)} writes).")
    text = "\n".join(rows) + "\n\n" + split + " " + verdict
    if askers:
        text += (f"\n\nRecall over {args.recall_facts:,} facts while the writes ran"
                 f" ({len(askers)} asker(s), {len(recalls)} questions, ranked facts without a"
                 f" model answer): p50 {ms(recalls, 50):.0f} ms, **p95 {ms(recalls, 95):.0f}"
                 f" ms**, p99 {ms(recalls, 99):.0f} ms;"
                 f" {sum(a.empty for a in askers)} answered with no fact.")
    print(text)
    if not args.no_write and not args.no_results:
        write_section("load", f"Command: `python -m bench.load --clients {args.clients}"
                              f" --shared {args.shared} --seconds {args.seconds:g}"
                              f" --warm {args.warm:g} --workers {args.workers}"
                              + (f" --recall-facts {args.recall_facts} --recall-clients"
                                 f" {args.recall_clients}" if askers else "")
                              + "".join(f" --server-env {e}" for e in args.server_env)
                              + "`; load average (the bench's clients included)"
                              f" {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} cores,"
                              f" the real model.\n\n{text}")


if __name__ == "__main__":
    main()
