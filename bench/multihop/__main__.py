"""bench.multihop: does recall_related put the right path first for multi-hop questions?

    python -m bench.multihop                          # 1k, 10k and 100k facts
    python -m bench.multihop --sizes 1000 --questions 10

For each size a company graph is written with remember_facts (bench/multihop/company.py:
people work at companies, report to colleagues, live in cities; companies are
headquartered in cities and make products; Zipf-sized companies and cities, so hubs of
thousands of edges at 100k facts), then 2-, 3- and 4-hop questions in several phrasings
(bench/multihop/phrasing.py; `held` phrasings were never looked at while the ranking was
built) go through `recall_related(question)` with no model configured, and beside it, in the
same run, the neighbourhood walk from the person that answered such questions before (2 hops,
unranked). Reported per hop count and split: hit@1 and hit@5 of the right path, answer@1
(the answer entities name the right end), and latency p50/p95. The embedding of the facts
themselves is skipped while building (ranking paths does not use it); the question's words
go through the real model.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.multihop import company, phrasing
from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.graph.entities import entity_key, normalise_name
from graphmem.model.paths import Path, Related
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

BATCH = 1000
MISS = 10_000  # the rank of a right path that is not among the paths returned
SHOW_MISSES = False


@dataclass
class Tally:
    ranks: list[int] = field(default_factory=list)
    answered: list[bool] = field(default_factory=list)

    def hit(self, k: int) -> float:
        return sum(r < k for r in self.ranks) / len(self.ranks) if self.ranks else float("nan")

    def anywhere(self) -> float:
        return self.hit(MISS)

    def answer_rate(self) -> float:
        return sum(self.answered) / len(self.answered) if self.answered else float("nan")


def keys(world: company.Company, path: Sequence[str]) -> tuple[str, ...]:
    return tuple(entity_key(world.types[n], normalise_name(n)) for n in path)


def rank(paths: Sequence[Path], right: set[tuple[str, ...]]) -> int:
    return next((i for i, p in enumerate(paths) if p.keys in right), MISS)


def build(mem: GraphMem, world: company.Company) -> float:
    """remember_facts in batches; the post-commit embedding of the new facts is left out
    (a no-op in its place on this instance: path ranking reads no fact vectors)."""
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


def run_size(runtime: Runtime, facts: int, per_hops: int, keep: bool,
             roles: bool = True) -> list[str]:
    world = company.build(facts, roles=roles)
    mem = GraphMem(space=f"bench-multihop-{facts}-{uuid.uuid4().hex[:6]}", runtime=runtime)
    built = build(mem, world)
    counts = mem.runtime.graph.read("projection/counts", space=mem.space.key)[0]
    print(f"  {facts:,}: {counts['facts']:,} facts, {counts['entities']:,} entities,"
          f" {counts['edges']:,} edges, built in {built:.0f} s", flush=True)
    asked = phrasing.questions(world, per_hops)
    for q in asked[:3]:  # warm: the model, the plans, the caches of relation words
        mem.recall_related(q.text, answer=False)
    new: dict[tuple[int, str], Tally] = defaultdict(Tally)
    old: dict[tuple[int, str], Tally] = defaultdict(Tally)
    new_ms: list[float] = []
    old_ms: list[float] = []
    for q in asked:
        right = {keys(world, p) for p in q.answers}
        ends = {k[-1] for k in right}
        found, ms = timed(lambda q=q: mem.recall_related(q.text, answer=False))
        new_ms.append(ms)
        got = rank(found.paths, right)
        if got and SHOW_MISSES:
            print(f"    miss ({q.hops}, {q.split}, right at {got}): {q.text}\n      top:"
                  f" {found.explain(found.paths[0]) if found.paths else '-'}"
                  f" {found.render(found.paths[0]) if found.paths else ''}", flush=True)
        new[(q.hops, q.split)].ranks.append(got)
        new[(q.hops, q.split)].answered.append(bool(found.answers) and got == 0
                                               and set(found.answers) <= ends)
        walked, ms = timed(lambda q=q: mem.recall_related(
            entities=[("person", q.person)], hops=2, answer=False))
        old_ms.append(ms)
        old[(q.hops, q.split)].ranks.append(rank(walked.paths, right))
    if not keep:
        mem.erasure.delete_all()
    rows = []
    for (hops, split), t in sorted(new.items()):
        o = old[(hops, split)]
        rows.append(f"| {facts:,} | {hops} | {split} | {len(t.ranks)} | **{t.hit(1):.2f}** |"
                    f" {t.hit(5):.2f} | {t.answer_rate():.2f} | {o.hit(1):.2f} |"
                    f" {o.hit(5):.2f} | {o.anywhere():.2f} |")
        print(f"    {hops} hops, {split}: hit@1 {t.hit(1):.2f}, hit@5 {t.hit(5):.2f},"
              f" answer@1 {t.answer_rate():.2f}; the walk: hit@1 {o.hit(1):.2f},"
              f" anywhere {o.anywhere():.2f}", flush=True)
    latency = (f"| {facts:,} | {percentile(new_ms, 50):.1f} | {percentile(new_ms, 95):.1f} |"
               f" {percentile(old_ms, 50):.1f} | {percentile(old_ms, 95):.1f} |")
    print(f"    latency: p50 {percentile(new_ms, 50):.1f} ms, p95 {percentile(new_ms, 95):.1f}"
          f" ms; the walk p50 {percentile(old_ms, 50):.1f} ms", flush=True)
    return [*rows, "LATENCY" + latency]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="facts per graph, comma-separated")
    parser.add_argument("--questions", type=int, default=20,
                        help="questions per hop count and split")
    parser.add_argument("--keep", action="store_true", help="keep the spaces afterwards")
    parser.add_argument("--relation-subjects", action="store_true",
                        help="name facts' subjects by their relation, not the role it gives")
    parser.add_argument("--show-misses", action="store_true",
                        help="print each question whose right path is not first")
    args = parser.parse_args()
    global SHOW_MISSES
    SHOW_MISSES = args.show_misses
    runtime = Runtime.open(load_settings())
    results: list[str] = []
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            print(f"bench.multihop: {size:,} facts", flush=True)
            results += run_size(runtime, size, args.questions, args.keep,
                                roles=not args.relation_subjects)
    finally:
        runtime.close()
    quality = [r for r in results if not r.startswith("LATENCY")]
    latency = [r.removeprefix("LATENCY") for r in results if r.startswith("LATENCY")]
    roles = not args.relation_subjects
    title = "Multi-hop questions (bench.multihop)" + (
        "" if roles else ", subjects naming relations, not roles")
    flag = "" if roles else " --relation-subjects"
    write_section(title, "\n".join([
        f"`python -m bench.multihop --sizes {args.sizes} --questions {args.questions}{flag}`."
        " recall_related(question) with no model, against the neighbourhood walk it replaced"
        " (2 hops from the person, unranked), in the same run. hit@k: the right path among"
        " the first k; answer@1: the right path first and the answer entities are its end;"
        " `held`: phrasings never looked at while the ranking was built.", "",
        "| facts | hops | phrasings | questions | hit@1 | hit@5 | answer@1 | walk hit@1 |"
        " walk hit@5 | walk: anywhere |",
        "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *quality, "",
        "| facts | recall_related p50 ms | p95 ms | walk p50 ms | walk p95 ms |",
        "| ---: | ---: | ---: | ---: | ---: |",
        *latency]))


if __name__ == "__main__":
    main()
