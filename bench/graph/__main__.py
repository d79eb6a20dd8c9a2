"""bench/graph: multi-hop recall_related, as-of reads and history on a scale-free entity graph.

    python -m bench.graph            # 10k facts, ~5k entities, 10k typed edges + 20k ABOUT
    python -m bench.graph --full     # the issue's size: 100k facts, ~50k entities
    python -m bench.graph --facts 20000 --repeat 300 --keep

The space is built with `remember_facts` in batches of 1,000 facts (one transaction each:
lock, reconcile, write, projection, clustering). The post-commit embedding of new facts
(tens of facts/s on this CPU and irrelevant to graph reads) is skipped unless
`--embed` is given. Endpoints follow preferential weights (Zipf, s=0.8),
so the degree distribution is scale-free and hubs exist. Then p50/p99 of: 2-hop and 3-hop
recall_related from random entities, an as-of active() read for one subject, history of a
subject with 50 versions; and for each, the same Cypher statements with the same parameters
run directly through the driver the way graphmem ran them (one managed read transaction, or
auto-commit for a single-statement read), so the ratio is graphmem's own overhead
(sessions, Python, result objects).
"""

from __future__ import annotations

import argparse
import bisect
import functools
import itertools
import os
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import neo4j
from neo4j import ManagedTransaction, Session

from bench.results import percentile, write_section
from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.runtime import Runtime

TYPES = ("person", "service", "organisation", "project", "product", "topic")
RELATIONS = ("calls", "depends on", "knows", "uses", "owns", "mentions")
BATCH = 1000
VERSIONS = 50


# ---- building the space ------------------------------------------------------------------------
def name(i: int) -> tuple[str, str]:
    return TYPES[i % len(TYPES)], f"entity {i}"


def triples(facts: int, entities: int, seed: int) -> list[tuple[int, str, int]]:
    """Distinct (head, relation, tail): every entity heads one fact, the rest are weighted."""
    rng = random.Random(seed)
    cumulative = list(itertools.accumulate(1 / (i + 1) ** 0.8 for i in range(entities)))
    order = list(range(entities))
    rng.shuffle(order)  # hubs are spread over the types

    def weighted() -> int:
        return order[bisect.bisect(cumulative, rng.random() * cumulative[-1])]

    found: set[tuple[int, str, int]] = set()
    heads = iter(order)
    while len(found) < facts:
        head = next(heads, None)
        head = head if head is not None else weighted()
        tail = weighted()
        if head != tail:
            found.add((head, rng.choice(RELATIONS), tail))
    return sorted(found, key=lambda t: rng.random())


def fact(head: int, relation: str, tail: int) -> dict[str, Any]:
    (head_type, head_name), (tail_type, tail_name) = name(head), name(tail)
    return {"head": head_name, "head_type": head_type, "relation": relation,
            "tail": tail_name, "tail_type": tail_type, "cardinality": "many",
            "confidence": 0.9}


def write(mem: GraphMem, facts: list[dict[str, Any]], embed: bool) -> None:
    """One remember_facts call (one transaction); without --embed, the post-commit
    embedding of the new facts is left out (a no-op in its place on this instance)."""
    if not embed:
        writes = mem._writes
        assert hasattr(writes, "index"), "writes no longer embed through index: update"
        writes.index = lambda fact_ids: None  # type: ignore[method-assign]
    mem.remember_facts(facts, source="bench")


def build(mem: GraphMem, facts: int, entities: int, embed: bool) -> float:
    start = time.perf_counter()
    rows = [fact(*t) for t in triples(facts, entities, seed=7)]
    for i in range(0, len(rows), BATCH):
        write(mem, rows[i:i + BATCH], embed)
        done = min(i + BATCH, len(rows))
        print(f"  built {done:,}/{len(rows):,} facts"
              f" ({done / (time.perf_counter() - start):,.0f} facts/s)", flush=True)
    return time.perf_counter() - start


def versions(mem: GraphMem, embed: bool) -> list[datetime]:
    """A subject with 50 versions (one write each); returns an instant after each."""
    after = []
    for v in range(VERSIONS):
        write(mem, [{"head": "entity 0", "head_type": TYPES[0], "relation": "status",
                     "value": f"v{v}", "confidence": 0.9}], embed)
        after.append(datetime.now(UTC))
    return after


# ---- timing ------------------------------------------------------------------------------------
Call = tuple[bool, str, dict[str, Any]]  # (auto-commit?, statement, parameters)


