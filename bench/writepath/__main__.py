"""bench/writepath: where a single-fact `remember_facts` spends its time, beside the raw floor.

    python -m bench.writepath                 # a space of 1,000 facts, 300 probed writes
    python -m bench.writepath --size 5000 --writes 500
    python -m bench.writepath --also 10000,100000   # and the p50 ratio at further sizes

In one run, on the same Neo4j: the raw floor (a bare one-statement and two-statement
`execute_write` of the official driver), single-fact writes interleaved with it, then the
probed writes: Bolt round trips per write (by thread), Neo4j's own time per statement, CPU
per write of every thread of this process (the writer, the mirror's worker and marks
thread, the embedding thread) and of the Neo4j server, and the indexes a write updates.
Embeddings are stubbed (bench/stub_embed.py): the engine is measured, not the model.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections import defaultdict
from typing import Any

from bench.floor import Floor
from bench.probe import (
    bolt_server_pid,
    deadlock_log,
    probing,
    process_cpu,
    quiet,
    quiet_driver,
    server_threads,
    settle,
    thread_cpu,
)
from bench.reconcile.__main__ import workload
from bench.results import percentile, write_section
from bench.stub_embed import HashEmbedder, open_runtime
from bench.writepath.batch import batch_table, batched
from graphmem import GraphMem

WRITER = "MainThread"


def grow(mem: GraphMem, size: int, seed: int = 7) -> Any:
    """The space filled to `size` facts in batches; returns the workload's stream."""
    stream = workload(seed)
    written = 0
    while written < size:
        n = min(500, size - written)
        mem.remember_facts([next(stream) for _ in range(n)])
        written += n
    settle(mem)
    return stream


def interleaved(mem: GraphMem, floor: Floor, stream: Any, writes: int
                ) -> dict[str, list[float]]:
    """Single writes timed beside the one- and two-statement floor, in turn."""
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(writes):
        order = ("write", "one", "two") if i % 2 else ("two", "one", "write")
        for kind in order:
            t = time.perf_counter()
            if kind == "write":
                mem.remember_facts([next(stream)])
            elif kind == "one":
                floor.one()
            else:
                floor.two()
            times[kind].append(time.perf_counter() - t)
    return times


def probed(mem: GraphMem, stream: Any, writes: int, server: int | None) -> dict[str, Any]:
    """Round trips, statements, server time and CPU of `writes` single writes, the
    background catch-up included (measured until it has caught up)."""
    settle(mem)
    cpu0, srv0, t0 = thread_cpu(), process_cpu(server), time.perf_counter()
    with quiet_driver(), probing() as probe:
        for _ in range(writes):
            mem.remember_facts([next(stream)])
        wall = time.perf_counter() - t0
        cpu_writes = thread_cpu()
        settle(mem)
    cpu1, srv1 = thread_cpu(), process_cpu(server)
    writer_cpu = cpu_writes.get(WRITER, 0.0) - cpu0.get(WRITER, 0.0)
    threads = {name: (cpu1.get(name, 0.0) - cpu0.get(name, 0.0)) * 1e3 / writes
               for name in set(cpu0) | set(cpu1)}
    threads[WRITER] = writer_cpu * 1e3 / writes  # the writes alone, not the settling
    return {"wall_ms": wall * 1e3 / writes, "threads": threads,
            "server_ms": None if srv0 is None or srv1 is None else (srv1 - srv0) * 1e3 / writes,
            "round_trips": {k: v / writes for k, v in probe.round_trips.items()},
            "statements": {f"{t} {n}": v / writes for (t, n), v in probe.statements.items()},
            "statement_ms": {n: v / writes for n, v in probe.server_ms.items()}}


CPU_KINDS = {"two": "raw, 2 statements (lock, create a node)",
             "text": "raw, 2 statements, the node under a full-text index like `fact_search`",
             "vector": "raw, 2 statements, the node also carrying a vector under a vector index",
             "write": "`remember_facts`, one fact (background work caught up)"}


