"""bench/changes: what changed in one window costs the same in a space of 100,000 facts as in a
space of 1,000.

    python -m bench.changes                        # 1,000 vs 100,000 facts, 100 slot changes
    python -m bench.changes --small 1000 --large 100000 --changed 100 --rounds 30

Both spaces are bench.load's recall spaces (written once with the real model and kept). Into
each, the same window of changes is written now: `--changed` slots, half of them existing
subjects given a new value (a supersede each), half new subjects. Once the embedding backlog
is empty, `records.changes(from, to)` is timed over that window on both clocks, the two
spaces interleaved round by round so machine noise falls on both alike. Reported: the median
of each, and large ÷ small (the target is at most 2×).
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import UTC, datetime

from bench.api.__main__ import open_scratch
from bench.load.__main__ import RECALL_TENANT, recall_space
from bench.results import median, write_section
from graphmem import GraphMem
from graphmem.model import Space
from graphmem.model.differences import Clock
from graphmem.runtime import Runtime


def changed_window(runtime: Runtime, space: str, changed: int) -> tuple[GraphMem, datetime,
                                                                        datetime]:
    """Write `changed` slot changes into the space; returns it with the window around them."""
    mem = GraphMem(Space.parse(f"{RECALL_TENANT}/{space}"), runtime=runtime)
    existing = [f.subject for f in mem.records.page(first=changed // 2, count=False).items]
    stamp = f"{time.time_ns()}"
    time.sleep(0.01)
    start = datetime.now(UTC)
    mem.remember_facts([{"subject": s, "value": f"revised {stamp}", "action": "SUPERSEDE",
                         "confidence": 0.95} for s in existing])
    mem.remember_facts([{"subject": f"bench_changes_{stamp}_{k}", "value": f"new {k}",
                         "confidence": 0.95} for k in range(changed - len(existing))])
    end = datetime.now(UTC)
    mem.records.wait_for_embeddings(600)
    return mem, start, end


def time_changes(mem: GraphMem, start: datetime, end: datetime, clock: Clock) -> tuple[float,
                                                                                       int]:
    started = time.perf_counter()
    page = mem.records.changes(start, end, clock, first=500, count=True)
    return time.perf_counter() - started, page.total or 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.changes")
    parser.add_argument("--small", type=int, default=1_000, help="facts in the small space")
    parser.add_argument("--large", type=int, default=100_000, help="facts in the large space")
    parser.add_argument("--changed", type=int, default=100, help="slots changed in the window")
    parser.add_argument("--rounds", type=int, default=30, help="timed reads of each")
    args = parser.parse_args(argv)

    _, runtime = open_scratch("changes")
    with runtime.graph.session() as session:
        session.run("CALL db.awaitIndexes(3600)").consume()
    sizes = (args.small, args.large)
    windows = {}
    for size in sizes:
        space, _ = recall_space(runtime, size)
        windows[size] = changed_window(runtime, space, args.changed)
    load = os.getloadavg()[0]
    times: dict[tuple[int, Clock], list[float]] = {(s, c): [] for s in sizes for c in Clock}
    found: dict[tuple[int, Clock], int] = {}
    for round_ in range(args.rounds + 1):
        for clock in Clock:
            for size in sizes:
                mem, start, end = windows[size]
                took, total = time_changes(mem, start, end, clock)
                if round_:  # the first round warms the plan cache and the pages
                    times[(size, clock)].append(took)
                found[(size, clock)] = total
    load_end = os.getloadavg()[0]
    for mem, _, _ in windows.values():
        mem.close()
    runtime.close()
    rows = []
    for clock in Clock:
        small, large = (median(times[(s, clock)]) for s in sizes)
        rows.append(f"| {clock.value} | {found[(args.small, clock)]} | "
                    f"{small * 1000:.1f} ms | {large * 1000:.1f} ms | **{large / small:.2f}×** |")
    body = f"""Command: `python -m bench.changes --small {args.small} --large {args.large}
--changed {args.changed} --rounds {args.rounds}`; load average {load:.1f} at the start and
{load_end:.1f} at the end, {os.cpu_count()} cores.

The same window of {args.changed} slot changes (half supersedes of existing subjects, half new
subjects), written now into a space of {args.small:,} facts and one of {args.large:,}, read with
`records.changes(from, to)` ({args.rounds} reads each, the spaces interleaved; medians). The
target: large ÷ small at most 2×.

| clock | slots changed | {args.small:,} facts | {args.large:,} facts | large ÷ small |
| --- | ---: | ---: | ---: | ---: |
{chr(10).join(rows)}

"""
    print(body)
    write_section("changes", body)


if __name__ == "__main__":
    main()
