"""Paged reads of facts: any status, filtered, at any point of either clock.

A page is one statement (the window's keyset, in Cypher) and, when asked, one count by
aggregation under the same filter; nothing loads a whole space to slice it. Facts come back
as they stood at `as_of` (their status then, and a refined value as it read then).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time, row_to_fact
from graphmem.graph.reads import conflict_from_row, value_at
from graphmem.graph.rows import read_one
from graphmem.model import Conflict, Fact, Status, When
from graphmem.model.listings import ConflictFilter, FactFilter
from graphmem.model.paging import Key, Page, Window

BELIEVED = (Status.ACTIVE, Status.SUPERSEDED, Status.HISTORICAL)


def fact_key(fact: Fact) -> Key:
    return (fact.recorded_at, fact.id)


def as_it_stood(row: dict[str, Any], as_of: datetime | None) -> Fact:
    """A fact row as memory held it at `as_of` (None: now): the status it had then (retired
    by then: its retired status; held from before then: ACTIVE; else FLAGGED_CONFLICT),
    open-ended when a later retirement closed its validity (`valid_to_at`), and a refined
    value as it read then. facts/page filters on the same rule in Cypher."""
    fact = row_to_fact(row)
    if as_of is None:
        return fact
    held_from = as_time(row.get("held_from"))
    closed = as_time(row.get("valid_to_at")) or (
        fact.retired_at if fact.valid_to is not None and fact.valid_to == fact.retired_at
        else None)
    changes: dict[str, Any] = {}
    if fact.retired_at is None or fact.retired_at > as_of:
        changes["status"] = (Status.ACTIVE if held_from is not None and held_from <= as_of
                             else Status.FLAGGED_CONFLICT)
    if closed is not None and closed > as_of:
        changes["valid_to"] = None
    return value_at(replace(fact, **changes), as_of)


def fact_page(graph: GraphDriver, space: str, flt: FactFilter, when: When,
              window: Window) -> Page[Fact]:
    params = {"space": space, **flt.params(when)}
    statement = "facts/page_back" if window.backward else "facts/page"
    rows = read_one(graph, statement, **params, **window.params())
    facts = [as_it_stood(r["fact"], when.as_of) for r in rows]
    total = count(graph, "facts/count", params) if window.count else None
    return window.page(facts, fact_key, total)


def count(graph: GraphDriver, name: str, params: dict[str, Any]) -> int:
    return int(read_one(graph, name, **params)[0]["total"])


def by_ids(graph: GraphDriver, space: str, ids: Sequence[str],
           as_of: datetime | None = None) -> dict[str, Fact]:
    """Facts of the space by id, in one statement (the batch a DataLoader collects), as
    they stood at `as_of`; ids of other spaces, or recorded after `as_of`, are absent."""
    rows = read_one(graph, "facts/by_ids", space=space, ids=list(dict.fromkeys(ids)),
                    as_of=as_of)
    return {r["fact"]["id"]: as_it_stood(r["fact"], as_of) for r in rows}


def superseded_by(graph: GraphDriver, space: str, ids: Sequence[str],
                  as_of: datetime | None = None) -> dict[str, Fact]:
    """For each fact id, the fact that superseded it or the tombstone that retracted it
    (by `as_of`, when given), in one statement."""
    rows = read_one(graph, "facts/superseded_by", space=space, ids=list(dict.fromkeys(ids)),
                    as_of=as_of)
    return {r["old"]: as_it_stood(r["fact"], as_of) for r in rows}


def conflict_key(conflict: Conflict) -> Key:
    return (conflict.created_at, conflict.id)


def conflict_page(graph: GraphDriver, space: str, flt: ConflictFilter, when: When,
                  window: Window) -> Page[Conflict]:
    """Conflicts in the order they opened, each with the ids of the facts it involves."""
    params = {"space": space, **flt.params(when)}
    rows = read_one(graph, "conflicts/page", **params, **window.params())
    found = [conflict_from_row(r["conflict"], r["fact_ids"]) for r in rows]
    total = count(graph, "conflicts/count", params) if window.count else None
    return window.page(found, conflict_key, total)