def cpu_beside_floor(mem: GraphMem, floor: Floor, stream: Any, writes: int, warm: int,
                     server: int | None) -> dict[str, dict[str, float]]:
    """CPU per write (ms) of the floor's transactions and of graphmem's single write, each
    kind run `writes` times back to back, after `warm` rounds of all of them: the JVM keeps
    compiling Neo4j's write path for thousands of transactions after a start (its JIT
    threads then cost more than the writes themselves), and a figure taken before it has
    settled measures the compiler."""
    floor.indexed()
    vector = HashEmbedder().embed(["bench floor"])[0]
    ops: dict[str, Any] = {"two": floor.two, "text": floor.two_text,
                           "vector": lambda: floor.two_vector(vector),
                           "write": lambda: mem.remember_facts([next(stream)])}
    found: dict[str, dict[str, float]] = {}
    with quiet_driver():
        for _ in range(warm):
            for op in ops.values():
                op()
        settle(mem)
        for kind, op in ops.items():
            quiet(server)
            p0, s0 = thread_cpu(), server_threads(server)
            for _ in range(writes):
                op()
            if kind == "write":
                settle(mem)
            quiet(server)  # the merges a kind's writes set off are its own
            p1, s1 = thread_cpu(), server_threads(server)
            row = {"process": (sum(p1.values()) - sum(p0.values())) * 1e3 / writes}
            if s0 and s1:
                groups = {k: (s1.get(k, 0.0) - s0.get(k, 0.0)) * 1e3 / writes for k in s1}
                total = groups.pop("total")
                groups["threads that exited (Lucene merges)"] = total - sum(groups.values())
                row |= {"server": total} | groups
            found[kind] = row
    return found


def cpu_table(cpu: dict[str, dict[str, float]], warm: int, writes: int) -> str:
    groups = sorted({k for row in cpu.values() for k in row} - {"process", "server"})
    lines = [f"CPU per write (ms), each kind {writes} times back to back after {warm} warm-up"
             " rounds of all four, from a quiet server until it is quiet again (the Lucene"
             " merges a kind's writes set off included); Neo4j's by thread group:", "",
             "| per write | this process | Neo4j | " + " | ".join(groups) + " | total |"
             " total ÷ raw 2 statements |", "| --- | ---: | ---: | " + " | ".join(
                 "---:" for _ in groups) + " | ---: | ---: |"]
    base = cpu["two"]["process"] + cpu["two"].get("server", 0.0)
    for kind, label in CPU_KINDS.items():
        row = cpu[kind]
        total = row["process"] + row.get("server", 0.0)
        lines.append(f"| {label} | {row['process']:.2f} | {row.get('server', 0.0):.2f} | "
                     + " | ".join(f"{row.get(g, 0.0):.2f}" for g in groups)
                     + f" | **{total:.2f}** | {total / base:.2f}× |")
    write, both = cpu["write"], cpu["vector"]
    total = write["process"] + write.get("server", 0.0)
    indexed = both["process"] + both.get("server", 0.0)
    lines += ["", f"Total CPU per single-fact write: **{total:.2f} ms** (target ≤ 5 ms), so 2"
              f" cores can take at most {2000 / total:,.0f} writes/s; the bare two-statement"
              f" transaction alone costs {base:.2f} ms, and the same with its node under a"
              f" full-text and a vector index {indexed:.2f} ms."]
    return "\n".join(lines)


def indexes(floor: Floor) -> list[str]:
    """The indexes a single-fact write updates: those over a label it writes nodes of
    (Fact, Entity, Outbox, Space) whose properties those nodes carry."""
    rows = floor.read("SHOW INDEXES YIELD name, type, entityType, labelsOrTypes,"
                              " properties WHERE entityType = 'NODE' RETURN *")
    return [f"{r['name']} ({r['type'].lower()}: {', '.join(r['labelsOrTypes'] or ['any'])}"
            f"{'(' + ', '.join(r['properties']) + ')' if r['properties'] else ''})"
            for r in rows]


