"""bench/transfer: export and import (restore and replay) of a space with history.

    python -m bench.transfer                 # 100k facts (the issue's size)
    python -m bench.transfer --facts 5000    # a smaller run

The space is built with bench.reconcile's workload in batches of 1,000 (60% new slots, 30%
changes, 5% removals, 5% restatements), and that build is timed: it is bench.reconcile's
batched rate in the same run, the yardstick for a restore. Then the space is exported to a
file, restored into an empty space and replayed into another (batches of 1,000 each).
Facts/s counts the fact records of the file. Embedding is off for the whole run (the
endpoint is a closed port), so no measurement shares the CPU with the embedder.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from pathlib import Path

from bench.reconcile.__main__ import workload
from bench.results import write_section
from graphmem import GraphMem
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

BATCH = 1000


def build(mem: GraphMem, facts: int) -> float:
    stream, written, start = workload(2), 0, time.perf_counter()
    while written < facts:
        batch = [next(stream) for _ in range(min(BATCH, facts - written))]
        mem.remember_facts(batch)
        written += len(batch)
    return time.perf_counter() - start


def timed(label: str, work: object) -> float:
    start = time.perf_counter()
    result = work() if callable(work) else None
    elapsed = time.perf_counter() - start
    print(f"{label}: {elapsed:.1f} s  ({result})", flush=True)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--note", default="", help="said with the figures (e.g. the machine)")
    args = parser.parse_args()
    settings = load_settings(embedding_base_url="http://127.0.0.1:9/v1", llm_max_retries=0)
    runtime = Runtime.open(settings)
    runtime.migrate()
    tag = uuid.uuid4().hex[:8]
    spaces = [f"bench-transfer-{tag}/{name}/a/r" for name in ("source", "restore", "replay")]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "export.jsonl"
            source, restored, replayed = (GraphMem(s, runtime=runtime) for s in spaces)
            built = build(source, args.facts)
            print(f"build (reconcile, batched): {built:.1f} s", flush=True)
            result = source.transfer.export(path)
            fact_records = result.counts.get("fact", 0)
            # the median of three exports: one run's figure moves by ±15% on this machine
            exported = sorted(timed("export", lambda: source.transfer.export(path))
                              for _ in range(3))[1]
            restore = timed("restore", lambda: restored.transfer.import_memory(path, batch=BATCH))
            replay = timed("replay", lambda: replayed.transfer.import_memory(path, mode="replay",
                                                                   batch=BATCH))
            size = path.stat().st_size
    finally:
        runtime.close()
    rate = {"reconcile": args.facts / built, "export": fact_records / exported,
            "restore": fact_records / restore, "replay": fact_records / replay}
    body = "\n".join([
        f"Command: `python -m bench.transfer --facts {args.facts}`"
        + (f" ({args.note})" if args.note else ""), "",
        f"A space of {args.facts:,} writes ({fact_records:,} fact records with their"
        f" history, {size / 1e6:.1f} MB exported).", "",
        "| step | facts/s |", "| --- | ---: |",
        f"| build, bench.reconcile's batched rate (batches of 1,000) | {rate['reconcile']:,.0f} |",
        f"| export (median of 3) | {rate['export']:,.0f} |",
        f"| restore (batches of 1,000) | {rate['restore']:,.0f} |",
        f"| replay (batches of 1,000) | {rate['replay']:,.0f} |", "",
        f"Restore ÷ batched reconcile: **{rate['restore'] / rate['reconcile']:.0%}** (goal ≥"
        f" 80%); export: **{rate['export']:,.0f} facts/s** (goal ≥ 20,000)."])
    print(body)
    write_section("transfer", body)


if __name__ == "__main__":
    main()