@dataclass
class Recorder:
    """Captures the Cypher (text and parameters) an operation sends, and how, to replay it."""

    calls: list[Call] = field(default_factory=list)

    def __enter__(self) -> Recorder:
        self._tx_run, self._session_run = ManagedTransaction.run, Session.run
        tx_run, session_run, calls = self._tx_run, self._session_run, self.calls

        def in_tx(tx: ManagedTransaction, text: Any, params: Any = None, **kw: Any) -> Any:
            calls.append((False, str(text), dict(params or {}, **kw)))
            return tx_run(tx, text, params, **kw)

        def auto(session: Session, text: Any, params: Any = None, **kw: Any) -> Any:
            calls.append((True, str(text), dict(params or {}, **kw)))
            return session_run(session, text, params, **kw)

        ManagedTransaction.run = in_tx  # type: ignore[method-assign, assignment]
        Session.run = auto  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        ManagedTransaction.run = self._tx_run  # type: ignore[method-assign]
        Session.run = self._session_run  # type: ignore[method-assign]


def direct(graph: GraphDriver, calls: list[Call]) -> float:
    """The same statements straight through the driver, no graphmem code on the way:
    auto-commit ones as auto-commit reads, the others in one managed read transaction (the
    driver's own retry semantics, as graphmem's)."""

    def work(tx: ManagedTransaction) -> None:
        for _, text, params in managed:
            list(tx.run(text, params))  # records as they arrive: the cheapest way to read

    managed = [c for c in calls if not c[0]]
    start = time.perf_counter()
    with graph.session(default_access_mode=neo4j.READ_ACCESS) as session:
        for _, text, params in (c for c in calls if c[0]):
            list(session.run(text, params))
        if managed:
            session.execute_read(work)
    return time.perf_counter() - start


@dataclass
class Figures:
    label: str
    api: list[float] = field(default_factory=list)
    core: list[float] = field(default_factory=list)
    cypher: list[float] = field(default_factory=list)
    note: str = ""

    def p50(self, samples: list[float]) -> float:
        return percentile(samples, 50) * 1e3

    def row(self) -> str:
        cells = [f"{self.p50(s):.2f} / {percentile(s, 99) * 1e3:.2f}"
                 for s in (self.api, self.core, self.cypher)]
        ratio = self.p50(self.core) / self.p50(self.cypher)
        return f"| {self.label} | {' | '.join(cells)} | {ratio:.2f}× | {self.note} |"


def unaudited(mem: GraphMem, name: str) -> Callable[..., Any]:
    """The operation without the audit row every public GraphMem call appends."""
    fn = getattr(type(mem), name)
    return functools.partial(getattr(fn, "__wrapped__", fn), mem)


def measure(label: str, mem: GraphMem, name: str, args: Callable[[int], dict[str, Any]],
            repeat: int, note: Callable[[list[Any]], str] = lambda _: "") -> Figures:
    figures, results = Figures(label), []
    api, core = getattr(mem, name), unaudited(mem, name)
    for i in range(repeat):
        start = time.perf_counter()
        results.append(api(**args(i)))
        figures.api.append(time.perf_counter() - start)
        with Recorder() as rec:
            start = time.perf_counter()
            core(**args(i))
            figures.core.append(time.perf_counter() - start)
        figures.cypher.append(direct(mem.runtime.graph, rec.calls))
    figures.note = note(results)
    print(f"  {label}: API p50 {figures.p50(figures.api):.2f} ms, core"
          f" {figures.p50(figures.core):.2f} ms, Cypher {figures.p50(figures.cypher):.2f} ms",
          flush=True)
    return figures


def hop_note(results: list[Any]) -> str:
    paths = sorted(len(r.paths) for r in results)
    cut = sum(r.truncated for r in results)
    return f"paths p50 {paths[len(paths) // 2]}, truncated {cut}/{len(results)}"


