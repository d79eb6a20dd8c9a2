"""Batched writes beside their raw equivalent: each batch graphmem writes is replayed as bare
UNWIND CREATE statements of the same nodes and edges (bench/floor.py, `Floor.replay`).

`remember/apply`'s parameters are captured as graphmem runs it, so the raw side writes exactly
the facts (labels, properties, hence every Fact index), SUPERSEDES/RETRACTS edges and outbox
entry graphmem wrote; graphmem's side also locks, loads the slots, reconciles and drafts the
audit payload, and its background work (mirror, embeddings) is waited for and counted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import graphmem.graph.remember as write_module
from bench.floor import Floor
from bench.probe import process_cpu, quiet_driver, settle
from bench.reconcile.__main__ import workload
from bench.results import percentile
from graphmem import GraphMem
from graphmem.runtime import Runtime


@dataclass
class BatchRun:
    size: int
    graphmem: list[float] = field(default_factory=list)  # the call's wall time, per batch
    caught_up: list[float] = field(default_factory=list)  # the call plus its background work
    raw: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # seconds, by side and process

    def facts_per_second(self, times: list[float]) -> float:
        return self.size * len(times) / sum(times)


@contextmanager
def captured() -> Iterator[list[dict[str, Any]]]:
    """The parameters of every `remember/apply` run while the block runs."""
    seen: list[dict[str, Any]] = []
    names = vars(write_module)  # the module's own binding of `run`, which its `apply` calls
    original = names["run"]

    def spy(tx: Any, name: str, **params: Any) -> Any:
        if name == "remember/apply":
            seen.append(params)
        return original(tx, name, **params)

    names["run"] = spy
    try:
        yield seen
    finally:
        names["run"] = original


def batched(runtime: Runtime, floor: Floor, server: int | None, batches: int, size: int,
            tag: str) -> BatchRun:
    """`batches` batches of `size` facts (the workload's mix), each followed by its raw replay;
    one batch first to warm both sides, not counted."""
    result = BatchRun(size)
    stream = workload(13)
    with GraphMem(space=f"bench-batch-{tag}", runtime=runtime) as mem, captured() as seen, \
            quiet_driver():
        for index in range(batches + 1):
            facts = [next(stream) for _ in range(size)]
            seen.clear()
            c0, s0, t0 = time.process_time(), _cpu(server), time.perf_counter()
            mem.remember_facts(facts)
            call = time.perf_counter() - t0
            settle(mem)
            whole = time.perf_counter() - t0
            c1, s1, t1 = time.process_time(), _cpu(server), time.perf_counter()
            floor.replay(seen[-1])
            raw = time.perf_counter() - t1
            c2, s2 = time.process_time(), _cpu(server)
            if index == 0:
                continue
            result.graphmem.append(call)
            result.caught_up.append(whole)
            result.raw.append(raw)
            for key, value in (("graphmem process", c1 - c0), ("graphmem Neo4j", s1 - s0),
                               ("raw process", c2 - c1), ("raw Neo4j", s2 - s1)):
                result.cpu[key] = result.cpu.get(key, 0.0) + value
    return result


def _cpu(pid: int | None) -> float:
    return process_cpu(pid) or 0.0


def batch_table(run: BatchRun, measured_server: bool) -> str:
    n = run.size * len(run.raw)
    p50 = {k: percentile(v, 50) * 1e3 for k, v in
           (("graphmem", run.graphmem), ("caught_up", run.caught_up), ("raw", run.raw))}
    rate = {k: run.facts_per_second(v) for k, v in
            (("graphmem", run.graphmem), ("caught_up", run.caught_up), ("raw", run.raw))}
    ms = {k: v * 1e3 / n for k, v in run.cpu.items()}
    lines = [f"Batches of {run.size:,} facts ({len(run.raw)} batches after one to warm up), each"
             " replayed at once as bare UNWIND CREATE statements of the same nodes and edges:",
             "", "| | batch p50 (ms) | facts/s | CPU per fact, this process (ms) |"
             " CPU per fact, Neo4j (ms) |", "| --- | ---: | ---: | ---: | ---: |",
             f"| raw UNWIND CREATE (facts, edges, outbox entry) | {p50['raw']:.1f} |"
             f" {rate['raw']:,.0f} | {ms['raw process']:.3f} | "
             + (f"{ms['raw Neo4j']:.3f} |" if measured_server else "not measured |"),
             f"| `remember_facts`, the call | {p50['graphmem']:.1f} | {rate['graphmem']:,.0f} |"
             " | |",
             f"| `remember_facts`, until mirror and vectors caught up | {p50['caught_up']:.1f} |"
             f" {rate['caught_up']:,.0f} | {ms['graphmem process']:.3f} | "
             + (f"{ms['graphmem Neo4j']:.3f} |" if measured_server else "not measured |"),
             "", f"Batch p50, `remember_facts` ÷ raw: **{p50['graphmem'] / p50['raw']:.2f}×**"
             f" (the call), **{p50['caught_up'] / p50['raw']:.2f}×** (background caught up);"
             f" **{rate['graphmem']:,.0f} facts/s** through the call."]
    return "\n".join(lines)