def report(args: argparse.Namespace, times: dict[str, list[float]], probe: dict[str, Any],
           deadlocks: int, index_rows: list[str], load: tuple[float, float]) -> str:
    p50 = {k: percentile(v, 50) * 1e3 for k, v in times.items()}
    p99 = {k: percentile(v, 99) * 1e3 for k, v in times.items()}
    lines = [f"Shared machine, load average (1 min) {load[0]:.1f} at start and {load[1]:.1f}"
             f" at end on {os.cpu_count()} cores: figures are not final; ratios are of one run.",
             "", f"Space of {args.size:,} facts, {args.writes} single-fact writes interleaved"
             " with the floor, then {0} probed writes. Embeddings stubbed.".format(args.writes),
             "", "| | p50 (ms) | p99 (ms) | ÷ two-statement floor (p50) |",
             "| --- | ---: | ---: | ---: |"]
    labels = {"one": "raw `execute_write`, 1 statement",
              "two": "raw `execute_write`, 2 statements", "write": "`remember_facts`, one fact"}
    for kind in ("one", "two", "write"):
        lines.append(f"| {labels[kind]} | {p50[kind]:.2f} | {p99[kind]:.2f} |"
                     f" {p50[kind] / p50['two']:.2f}× |")
    rt = probe["round_trips"]
    lines += ["", "Bolt round trips per write, by thread: " + ", ".join(
        f"{k} **{v:.2f}**" for k, v in sorted(rt.items())) + "."]
    lines += ["", "Statements per write (thread, statement: count per write; Neo4j's own time"
              " per write, `t_first`+`t_last`, all threads):", "",
              "| thread | statement | per write | Neo4j ms per write |",
              "| --- | --- | ---: | ---: |"]
    for key, count in sorted(probe["statements"].items()):
        thread, name = key.split(" ", 1)
        lines.append(f"| {thread} | {name} | {count:.2f} |"
                     f" {probe['statement_ms'].get(name, 0.0) / max(count, 1e-9) * count:.3f} |")
    threads = probe["threads"]
    total = sum(threads.values())
    lines += ["", "CPU per write (ms), this process by thread (background threads measured"
              " until they caught up):", "", "| thread | CPU ms per write |", "| --- | ---: |"]
    for name, ms in sorted(threads.items(), key=lambda kv: -kv[1]):
        if ms >= 0.005:
            lines.append(f"| {name} | {ms:.2f} |")
    lines.append(f"| **process total** | **{total:.2f}** |")
    server = probe["server_ms"]
    lines.append(f"| Neo4j server process (shared with other users of this machine) |"
                 f" {server:.2f} |" if server is not None else "| Neo4j server | not measured |")
    lines += ["", f"Wall time per probed write: {probe['wall_ms']:.2f} ms. Deadlock failures in"
              f" the driver's log over the whole run: **{deadlocks}**."]
    lines += ["", "Node indexes of the database (a new fact updates every Fact index whose"
              " properties it carries; the embedding thread then updates `fact_search`,"
              " `fact_vector_seq` and `fact_embedding` again; the mirror's marks update"
              " `outbox_pending`): " + "; ".join(index_rows) + "."]
    return "\n".join(lines)


def beside_floor(runtime: Any, floor: Floor, size: int, writes: int, tag: str
                 ) -> dict[str, list[float]]:
    """Single writes interleaved with the floor in a space of its own grown to `size`."""
    with GraphMem(space=f"bench-writepath-{tag}-{size}", runtime=runtime) as mem:
        return interleaved(mem, floor, grow(mem, size), writes)


def size_table(by_size: dict[int, dict[str, list[float]]]) -> str:
    lines = ["Single-fact `remember_facts` p50 beside the two-statement floor, interleaved, at"
             " each space size:", "", "| space | write p50 (ms) | floor p50 (ms) | ratio |",
             "| ---: | ---: | ---: | ---: |"]
    for size, times in sorted(by_size.items()):
        write, two = percentile(times["write"], 50) * 1e3, percentile(times["two"], 50) * 1e3
        lines.append(f"| {size:,} | {write:.2f} | {two:.2f} | **{write / two:.2f}×** |")
    return "\n".join(lines)


