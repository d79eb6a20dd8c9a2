"""bench.multihop: does recall_related put the right path first for multi-hop questions,
and does it decline to answer when it does not understand the question?

    python -m bench.multihop                                  # every domain, 1k and 10k facts
    python -m bench.multihop --domains films --sizes 1000 --questions 10 --show-misses
    python -m bench.multihop --domains company --sizes 100000 --modes plain   # latency

Five domains (bench/multihop/domains/): company, films (walks in both directions), academia,
supply chain, and music, held out: nothing was tuned on it. Each graph is written through
remember_facts in two modes: `plain` triples (head, relation, tail and no subject, as a
pipeline writes them) and `roles` (subjects naming the role the relation gives its tail, as
graphmem's extractor writes them). Questions of 2, 3 and 4 hops in `dev` phrasings (seen
while the ranking was built) and `held` ones (never looked at then) go through
recall_related(question) with no model configured; beside it, in the same run, the ranking
it replaced (bench/multihop/baseline). Questions whose relation the graph does not hold
measure how often no answer is stated. Reported: hit@1 and hit@5 of a right path, answer@1
(a right path first and the answer stated is its end), the no-answer rate, and latency.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.multihop import world as worlds
from bench.multihop.baseline import path_search as baseline_search
from bench.multihop.domains import DOMAINS, HELD_OUT
from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.graph.entities import entity_key, fold_type, normalise_name
from graphmem.model.paths import Path, Related
from graphmem.recall.start_entities import find_start
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

BATCH = 1000
MISS = 10_000  # the rank of a right path that is not among the paths returned
SHOW_MISSES = False


@dataclass
class Tally:
    ranks: list[int] = field(default_factory=list)
    answered: list[bool] = field(default_factory=list)
    old: list[int] = field(default_factory=list)

    @staticmethod
    def rate(ranks: Sequence[int], k: int) -> float:
        return sum(r < k for r in ranks) / len(ranks) if ranks else float("nan")

    def answer_rate(self) -> float:
        return sum(self.answered) / len(self.answered) if self.answered else float("nan")


def keys(world: worlds.World, path: Sequence[str]) -> tuple[str, ...]:
    return tuple(entity_key(str(fold_type(world.types[n])), normalise_name(n)) for n in path)


def rank(paths: Sequence[Path], right: set[tuple[str, ...]]) -> int:
    return next((i for i, p in enumerate(paths) if p.keys in right), MISS)


def build(mem: GraphMem, world: worlds.World) -> float:
    """remember_facts in batches; the post-commit embedding of the new facts is left out
    (path ranking reads no fact vectors)."""
    writes = mem._writes
    assert hasattr(writes, "index"), "writes no longer embed through index: update"
    writes.index = lambda fact_ids: None  # type: ignore[method-assign]
    start = time.perf_counter()
    for i in range(0, len(world.facts), BATCH):
        mem.remember_facts(world.facts[i:i + BATCH], source="bench")
    return time.perf_counter() - start


def timed(call: Callable[[], Related]) -> tuple[Related, float]:
    start = time.perf_counter()
    result = call()
    return result, (time.perf_counter() - start) * 1000


def baseline(mem: GraphMem, question: str) -> tuple[Path, ...]:
    """The ranking recall_related used before relation knowledge, on the same graph."""
    vectors = mem._graph._vectors

    def run(tx, space: str) -> tuple[Path, ...]:  # type: ignore[no-untyped-def]
        starts, _ = find_start(tx, space, question)
        return baseline_search.search(tx, space, starts, question, vectors, 4, None, None,
                                      50).paths

    return mem.runtime.graph.execute(run, mem.space.key, write=False)


@dataclass
class Run:
    domain: str
    mode: str
    facts: int
    tallies: dict[tuple[int, str], Tally]
    absent: tuple[int, int]  # (no answer stated, asked)
    ms: list[float]
    old_ms: list[float]


def run_one(runtime: Runtime, domain: str, mode: str, facts: int, per_hops: int,
            absent: int, keep: bool, old: bool) -> Run:
    world = worlds.build(DOMAINS[domain], facts, mode)
    mem = GraphMem(space=f"bench-multihop-{domain}-{mode}-{facts}-{uuid.uuid4().hex[:6]}",
                   runtime=runtime)
    built = build(mem, world)
    if mode == worlds.DECLARED:
        mem.entities.declare_relations(DOMAINS[domain].schema)
    counts = mem.runtime.graph.read("projection/counts", space=mem.space.key)[0]
    print(f"  {domain}, {mode}, {facts:,}: {counts['facts']:,} facts, "
          f"{counts['entities']:,} entities, {counts['edges']:,} edges, built in {built:.0f} s",
          flush=True)
    asked = worlds.questions(world, per_hops)
    for q in asked[:3]:  # warm: the model, the plans, the caches of relation words
        mem.recall_related(q.text, answer=False)
    tallies: dict[tuple[int, str], Tally] = defaultdict(Tally)
    ms: list[float] = []
    old_ms: list[float] = []
    for q in asked:
        right = {keys(world, p) for p in q.answers}
        ends = {k[-1] for k in right}
        found, took = timed(lambda q=q: mem.recall_related(q.text, answer=False))
        ms.append(took)
        got = rank(found.paths, right)
        if got and SHOW_MISSES and q.split == worlds.DEV:
            top = found.paths[0] if found.paths else None
            print(f"    miss ({q.hops}, {q.split}, right at {got}): {q.text}\n      top:"
                  f" {found.explain(top) if top else '-'} {found.render(top) if top else ''}"
                  f"\n      unexplained: {found.unexplained}", flush=True)
        tally = tallies[(q.hops, q.split)]
        tally.ranks.append(got)
        tally.answered.append(bool(found.answers) and got == 0 and set(found.answers) <= ends)
        if old:
            start = time.perf_counter()
            tally.old.append(rank(baseline(mem, q.text), right))
            old_ms.append((time.perf_counter() - start) * 1000)
    declined = 0
    absent_asked = worlds.absent_questions(world, absent)
    for text in absent_asked:
        found = mem.recall_related(text, answer=False)
        declined += not found.answers
        if found.answers and SHOW_MISSES:
            print(f"    answered an absent relation: {text}\n      "
                  f"{found.explain(found.paths[0])} {found.render(found.paths[0])}", flush=True)
    if not keep:
        mem.erasure.delete_all()
    return Run(domain, mode, facts, tallies, (declined, len(absent_asked)), ms, old_ms)


def report(runs: Sequence[Run], command: str, section: str) -> None:
    quality, absent, latency = [], [], []
    for r in runs:
        name = f"{r.domain} (held out)" if r.domain == HELD_OUT else r.domain
        for (hops, split), t in sorted(r.tallies.items()):
            old = (f"{Tally.rate(t.old, 1):.2f} | {Tally.rate(t.old, 5):.2f}" if t.old
                   else "- | -")
            quality.append(f"| {name} | {r.mode} | {r.facts:,} | {hops} | {split} |"
                           f" {len(t.ranks)} | **{Tally.rate(t.ranks, 1):.2f}** |"
                           f" {Tally.rate(t.ranks, 5):.2f} | {t.answer_rate():.2f} | {old} |")
        declined, asked = r.absent
        absent.append(f"| {name} | {r.mode} | {r.facts:,} | {asked} |"
                      f" **{declined / asked if asked else float('nan'):.2f}** |")
        old = (f"{percentile(r.old_ms, 50):.1f} | {percentile(r.old_ms, 95):.1f}" if r.old_ms
               else "- | -")
        latency.append(f"| {name} | {r.mode} | {r.facts:,} | {percentile(r.ms, 50):.1f} |"
                       f" {percentile(r.ms, 95):.1f} | {old} |")
    write_section(section, "\n".join([
        f"`{command}`. recall_related(question) with no model configured, beside the ranking"
        " it replaced (bench/multihop/baseline) in the same run. hit@k: a right path among"
        " the first k; answer@1: a right path first and the answer stated is its end;"
        " `held`: phrasings never looked at while the ranking was built; `plain`: triples"
        " with no subject; `roles`: subjects naming the role the relation gives its tail;"
        f" {HELD_OUT}: the domain held out whole.", "",
        "| domain | mode | facts | hops | phrasings | questions | hit@1 | hit@5 | answer@1 |"
        " before: hit@1 | before: hit@5 |",
        "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *quality, "",
        "Questions whose relation the graph does not hold (\"Who is the dentist of X's"
        " manager?\"): how often no answer is stated.", "",
        "| domain | mode | facts | questions | no answer |",
        "| --- | --- | ---: | ---: | ---: |", *absent, "",
        "| domain | mode | facts | p50 ms | p95 ms | before: p50 ms | before: p95 ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |", *latency]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--modes", default="plain,roles,declared")
    parser.add_argument("--sizes", default="1000,10000", help="facts per graph")
    parser.add_argument("--questions", type=int, default=20,
                        help="questions per hop count and split")
    parser.add_argument("--absent", type=int, default=40,
                        help="questions per graph whose relation it does not hold")
    parser.add_argument("--no-baseline", action="store_true",
                        help="leave out the ranking recall_related replaced")
    parser.add_argument("--keep", action="store_true", help="keep the spaces afterwards")
    parser.add_argument("--show-misses", action="store_true",
                        help="print each question whose right path is not first")
    parser.add_argument("--no-write", action="store_true", help="print, do not record")
    parser.add_argument("--section", default="Multi-hop questions (bench.multihop)",
                        help="the section of bench/RESULTS.md the figures replace")
    args = parser.parse_args()
    global SHOW_MISSES
    SHOW_MISSES = args.show_misses
    runtime = Runtime.open(load_settings())
    runs: list[Run] = []
    try:
        for domain in args.domains.split(","):
            for mode in args.modes.split(","):
                for size in (int(s) for s in args.sizes.split(",")):
                    run = run_one(runtime, domain, mode, size, args.questions, args.absent,
                                  args.keep, not args.no_baseline)
                    runs.append(run)
                    for (hops, split), t in sorted(run.tallies.items()):
                        print(f"    {hops} hops, {split}: hit@1 {Tally.rate(t.ranks, 1):.2f},"
                              f" hit@5 {Tally.rate(t.ranks, 5):.2f}, answer@1"
                              f" {t.answer_rate():.2f}; before: hit@1"
                              f" {Tally.rate(t.old, 1):.2f}", flush=True)
                    print(f"    no answer to absent relations: {run.absent[0]}/{run.absent[1]};"
                          f" p50 {percentile(run.ms, 50):.1f} ms, p95"
                          f" {percentile(run.ms, 95):.1f} ms", flush=True)
    finally:
        runtime.close()
    if not args.no_write:
        flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                         if k in ("domains", "modes", "sizes", "questions", "absent"))
        if args.section != parser.get_default("section"):
            flags += f" --section '{args.section}'"
        report(runs, f"python -m bench.multihop {flags}", args.section)


if __name__ == "__main__":
    main()
