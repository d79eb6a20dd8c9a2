"""bench/batched: `remember_facts` of 1,000 facts with their vectors, against the model alone.

    python -m bench.batched                 # 5 batches of 1,000 each way
    python -m bench.batched --batches 3 --no-write

Two sides, each into a fresh space of the local managed Neo4j and a fresh SQLite store:

- the real model (all-MiniLM-L6-v2 on ONNX Runtime, the default): the time from the call to
  the last of its facts' vectors stored, against the model embedding the same texts by itself
  (`Embeddings.documents`, in the worker's batches of 128) just before, in the same run;
- the stub embedder (a hash, bench/stub_embed.py): the same batches, so the write path itself
  is measured, vectors stored included.

Each batch is the reconcile benchmark's workload (new slots, changes, removals), 1,000 facts
to a call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid
from collections.abc import Iterator
from typing import Any

from bench.api.__main__ import scratch_settings
from bench.reconcile.__main__ import workload
from bench.results import write_section
from bench.stub_embed import stub_embeddings
from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.mirror.db import RelationalStore
from graphmem.recall.embed_worker import BATCH
from graphmem.recall.text import fact_text
from graphmem.runtime import Runtime


def batches(size: int) -> Iterator[list[dict[str, Any]]]:
    stream = workload(11)
    while True:
        yield [next(stream) for _ in range(size)]


def open_runtime(stub: bool) -> Runtime:
    _, settings = scratch_settings("batched")
    runtime = Runtime(settings, GraphDriver(settings), RelationalStore(settings.relational_url),
                      embedder=stub_embeddings() if stub else None)
    runtime.migrate()
    return runtime


def model_rate(runtime: Runtime, facts: list[dict[str, Any]]) -> float:
    """Texts a second the model embeds by itself, in the worker's batches."""
    texts = [fact_text(f["subject"], f["value"], "global") for f in facts]
    embeddings = runtime.embedder
    embeddings.documents(texts[:8])  # loaded
    began = time.perf_counter()
    for start in range(0, len(texts), BATCH):
        embeddings.documents(texts[start:start + BATCH])
    return len(texts) / (time.perf_counter() - began)


def written(runtime: Runtime, facts: list[dict[str, Any]]) -> tuple[float, float]:
    """(seconds of the call, seconds until its vectors were stored) for one batch."""
    with GraphMem(space=f"bench-batched-{uuid.uuid4().hex[:8]}", runtime=runtime) as mem:
        mem.remember_facts(facts[:10])  # the space exists, the worker runs
        assert mem.records.wait_for_embeddings(600)
        began = time.perf_counter()
        mem.remember_facts(facts)
        call = time.perf_counter() - began
        assert mem.records.wait_for_embeddings(600)
        return call, time.perf_counter() - began


def side(stub: bool, rounds: int, size: int) -> dict[str, float]:
    runtime = open_runtime(stub)
    source = batches(size)
    try:
        written(runtime, next(source))  # warm: model loaded, statements planned
        calls, totals, rates = [], [], []
        for _ in range(rounds):
            facts = next(source)
            if not stub:
                rates.append(model_rate(runtime, facts))
            call, total = written(runtime, facts)
            calls.append(call)
            totals.append(total)
    finally:
        runtime.close()
    found = {"call": size / statistics.median(calls), "total": size / statistics.median(totals)}
    if rates:
        found["model"] = statistics.median(rates)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.batched")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    load0 = os.getloadavg()[0]
    real = side(False, args.batches, args.size)
    stub = side(True, args.batches, args.size)
    text = "\n".join([
        f"Batches of {args.size:,} facts, median of {args.batches}; load average {load0:.1f} at"
        f" start, {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} cores.", "",
        "| embedder | the call (facts/s) | vectors stored (facts/s) | the model alone"
        " (texts/s) | stored ÷ model |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| all-MiniLM-L6-v2 (ONNX) | {real['call']:,.0f} | {real['total']:,.0f}"
        f" | {real['model']:,.0f} | **{real['total'] / real['model']:.2f}×** |",
        f"| stub (hash) | {stub['call']:,.0f} | **{stub['total']:,.0f}** | | |",
    ])
    print(text)
    if not args.no_write:
        write_section("batched", f"Command: `python -m bench.batched --batches {args.batches}"
                                 f" --size {args.size}`\n\n{text}")


if __name__ == "__main__":
    main()
