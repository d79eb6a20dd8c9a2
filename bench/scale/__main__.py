"""bench/scale: one space grown to 10k, 100k and 1M facts through the batched write path, and
what users do timed at each size in one run.

    python -m bench.scale                        # 10k, 100k, 1M
    python -m bench.scale --sizes 10000,100000 --no-write
    python -m bench.scale --sizes 10000 --existing KEY:1000000 --section "scale: page cache"

`--existing` times a space an earlier run left in the graph (at the size it reached) after
the new sizes, in the same run. Its facts, edges and vectors are read through once before
anything is timed, as a server's page cache would hold them after a while.

The space is written with `remember_facts` in batches of 1,000 (one transaction each), with
the real embedding model storing every fact's vector in the background (the writes run while
it does); each size's timings start once the embedding backlog is empty, so no figure is
taken while it runs. Per size, a
tenth of the facts are relations between entities of a scale-free graph (bench.graph's
generator: a tenth as many entities as facts) and the rest are values of subjects, so the
shape is the same at every size. Timed at each size (p50 and p95, ms):

- one new fact written alone (`remember_facts` of one fact, a new subject);
- the current value of a subject (`active(subject)`);
- 2-hop `recall_related` from an entity;
- `recall` of a question: full-text and vector ranking, no model answer;
- an export of the whole space (facts/s);

and the Neo4j store's bytes per fact (the database folder, over the facts written).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.api.__main__ import open_scratch
from bench.graph.__main__ import fact as relation_fact
from bench.graph.__main__ import triples
from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.runtime import Runtime

BATCH = 1000
REPEAT = 200
RELATIONAL = 10  # one fact in ten is a relation between entities
EMBED_WAIT = 4 * 3600.0


def attribute(i: int) -> dict[str, Any]:
    return {"subject": f"item_{i}_status", "value": f"state {i % 97} of item {i}",
            "confidence": 0.9}


def facts_between(start: int, end: int, seed: int) -> list[dict[str, Any]]:
    """Facts `start`..`end` of the space: every RELATIONAL-th a relation (its triples drawn
    for the whole range at once, over entities a tenth as many as the facts so far)."""
    relational = [i for i in range(start, end) if i % RELATIONAL == 0]
    edges = iter(triples(len(relational), max(10, end // RELATIONAL), seed))
    rows = []
    for i in range(start, end):
        rows.append(relation_fact(*next(edges)) if i % RELATIONAL == 0 else attribute(i))
    return rows


def grow(mem: GraphMem, start: int, end: int, entities: set[tuple[str, str]]) -> float:
    """Write facts start..end in batches, adding the entities they name to `entities`;
    returns seconds (the calls, not the embedding)."""
    rows = facts_between(start, end, seed=end)
    entities.update((r["head_type"], r["head"]) for r in rows if "head" in r)
    began = time.perf_counter()
    for i in range(0, len(rows), BATCH):
        mem.remember_facts(rows[i:i + BATCH], source="bench")
        if (i // BATCH) % 50 == 49:
            done = start + i + BATCH
            print(f"  {done:,} facts ({(i + BATCH) / (time.perf_counter() - began):,.0f}"
                  " facts/s)", flush=True)
    return time.perf_counter() - began


def timed(calls: int, fn: Any) -> list[float]:
    samples = []
    for i in range(calls):
        began = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - began)
    return samples


def store_bytes(runtime: Runtime) -> int:
    """The managed Neo4j database folder's bytes (the graph this bench writes into)."""
    folder = runtime.settings.home / "neo4j" / "data" / "databases" / "neo4j"
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def measure(mem: GraphMem, size: int, entities: list[tuple[str, str]],
            rng: random.Random) -> dict[str, Any]:
    """Every timing at the space's current size."""
    subjects = [f"item_{i}_status" for i in rng.sample(
        [i for i in range(size) if i % RELATIONAL], REPEAT)]
    starts = [rng.choice(entities) for _ in range(REPEAT)]
    questions = [f"what is the state of item {i}?" for i in rng.sample(range(size), REPEAT // 2)]
    tag = uuid.uuid4().hex[:6]
    row: dict[str, Any] = {"size": size}
    row["write"] = timed(REPEAT, lambda i: mem.remember_facts(
        [{"subject": f"new_{tag}_{i}", "value": f"v{i}", "confidence": 0.9}]))
    mem.records.wait_for_embeddings(600)
    row["lookup"] = timed(REPEAT, lambda i: mem.active(subjects[i]))
    row["two_hop"] = timed(REPEAT, lambda i: mem.recall_related(
        entities=[starts[i]], hops=2, answer=False))
    row["recall"] = timed(REPEAT // 2, lambda i: mem.recall(questions[i]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.jsonl"
        began = time.perf_counter()
        mem.transfer.export(path)
        row["export_s"] = time.perf_counter() - began
    return row


def ms(samples: list[float], q: float) -> str:
    return f"{percentile(samples, q) * 1000:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--existing", action="append", default=[], metavar="KEY:SIZE",
                        help="also time a space an earlier run grew to SIZE facts")
    parser.add_argument("--section", default="scale", help="bench/RESULTS.md section")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    workdir, runtime = open_scratch("scale")
    # the whole growth queues for the embedder at once: its bound would defer the rest to
    # backfills that scan the space
    runtime.settings = runtime.settings.model_copy(update={"embed_max_backlog": 2 * sizes[-1]})
    space = f"bench-scale/s{uuid.uuid4().hex[:8]}/a/r"
    rows: list[dict[str, Any]] = []
    rng = random.Random(5)
    try:
        earlier = [(key, int(size), read_through(runtime, key)) for key, _, size in
                   (e.rpartition(":") for e in args.existing)]
        with GraphMem(space=space, runtime=runtime) as mem:
            written, bytes_before = 0, store_bytes(runtime)
            entities: set[tuple[str, str]] = set()
            for size in sizes:
                seconds = grow(mem, written, size, entities)
                print(f"grew to {size:,} facts in {seconds:.0f} s; embedding the backlog",
                      flush=True)
                began = time.perf_counter()
                mem.records.wait_for_embeddings(EMBED_WAIT)
                embed_s = time.perf_counter() - began
                written = size
                row = measure(mem, size, sorted(entities), rng)
                row.update(grow_s=seconds, grown=size - sum(r["size"] for r in rows[-1:]),
                           embed_s=embed_s,
                           bytes_per_fact=(store_bytes(runtime) - bytes_before) / size)
                rows.append(row)
                print(table(rows), flush=True)
        for key, size, entities_there in earlier:
            with GraphMem(space=key, runtime=runtime) as mem:
                rows.append({**measure(mem, size, entities_there, rng), "existing": True})
            print(table(rows), flush=True)
    finally:
        runtime.close()
        shutil.rmtree(workdir, ignore_errors=True)
    text = table(rows) + "\n\n" + verdict(rows)
    print(text)
    if not args.no_write:
        also = "".join(f" --existing {e}" for e in args.existing)
        write_section(args.section, f"Command: `python -m bench.scale --sizes {args.sizes}{also}`;"
                                    f" Neo4j page cache {runtime.settings.neo4j_pagecache}, the"
                                    f" real model, {os.cpu_count()} cores, load average"
                                    f" {os.getloadavg()[0]:.1f} at the end. The space ({space})"
                                    " is left in the graph.\n\n" + text)


def read_through(runtime: Runtime, key: str) -> list[tuple[str, str]]:
    """Read every fact and edge of a space an earlier run grew once, as a server's page cache
    holds them after a while; returns a sample of its entities."""
    with runtime.graph.session() as session:
        session.run("MATCH (f:Fact {space: $s}) RETURN count(f.subject), count(f.value),"
                    " count(f.search_text)", s=key).consume()
        session.run("MATCH (e:Entity {space: $s})-[r]-() RETURN count(r)", s=key).consume()
        session.run("MATCH (v:FactVector {space: $s}) RETURN count(v.embedding)",
                    s=key).consume()
        return [(r["type"], r["name"]) for r in session.run(
            "MATCH (e:Entity {space: $s}) WITH e, rand() AS r ORDER BY r LIMIT 2000"
            " RETURN e.type AS type, e.name AS name", s=key)]


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| facts | written (facts/s) | vectors (facts/s) | one write p50 / p95 | lookup"
             " p50 / p95 | 2-hop p50 / p95 | recall p50 / p95 | export (facts/s)"
             " | store bytes per fact |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        grown = ("| (earlier run) | (earlier run)" if r.get("existing") else
                 f"| {r['grown'] / r['grow_s']:,.0f} | {r['grown'] / r['embed_s']:,.0f}")
        stored = "(earlier run)" if r.get("existing") else f"{r['bytes_per_fact']:,.0f}"
        lines.append(
            f"| {r['size']:,} {grown}"
            f" | {ms(r['write'], 50)} / {ms(r['write'], 95)} ms"
            f" | {ms(r['lookup'], 50)} / {ms(r['lookup'], 95)} ms"
            f" | {ms(r['two_hop'], 50)} / {ms(r['two_hop'], 95)} ms"
            f" | {ms(r['recall'], 50)} / {ms(r['recall'], 95)} ms"
            f" | {r['size'] / r['export_s']:,.0f} | {stored} |")
    return "\n".join(lines)


def verdict(rows: list[dict[str, Any]]) -> str:
    first, last = rows[0], rows[-1]

    def ratio(key: str) -> str:
        return f"{percentile(last[key], 50) / percentile(first[key], 50):.2f}x"

    return (f"At {last['size']:,} facts against {first['size']:,} (p50): one write"
            f" {ratio('write')}, lookup **{ratio('lookup')}**, 2-hop **{ratio('two_hop')}**,"
            f" recall {ratio('recall')}.")


if __name__ == "__main__":
    main()
