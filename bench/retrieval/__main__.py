"""bench/retrieval: ranking quality and latency on a fixed corpus.

    python -m bench.retrieval            # 2k-fact space (quality + latency) and 20k (latency)
    python -m bench.retrieval --full     # 100k instead of 20k for the large space

Every local embedding engine installed runs side by side (ONNX Runtime, and
sentence-transformers when its extra is there: run from `.venv-sentence-transformers`).

A space of 2,000 facts about invented entities, each with 2-3 paraphrased questions whose
gold fact is known, receives 300 knowledge updates (SUPERSEDE). Every question is ranked by
fused (RRF of vector and full-text), vector-only and lexical-only retrieval: hit@1, hit@5,
and how many superseded facts came back among the 40 ranked (must be 0). Then the p50/p99 of
ranking one question (query embedding, both rankers, fusion, loading the 40 facts; no answer
call) on the 2k space and on a large one, with the real local embedding model.
"""

from __future__ import annotations

import argparse
import os
import random
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.results import median, percentile, write_section
from bench.retrieval.corpus import Corpus, Question, build
from graphmem import GraphMem
from graphmem.model import HOT_STATUSES, Action
from graphmem.recall.pipeline import retrieve
from graphmem.recall.retrieve import FUSED, LEXICAL, VECTOR, Pool, Ranker, Strategy
from graphmem.recall.vectors import VectorIndex
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

CONTEXT = 40
POOL = Pool(HOT_STATUSES)
Slot = tuple[str, str]


@dataclass
class Space:
    mem: GraphMem
    gold: dict[Slot, str]
    superseded: set[str]
    seconds: float


def load(mem: GraphMem, corpus: Corpus, batch: int = 1000) -> Space:
    """Write the corpus (pipelines' path), then wait for the background embedding."""
    start = time.perf_counter()
    gold: dict[Slot, str] = {}
    for i in range(0, len(corpus.facts), batch):
        for r in mem.remember_facts(corpus.facts[i:i + batch]):
            gold[(r.subject, "global")] = str(r.fact_id)
        print(f"  {min(i + batch, len(corpus.facts)):>7,} facts written", flush=True)
    superseded: set[str] = set()
    for i in range(0, len(corpus.updates), batch):
        for r in mem.remember_facts(corpus.updates[i:i + batch]):
            assert r.action == Action.SUPERSEDE, str(r)
            superseded.add(gold[(r.subject, "global")])
            gold[(r.subject, "global")] = str(r.fact_id)
    written = time.perf_counter() - start
    mem.records.wait_for_embeddings()  # vectors come after the writes, from the background worker
    print(f"  written in {written:.0f} s, embedded {time.perf_counter() - start - written:.0f}"
          " s later", flush=True)
    return Space(mem, gold, superseded, written)


def quality(ranker: Ranker, space: Space, questions: Sequence[Question],
            strategy: Strategy) -> dict[str, float]:
    hit1 = hit5 = stale = 0
    for q in questions:
        ids = ranker.rank(space.mem.space.key, q.text, POOL, strategy, CONTEXT).ids
        gold = space.gold[q.fact_key]
        hit1 += bool(ids) and ids[0] == gold
        hit5 += gold in ids[:5]
        stale += len(space.superseded.intersection(ids))
    n = len(questions)
    return {"hit1": hit1 / n, "hit5": hit5 / n, "stale": stale, "n": n}


def latency(runtime: Runtime, ranker: Ranker, space: Space, questions: Sequence[Question],
            samples: int, seed: int) -> dict[str, float]:
    """Fresh questions (cache cleared): retrieve the 40 facts, the question embedded inside
    (beside the full-text query); then, outside the total, the model call alone and the
    same retrieval with the question's vector cached, to show where the time goes."""
    embeddings = runtime.embedder
    embeddings.clear_cache()
    ranker.vectors.cache.clear(space.mem.space.key)
    t = time.perf_counter()
    ranker.vectors.cache.space(space.mem.space.key, ranker.vectors.dimensions())
    warm = time.perf_counter() - t
    picked = random.Random(seed).sample(list(questions), min(samples + 10, len(questions)))
    totals, embeds, graphs, hits = [], [], [], 0
    for n, q in enumerate(picked):
        t0 = time.perf_counter()
        got = retrieve(ranker, space.mem.space.key, q.text, POOL, FUSED, CONTEXT)
        t1 = time.perf_counter()
        embeddings.documents([q.text])
        t2 = time.perf_counter()
        retrieve(ranker, space.mem.space.key, q.text, POOL, FUSED, CONTEXT)
        t3 = time.perf_counter()
        if n < 10:  # warm-up
            continue
        totals.append(t1 - t0)
        embeds.append(t2 - t1)
        graphs.append(t3 - t2)
        hits += space.gold[q.fact_key] in got.ids[:5]
    return {"p50": percentile(totals, 50) * 1e3, "p99": percentile(totals, 99) * 1e3,
            "embed": median(embeds) * 1e3, "graph": median(graphs) * 1e3,
            "hit5": hits / len(totals), "n": len(totals), "warm": warm}


