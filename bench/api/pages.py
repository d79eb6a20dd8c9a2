"""bench/api pages: what a frontend's two heaviest pages cost over HTTP + GraphQL against
the Cypher they send, run directly on the same driver.

- the conflicts inbox: 50 open conflicts with their facts side by side (`conflicts/page`,
  then one `facts/by_ids` for every fact of the page: the DataLoader's batch);
- a timeline: 100 entries of one subject's history (`facts/history_page`).

Both sides are timed alternately in one process, against a server in a thread on the same
runtime, so machine load hits both alike; the figure is each side's p50 and their ratio
(target: GraphQL at most 2× the direct Cypher).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bench.results import percentile
from graphmem import GraphMem
from graphmem.graph.rows import read_one
from graphmem.runtime import Runtime

INBOX = ("query($s: String!) { conflicts(space: $s, first: 50) { nodes { conflictId kind"
         " severity subject createdAt facts { factId value source confidence recordedAt"
         " validFrom status } } } }")
TIMELINE = ("query($s: String!) { history(space: $s, subject: \"plan\", first: 100) { nodes {"
            " value status fact { factId recordedAt validFrom validTo source } } } }")
NOTE = """\
Both sides read the same rows with the same statement; the GraphQL side then builds the
service's objects (facts with their times and enums), hops to the event loop, builds the
schema's objects and serializes the result. Fields Strawberry reads by attribute are read
directly (`schema/execution.py`): a list of 100 timeline entries selecting only such fields
is built from one plan per selection, not through graphql-core's per-field resolution, and a
`nodes` selection encodes no cursor. The inbox's conflicts carry their facts through one
batched DataLoader call (`Conflict.facts` is a resolver, so that list takes graphql-core's
own path)."""
NO_WINDOW = {"after": None, "before": None, "backward": False}
NO_TIME = {"as_of": None, "valid_at": None, "valid_start": None, "valid_end": None}


@dataclass(frozen=True)
class PageRow:
    name: str
    graphql: float  # p50 ms
    direct: float  # p50 ms

    @property
    def ratio(self) -> float:
        return self.graphql / self.direct if self.direct else float("nan")


def fill(runtime: Runtime, tenant: str, conflicts: int = 50, entries: int = 100) -> str:
    """A space of `tenant` with `conflicts` open conflicts of two facts each and a subject
    whose timeline has `entries` entries; returns the space's key."""
    mem = GraphMem(space=f"{tenant}/pages-{uuid.uuid4().hex[:8]}", runtime=runtime)
    mem.remember_facts([{"subject": f"s{i}", "value": f"v{i}", "confidence": 0.9}
                        for i in range(conflicts)])
    mem.remember_facts([{"subject": f"s{i}", "value": f"w{i}", "action": "SUPERSEDE",
                         "confidence": 0.3} for i in range(conflicts)])
    for n in range(entries):
        mem.remember_facts([{"subject": "plan", "value": f"plan {n}", "action": "SUPERSEDE",
                             "confidence": 0.9}])
    mem.records.wait_for_embeddings()
    mem.records.drain()
    return mem.space.key


def direct_inbox(runtime: Runtime, space: str) -> Callable[[], None]:
    def run() -> None:
        rows = read_one(runtime.graph, "conflicts/page", space=space, status="open",
                        kinds=None, subject=None, scope=None, limit=51, **NO_WINDOW,
                        **NO_TIME)
        ids = [i for r in rows for i in r["fact_ids"]]
        read_one(runtime.graph, "facts/by_ids", space=space, ids=ids, as_of=None)

    return run


def direct_timeline(runtime: Runtime, space: str) -> Callable[[], None]:
    def run() -> None:
        read_one(runtime.graph, "facts/history_page", space=space, subject="plan", scope=None,
                 believed=False, limit=102, **NO_WINDOW, **NO_TIME)

    return run


def measure(post: Callable[[dict[str, Any]], None], runtime: Runtime, space: str,
            calls: int) -> list[PageRow]:
    """Each page `calls` times over HTTP and directly, alternating which goes first (`space`:
    the full key, which the API accepts in the key's own tenant)."""
    found = []
    for name, document, direct in (("conflicts inbox page (50 conflicts with their facts)",
                                     INBOX, direct_inbox(runtime, space)),
                                    ("timeline page (100 history entries)", TIMELINE,
                                     direct_timeline(runtime, space))):
        body = {"query": document, "variables": {"s": space}}
        for _ in range(5):  # warm both paths
            post(body)
            direct()
        http: list[float] = []
        cypher: list[float] = []
        over_http = partial(post, body)
        for n in range(calls):
            sides = [(http, over_http), (cypher, direct)]
            for samples, call in (sides if n % 2 else sides[::-1]):
                started = time.perf_counter()
                call()
                samples.append(time.perf_counter() - started)
        found.append(PageRow(name, percentile(http, 50) * 1000, percentile(cypher, 50) * 1000))
    return found


def rows(found: list[PageRow]) -> list[str]:
    lines = ["| page | GraphQL over HTTP p50 (ms) | the same Cypher, direct p50 (ms) | ratio"
             " (target ≤ 2×) |", "| --- | ---: | ---: | ---: |"]
    for r in found:
        verdict = "met" if r.ratio <= 2.0 else "NOT met"
        lines.append(f"| {r.name} | {r.graphql:.2f} | {r.direct:.2f} | {r.ratio:.2f}×"
                     f" ({verdict}) |")
    return lines