def run(mem: GraphMem, facts: int, entities: int, repeat: int, embed: bool,
        reuse: bool = False) -> str:
    after: list[datetime]
    if reuse:  # a space kept by an earlier run (--keep): time the reads only
        built = float("nan")
        after = [e.fact.recorded_at for e in mem.history("entity_0_status").entries
                 if e.fact.recorded_at is not None]
        assert len(after) == VERSIONS, "not a bench/graph space"
    else:
        built = build(mem, facts, entities, embed)
        after = versions(mem, embed)
    counts = mem.runtime.graph.read("projection/counts", space=mem.space.key)[0]
    stats = (f"{counts['facts']:,} facts, {counts['entities']:,} entities,"
             f" {counts['edges']:,} typed edges, {counts['about']:,} ABOUT edges;"
             + (f" built in {built:.0f} s ({facts / built:,.0f} facts/s)" if built == built
                else " (built earlier)"))
    print("  " + stats, flush=True)
    rng = random.Random(11)
    starts = [name(rng.randrange(entities)) for _ in range(2 * repeat)]
    as_of = after[VERSIONS // 2]
    rows = [
        measure("recall_related, 2 hops", mem, "recall_related",
                lambda i: {"entities": [starts[i]], "hops": 2}, repeat, hop_note),
        measure("recall_related, 3 hops", mem, "recall_related",
                lambda i: {"entities": [starts[repeat + i]], "hops": 3}, repeat, hop_note),
        measure("active(subject, as_of)", mem, "active",
                lambda i: {"subject": "entity_0_status", "as_of": as_of}, repeat,
                lambda r: f"value {r[0][0].value}"),
        measure(f"history, {VERSIONS} versions", mem, "history",
                lambda i: {"subject": "entity_0_status"}, repeat,
                lambda r: f"{len(r[0])} entries"),
    ]
    worst = max(r.p50(r.core) / r.p50(r.cypher) for r in rows)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join([
        stats, f"Machine: {os.cpu_count()} CPUs, load average {load} (1/5/15 min) when the"
        " timings ended; Neo4j shares them.", "",
        "p50 / p99 in ms. *API*: the public GraphMem call, which also appends an audit row"
        "; *core*: the same operation without that row; *Cypher*: the statements"
        " the core call sent, replayed straight through the driver the way graphmem sent"
        " them (auto-commit, or one managed read transaction).", "",
        "| operation | API | core | direct Cypher | core ÷ Cypher (p50) | |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        *(r.row() for r in rows), "",
        f"Targets: 2-hop p50 ≤ 20 ms (core **{rows[0].p50(rows[0].core):.1f} ms**, API"
        f" {rows[0].p50(rows[0].api):.1f} ms), as-of p50 ≤ 5 ms (core"
        f" **{rows[2].p50(rows[2].core):.1f} ms**, API {rows[2].p50(rows[2].api):.1f} ms),"
        f" graphmem within 1.5× of direct Cypher (**{worst:.2f}×** at worst).",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="100k facts, ~50k entities")
    parser.add_argument("--facts", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--embed", action="store_true", help="build through remember_facts,"
                        " embedding every fact (slow)")
    parser.add_argument("--keep", action="store_true", help="keep the space afterwards")
    parser.add_argument("--space", help="time the reads on a space an earlier --keep run"
                        " built (with the same --facts)")
    args = parser.parse_args()
    facts = args.facts or (100_000 if args.full else 10_000)
    runtime = Runtime.open()
    runtime.migrate()
    key = args.space or f"bench-graph-{uuid.uuid4().hex[:8]}"
    mem = GraphMem(space=key, runtime=runtime)
    print(f"bench/graph: {facts:,} facts in space {mem.space.key}", flush=True)
    command = "python -m bench.graph" + (" --full" if args.full else "") + (
        f" --facts {args.facts}" if args.facts else "") + (
        f" --repeat {args.repeat}" if args.repeat != 200 else "")
    try:
        body = run(mem, facts, facts // 2, args.repeat, args.embed, reuse=bool(args.space))
        if facts < 100_000:
            body += ("\nThe issue's size is `--full` (100k facts, ~50k entities, 100k typed and"
                     " 200k ABOUT edges); this run used a smaller space.")
        print(body)
        write_section("graph", f"Command: `{command}`\n\n{body}")  # before the erasure
    finally:
        if not args.keep and not args.space:
            erase(mem)
        mem.close()
        runtime.close()


def erase(mem: GraphMem) -> None:
    """Remove the bench space; a failure leaves the figures written and says so."""
    try:
        receipt = mem.erasure.delete_all().get("receipt", {})
        print(f"  erased the space ({receipt.get('facts', '?')} facts)", flush=True)
    except Exception as e:  # noqa: BLE001 - the figures are written; say what is left
        print(f"  could not erase space {mem.space.key}: {e}", flush=True)

if __name__ == "__main__":
    main()
