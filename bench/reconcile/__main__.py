"""bench/reconcile: ingest pre-extracted facts one call per fact, then in batches of 1,000.

    python -m bench.reconcile            # 1k, 10k and 100k facts (the issue's sizes)
    python -m bench.reconcile --sizes 1000,10000

Workload: 60% new slots, 30% changes of existing slots, 5% removals, 5% restatements.
Per-write latency is sampled over the last 1,000 writes before each size is reached, so
the p50 at 100k against the p50 at 1k shows whether cost grows with the space.
"""

from __future__ import annotations

import argparse
import random
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from bench.cpu import CpuMeter, PerUnit
from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.graph.driver import run
from graphmem.runtime import Runtime

WINDOW = 1000
CPU_WRITES = 300  # single writes timed for CPU alone, without the interleaved floor
BASELINE_SPACE = f"bench-lock-floor-{uuid.uuid4().hex[:8]}"


def workload(seed: int) -> Iterator[dict[str, Any]]:
    """An endless, reproducible stream of extractor-shaped facts."""
    rng = random.Random(seed)
    current: dict[str, str] = {}
    slots: list[str] = []
    version = 0
    while True:
        version += 1
        roll = rng.random()
        if roll < 0.60 or len(slots) < 10:
            subject = f"setting_{len(slots)}"
            slots.append(subject)
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "confidence": 0.9}
            continue
        subject = rng.choice(slots)
        if subject not in current:
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "confidence": 0.9}
        elif roll < 0.90:
            current[subject] = f"v{version}"
            yield {"subject": subject, "value": current[subject], "action": "SUPERSEDE",
                   "confidence": 0.9}
        elif roll < 0.95:
            yield {"subject": subject, "value": current.pop(subject), "action": "RETRACT",
                   "confidence": 0.9}
        else:
            yield {"subject": subject, "value": current[subject], "confidence": 0.9}


def single(mem: GraphMem, sizes: list[int], single_max: int) -> list[dict[str, float]]:
    """One call per fact. Past `single_max` facts the space is grown in batches of 1,000 to
    within one window of the size, and only the window's facts are written one by one (a
    100k space one call at a time takes longer than a session allows); the rate is then the
    window's own."""
    rows, stream, written, start = [], workload(1), 0, time.perf_counter()
    floor_spent = 0.0
    for size in sizes:
        window: list[float] = []
        if size > single_max:
            while written < size - WINDOW:
                n = min(1000, size - WINDOW - written)
                mem.remember_facts([next(stream) for _ in range(n)])
                written += n
            start, floor_spent = time.perf_counter(), 0.0
            written_before = written
        floor: list[float] = []
        while written < size:
            fact = next(stream)
            t = time.perf_counter()
            mem.remember_facts([fact])
            elapsed = time.perf_counter() - t
            written += 1
            if size - written < WINDOW:
                window.append(elapsed)
                floor.append(lock_only(mem))
        total = time.perf_counter() - start
        count = written - written_before if size > single_max else written
        floor_spent += sum(floor)
        total -= floor_spent  # the interleaved baseline is not the workload's time
        rows.append({"size": size, "rate": count / total, "p50": percentile(window, 50) * 1e3,
                     "p99": percentile(window, 99) * 1e3, "grown": size > single_max,
                     "floor": percentile(floor, 50) * 1e3})
        print(f"single  {size:>7} facts: {count / total:8.0f} facts/s  "
              f"p50 {rows[-1]['p50']:.2f} ms  p99 {rows[-1]['p99']:.2f} ms", flush=True)
    return rows


def lock_only(mem: GraphMem) -> float:
    """The floor under any serialized write: one transaction that only takes a space's lock
    (remember/lock_and_load with no slots) and commits, in a space of its own, timed beside
    each single write so the ratio holds on a noisy machine."""
    now = datetime.now(UTC)
    t = time.perf_counter()
    mem.runtime.graph.execute(lambda tx: run(tx, "remember/lock_and_load", space=BASELINE_SPACE,
                                     now=now, slots=[], past=[], coexist=[]))
    return time.perf_counter() - t


def single_cpu(mem: GraphMem, meter: CpuMeter) -> PerUnit:
    """CPU of single-fact writes on their own (the lock-only floor is not interleaved), the
    workload's mix, in the space the single writes grew."""
    stream = workload(3)
    facts = [next(stream) for _ in range(CPU_WRITES)]
    mem.records.wait_for_embeddings(60)  # the embedding thread is excluded, but it shares the cores
    before = meter.read()
    for fact in facts:
        mem.remember_facts([fact])
    return meter.per_unit(before, meter.read(), len(facts))