def lock_run(runtime: Any, writes: int, server: int | None, writers: int = 8) -> str:
    """`writes` single-fact writes by one writer, then by `writers` threads on as many spaces
    (writes ÷ writers each): deadlocks counted from the driver's log, aggregate rates."""
    import threading

    tag = uuid.uuid4().hex[:8]
    with deadlock_log() as log:
        with GraphMem(space=f"bench-locks-1-{tag}", runtime=runtime) as mem:
            stream = workload(11)
            quiet(server)
            t = time.perf_counter()
            for _ in range(writes):
                mem.remember_facts([next(stream)])
            single = writes / (time.perf_counter() - t)
            settle(mem)
        single_deadlocks = log.deadlocks
        mems = [GraphMem(space=f"bench-locks-8-{tag}-{i}", runtime=runtime)
                for i in range(writers)]
        each = writes // writers
        start = threading.Barrier(writers + 1)

        def writer(mem: GraphMem, seed: int) -> None:
            stream = workload(seed)
            start.wait()
            for _ in range(each):
                mem.remember_facts([next(stream)])

        threads = [threading.Thread(target=writer, args=(m, 20 + i))
                   for i, m in enumerate(mems)]
        quiet(server)
        for th in threads:
            th.start()
        start.wait()
        t = time.perf_counter()
        for th in threads:
            th.join()
        many = each * writers / (time.perf_counter() - t)
        for mem in mems:
            settle(mem)
            mem.close()
        many_deadlocks = log.deadlocks - single_deadlocks
    return (f"Deadlocks: {writes:,} single-fact writes by one writer: **{single_deadlocks}**"
            f" DeadlockDetected in the driver's log ({single:,.0f} writes/s); {writers} writers"
            f" on {writers} spaces, {each:,} writes each: **{many_deadlocks}** ({many:,.0f}"
            f" writes/s together, **{many / single:.2f}×** the single writer).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--no-save", action="store_true", help="print, do not write RESULTS.md")
    parser.add_argument("--locks", type=int, default=0,
                        help="also N writes by one writer and by 8 writers on 8 spaces,"
                             " counting deadlocks (the issue's run: 10000)")
    parser.add_argument("--warm", type=int, default=5000,
                        help="warm-up rounds before the CPU comparison (0: skip the comparison)")
    parser.add_argument("--batches", type=int, default=10,
                        help="batches written beside their raw replay (0: skip)")
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--also", default="",
                        help="further space sizes whose single-write p50 is set beside the"
                             " floor, e.g. 10000,100000")
    args = parser.parse_args()
    also = sorted(int(s) for s in args.also.split(",") if s)
    load0 = os.getloadavg()[0]
    runtime = open_runtime()
    server = bolt_server_pid()
    tag = uuid.uuid4().hex[:8]
    try:
        with deadlock_log() as log, Floor(runtime.settings, f"bench-floor-{tag}") as floor, \
                GraphMem(space=f"bench-writepath-{tag}", runtime=runtime) as mem:
            stream = grow(mem, args.size)
            cpu = cpu_beside_floor(mem, floor, stream, args.writes, args.warm, server) \
                if args.warm else {}
            with quiet_driver():
                times = interleaved(mem, floor, stream, args.writes)
            probe = probed(mem, stream, args.writes, server)
            index_rows = indexes(floor)
            quiet(server)
            batch = batched(runtime, floor, server, args.batches, args.batch_size, tag) \
                if args.batches else None
            by_size = {args.size: times} | {
                size: beside_floor(runtime, floor, size, args.writes, tag) for size in also}
            deadlocks = log.deadlocks
        locks = lock_run(runtime, args.locks, server) if args.locks else ""
    finally:
        runtime.close()
    body = report(args, times, probe, deadlocks, index_rows, (load0, os.getloadavg()[0]))
    if cpu:
        body += "\n\n" + cpu_table(cpu, args.warm, args.writes)
    if batch is not None:
        body += "\n\n" + batch_table(batch, server is not None)
    if also:
        body += "\n\n" + size_table(by_size)
    if locks:
        body += "\n\n" + locks
    print(body)
    if not args.no_save:
        flags = (f" --warm {args.warm} --batches {args.batches}" + (
            f" --locks {args.locks}" if args.locks else "") + (
            f" --also {args.also}" if also else ""))
        write_section("Write path", f"Command: `python -m bench.writepath --size {args.size}"
                      f" --writes {args.writes}{flags}`\n\n{body}")


if __name__ == "__main__":
    main()