def report(size: int, big: int, rows: dict[str, dict[str, float]],
           lat: list[tuple[str, dict[str, float]]], load_rates: dict[int, float],
           load_avg: tuple[float, float]) -> str:
    out = [f"Machine load average (1 min) at start and end: {load_avg[0]:.1f}, {load_avg[1]:.1f}"
           f" on {os.cpu_count()} cores (other work shares the box; latencies include it).", "",
           f"Quality on the {size:,}-fact space (300 knowledge updates), every question:", "",
           "| ranking | questions | hit@1 | hit@5 | superseded returned as current |",
           "| --- | ---: | ---: | ---: | ---: |"]
    for name, r in rows.items():
        out.append(f"| {name} | {r['n']:,.0f} | {r['hit1']:.3f} | {r['hit5']:.3f} |"
                   f" {r['stale']:.0f} |")
    fused = rows["fused"]
    best1 = max(rows["vector"]["hit1"], rows["lexical"]["hit1"])
    best5 = max(rows["vector"]["hit5"], rows["lexical"]["hit5"])
    out += ["", f"Fused ÷ best single method: hit@1 **{fused['hit1'] / best1:.2f}×**, hit@5"
            f" **{fused['hit5'] / best5:.2f}×** (target ≥ 1.00×); fused hit@5"
            f" **{fused['hit5']:.3f}** (target ≥ 0.9); superseded returned as current:"
            f" **{sum(r['stale'] for r in rows.values()):.0f}** (must be 0).", "",
            "Ranking latency (fused; query embedding + both rankers + loading the 40 facts;"
            " no answer call), fresh questions. The question is embedded beside the"
            " full-text query; *model alone* is one embedding call by itself and *vector"
            " cached* the same ranking when the question's vector is already cached (both"
            " timed apart from the p50/p99):", "",
            "| space | p50 (ms) | p99 (ms) | p50 model alone (ms) | p50 vector cached (ms) |"
            " hit@5 | vectors into memory (s) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, r in lat:
        out.append(f"| {label} | {r['p50']:.1f} | {r['p99']:.1f} | {r['embed']:.1f} |"
                   f" {r['graph']:.1f} | {r['hit5']:.3f} | {r['warm']:.1f} |")
    big_p50 = next(r["p50"] for label, r in lat if label.startswith(f"{big:,}"))
    small_p50 = lat[0][1]["p50"]
    out += ["", f"p50 at {big:,} facts ÷ at {size:,}: **{big_p50 / small_p50:.2f}×**;"
            f" p50 at {big:,}: **{big_p50:.1f} ms** (target ≤ 50 ms at 100,000).",
            "Write throughput (batches of 1,000; vectors follow in the background): " + ", ".join(
                f"{n:,} facts at {rate:,.0f} facts/s" for n, rate in load_rates.items()) + "."]
    return "\n".join(out)


def engines_available() -> list[str]:
    """ONNX Runtime always; sentence-transformers where its extra is installed (run the bench
    from `.venv-sentence-transformers`, `make test-sentence-transformers` builds it)."""
    import importlib.util

    found = ["onnx"]
    if importlib.util.find_spec("sentence_transformers") is not None:
        found.append("sentence-transformers")
    return found


@dataclass
class EngineRun:
    runtime: Runtime
    ranker: Ranker
    rows: dict[str, dict[str, float]]
    lat: list[tuple[str, dict[str, float]]]


def open_engine(engine: str) -> tuple[Runtime, Ranker]:
    runtime = Runtime.open(load_settings(query_cache=20_000, embedding_engine=engine))
    runtime.migrate()
    return runtime, Ranker(runtime.graph, VectorIndex(runtime.graph, lambda: runtime.embedder,
                                                      runtime.settings.vector_cache))


def engine_table(size: int, big: int, runs: dict[str, EngineRun]) -> str:
    out = [f"Engines side by side (the same all-MiniLM-L6-v2 weights; quality on a {size:,}-fact"
           f" space each engine embedded itself, latency of fresh questions; the {big:,}-fact"
           " space was embedded once, by the first engine):", "",
           "| engine | fused hit@1 | fused hit@5 | vector hit@5 | model alone p50 (ms) |"
           f" ranking p50 at {size:,} (ms) | ranking p50 at {big:,} (ms) |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, run in runs.items():
        small, large = run.lat[0][1], run.lat[1][1]
        out.append(f"| {name} | {run.rows['fused']['hit1']:.3f} | {run.rows['fused']['hit5']:.3f}"
                   f" | {run.rows['vector']['hit5']:.3f} | {small['embed']:.1f} |"
                   f" {small['p50']:.1f} | {large['p50']:.1f} |")
    if len(runs) > 1:
        first, second = list(runs.values())[:2]
        names = list(runs)
        out += ["", f"{names[0]} − {names[1]}: fused hit@5"
                f" **{first.rows['fused']['hit5'] - second.rows['fused']['hit5']:+.3f}**"
                " (target within 0.01); ranking p50 at"
                f" {big:,}: **{first.lat[1][1]['p50'] / second.lat[1][1]['p50']:.2f}×**"
                " (target ≤ 1.00×)."]
    return "\n".join(out)


def run_engine(runtime: Runtime, ranker: Ranker, engine: str, args: argparse.Namespace,
               corpus: Corpus, large: Space, tag: str, made: list[GraphMem]) -> EngineRun:
    made.append(GraphMem(space=f"bench-retrieval-{tag}/small-{engine}", runtime=runtime))
    small = load(made[-1], corpus)
    runtime.embedder.warm([q.text for q in corpus.questions])
    rows = {}
    for strategy in (FUSED, VECTOR, LEXICAL):
        rows[strategy.name] = quality(ranker, small, corpus.questions, strategy)
        print(f"{engine} {strategy.name:>8}: {rows[strategy.name]}", flush=True)
    lat = [(f"{args.size:,} facts", latency(runtime, ranker, small, corpus.questions,
                                            args.samples, 1))]
    lat.append((f"{args.big:,} facts", latency(runtime, ranker, large, args.large_questions,
                                               args.samples, 2)))
    print(engine, lat, flush=True)
    return EngineRun(runtime, ranker, rows, lat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="large space of 100,000 facts")
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--updates", type=int, default=300)
    parser.add_argument("--large", type=int, default=None, help="default 20,000 (--full 100k)")
    parser.add_argument("--samples", type=int, default=200, help="latency samples per size")
    parser.add_argument("--engines", default=",".join(engines_available()),
                        help="local embedding engines to compare (default: those installed)")
    parser.add_argument("--keep", action="store_true", help="keep the bench spaces")
    args = parser.parse_args()
    args.big = args.large or (100_000 if args.full else 20_000)
    engines = args.engines.split(",")
    opened = {e: open_engine(e) for e in engines}
    runtime, ranker = opened[engines[0]]
    tag = uuid.uuid4().hex[:8]
    made: list[GraphMem] = []
    load_start = os.getloadavg()[0]
    try:
        corpus = build(args.size, args.updates, seed=7)
        print(f"corpus: {len(corpus.facts):,} facts, {len(corpus.questions):,} questions,"
              f" {len(corpus.updates)} updates", flush=True)
        large_corpus = build(args.big, 0, seed=11)
        args.large_questions = large_corpus.questions
        made.append(GraphMem(space=f"bench-retrieval-{tag}/large", runtime=runtime))
        large = load(made[-1], large_corpus)
        runs = {e: run_engine(*opened[e], e, args, corpus, large, tag, made) for e in engines}
        first = runs[engines[0]]
        rates = {args.big: args.big / large.seconds}
        body = report(args.size, args.big, first.rows, first.lat, rates,
                      (load_start, os.getloadavg()[0]))
        body += "\n\n" + engine_table(args.size, args.big, runs)
    finally:
        for mem in made:
            _drop(mem, args.keep)
        for rt, _ in opened.values():
            rt.close()
    print(body)
    command = "python -m bench.retrieval" + (" --full" if args.full else "") + \
        f" --engines {args.engines}"
    write_section("retrieval", f"Command: `{command}`\n\n{body}")


def _drop(mem: GraphMem, keep: bool) -> None:
    """Erase a bench space (when the erasure API is there) so it leaves the index."""
    delete_all: Any = getattr(mem, "delete_all", None)
    if keep or delete_all is None:
        print(f"kept space {mem.space.key}")
    else:
        delete_all()
    mem.close()


if __name__ == "__main__":
    main()