def batched(mem: GraphMem, sizes: list[int], batch: int = 1000) -> list[dict[str, float]]:
    rows, stream, written, start = [], workload(2), 0, time.perf_counter()
    for size in sizes:
        per_fact: list[float] = []
        while written < size:
            facts = [next(stream) for _ in range(min(batch, size - written))]
            t = time.perf_counter()
            mem.remember_facts(facts)
            per_fact.append((time.perf_counter() - t) / len(facts))
            written += len(facts)
        total = time.perf_counter() - start
        rows.append({"size": size, "rate": written / total,
                     "p50": percentile(per_fact, 50) * 1e3, "p99": percentile(per_fact, 99) * 1e3})
        print(f"batched {size:>7} facts: {written / total:8.0f} facts/s  "
              f"p50 {rows[-1]['p50']:.3f} ms/fact  p99 {rows[-1]['p99']:.3f} ms/fact", flush=True)
    return rows


def drain_embeddings(mem: GraphMem, limit: float) -> str:
    """Fact vectors are computed after each write returns (graphmem/recall/embed_worker.py),
    by one background thread sharing the CPU with the writes timed above; say how far behind
    it was when the writes ended and how fast it catches up."""
    if not mem.runtime.has_embed_worker:
        return "Embedding: inside each write (GRAPHMEM_EMBED_BACKGROUND=off)."
    worker = mem.runtime.embed_worker
    behind, done0, t = worker.backlog(), worker.embedded, time.perf_counter()
    finished = mem.records.wait_for_embeddings(limit)
    elapsed = time.perf_counter() - t
    rate = (worker.embedded - done0) / elapsed if elapsed > 0 else 0.0
    line = (f"Embedding runs in the background (one thread, the local all-MiniLM-L6-v2): "
            f"{behind:,} facts were still queued when the writes ended; the worker then "
            f"embedded {worker.embedded - done0:,} in {elapsed:.0f} s (**{rate:,.0f} facts/s**)")
    return line + ("." if finished else f", and stopped waiting after {limit:.0f} s "
                   "(the rest is embedded in the background; recall finds it by full-text "
                   "meanwhile).")


def report(single_rows: list[dict[str, float]], batch_rows: list[dict[str, float]],
           cpu_single: PerUnit, cpu_batched: PerUnit) -> str:
    lines = ["| mode | space size | facts/s | p50 per write (ms) | p99 per write (ms) |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for mode, rows in (("single", single_rows), ("batch of 1,000", batch_rows)):
        for r in rows:
            label = f"{mode} (grown in batches, last {WINDOW:,} single)" if r.get("grown") \
                else mode
            lines.append(f"| {label} | {r['size']:,} | {r['rate']:,.0f} | {r['p50']:.3f} | "
                         f"{r['p99']:.3f} |")
    lines += ["", "Single writes beside the floor under any serialized write (a transaction"
              " that only takes a space's lock, timed interleaved): " + ", ".join(
                  f"at {r['size']:,}: {r['p50']:.2f} ms ÷ {r['floor']:.2f} ms ="
                  f" **{r['p50'] / r['floor']:.2f}×**" for r in single_rows) + "."]
    growth = single_rows[-1]["p50"] / single_rows[0]["p50"]
    lines += ["", f"Per-write p50 at {single_rows[-1]['size']:,} facts ÷ at "
              f"{single_rows[0]['size']:,}: **{growth:.2f}×** (target ≤ 1.5×). "
              f"Single-fact writes: **{single_rows[-1]['rate']:,.0f} facts/s** (target ≥ 200); "
              f"batched: **{batch_rows[-1]['rate']:,.0f} facts/s** (target ≥ 2,000)."]
    lines += ["", f"{cpu_single.describe('single-fact write')} ({CPU_WRITES} writes at"
              f" {single_rows[-1]['size']:,} facts; the embedding thread excluded).",
              "", f"{cpu_batched.describe('fact')} (batches of 1,000, every size above)."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--single-max", type=int, default=10_000,
                        help="past this size, grow the single-call space in batches first")
    parser.add_argument("--embed-wait", type=float, default=120.0,
                        help="seconds to watch the embedding backlog drain at the end")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    runtime = Runtime.open()
    runtime.migrate()
    meter = CpuMeter(runtime.settings)
    tag = uuid.uuid4().hex[:8]
    try:
        with GraphMem(space=f"bench-single-{tag}", runtime=runtime) as mem:
            single_rows = single(mem, sizes, args.single_max)
            cpu_single = single_cpu(mem, meter)
        with GraphMem(space=f"bench-batch-{tag}", runtime=runtime) as mem:
            before = meter.read()
            batch_rows = batched(mem, sizes)
            cpu_batched = meter.per_unit(before, meter.read(), sizes[-1])
            embedding = drain_embeddings(mem, args.embed_wait)
    finally:
        runtime.close()
    body = report(single_rows, batch_rows, cpu_single, cpu_batched) + "\n\n" + embedding
    print(body)
    write_section("reconcile", "Command: `python -m bench.reconcile --sizes "
                  f"{args.sizes} --single-max {args.single_max}`\n\n{body}")


if __name__ == "__main__":
    main()
