"""`graphmem fsck`: the graph's invariants, near-duplicate entities, and the mirror.

Invariants (a violation fails the run): at most one ACTIVE value per single-valued slot,
every SUPERSEDED fact has an incoming SUPERSEDES or RETRACTS, every projection edge agrees
with its fact and every projectable fact has its edges. Near-duplicate entities are
candidates for a person (reported, never merged) and fail only under `strict`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphmem.errors import GraphMemError
from graphmem.graph import entities
from graphmem.graph.driver import GraphDriver
from graphmem.lifecycle.duplicates import Embedder, near_duplicates

log = logging.getLogger(__name__)
LIMIT = 100
MIRROR = "mirror agrees with the graph"


@dataclass(frozen=True)
class Check:
    name: str
    problems: tuple[str, ...] = ()
    fails: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        if self.ok:
            return f"ok    {self.name}"
        mark = "FAIL" if self.fails else "warn"
        return "\n".join([f"{mark}  {self.name}: {len(self.problems)} problem(s)",
                          *(f"      {p}" for p in self.problems)])


@dataclass(frozen=True)
class Report:
    space: str
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok or not c.fails for c in self.checks)

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)

    def __str__(self) -> str:
        return "\n".join([f"space {self.space}:", *(str(c) for c in self.checks)])


def _slots(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("graph/fsck_slots", space=space, limit=LIMIT)
    return Check("one active value per single-valued slot", tuple(
        f"{r['subject']} ({r['scope']}): {len(r['ids'])} ACTIVE facts {', '.join(r['ids'])}"
        for r in rows))


def _orphans(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("graph/fsck_orphans", space=space, limit=LIMIT)
    return Check("every SUPERSEDED fact is superseded or retracted by another", tuple(
        f"#{r['id']} {r['subject']} = {r['value']} has no incoming SUPERSEDES or RETRACTS"
        for r in rows))


def _edges(graph: GraphDriver, space: str) -> Check:
    rows = graph.read("graph/fsck_edges", space=space, limit=LIMIT)
    problems = [f"{r['head']} -[{r['type']}]-> {r['tail']}: edge {r['edge_status']}, fact"
                f" #{r['fact_id']} " + (r["fact_status"] or "missing") for r in rows]
    rows = graph.read("graph/fsck_unprojected", space=space, limit=LIMIT)
    problems += [f"#{r['id']} {r['subject']}: " + ("projection edge missing" if r["about"]
                                                   else "no ABOUT edge") for r in rows]
    return Check("projection edges match their facts", tuple(problems))


def _duplicates(graph: GraphDriver, space: str, embedder: Embedder | None,
                strict: bool) -> Check:
    name = "near-duplicate entities (name cosine >= 0.95)"
    if embedder is None:
        return Check(name, ("no embedder configured: check not run",), fails=strict)
    try:
        pairs = near_duplicates(entities.listing(graph, space), embedder)
    except GraphMemError as e:
        return Check(name, (f"check not run: {e}",), fails=strict)
    return Check(name, tuple(str(p) for p in pairs), fails=strict)


def _mirror_checker() -> Callable[..., Any] | None:
    """`graphmem.lifecycle.check_mirror` (function or module) when the mirror provides one."""
    try:
        found: Any = importlib.import_module("graphmem.lifecycle.check_mirror")
    except ImportError:
        found = getattr(importlib.import_module("graphmem.mirror"), "check_mirror", None)
    found = getattr(found, "check_mirror", found)
    return found if callable(found) else None


def _mirror(runtime: Any, space: str) -> Check | None:
    checker = _mirror_checker()
    if checker is None or runtime is None:
        return None
    outcome = checker(runtime, space)
    ok = outcome if isinstance(outcome, bool) else bool(getattr(outcome, "ok", False))
    if ok:
        return Check(MIRROR)
    listed = isinstance(outcome, list) and all(isinstance(p, str) for p in outcome)
    return Check(MIRROR, tuple(outcome) if listed else (str(outcome),))


def fsck(graph: GraphDriver, space: str, embedder: Embedder | None = None,
         runtime: Any = None, strict: bool = False) -> Report:
    """Run every check on one space."""
    checks = [_slots(graph, space), _orphans(graph, space), _edges(graph, space),
              _duplicates(graph, space, embedder, strict)]
    mirror = _mirror(runtime, space)
    if mirror is not None:
        checks.append(mirror)
    report = Report(space, tuple(checks))
    if not report.ok:
        log.warning("fsck found problems in space %s", space)
    return report


def spaces(graph: GraphDriver) -> list[str]:
    return [r["space"] for r in graph.read("graph/spaces")]
