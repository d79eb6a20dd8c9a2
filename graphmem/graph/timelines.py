"""Paged timelines: a subject's history, or one attribute of an entity, oldest → newest.

An entry is a fact or one of its refinements (the value it held before being refined in
place), so an entry's key is its fact's `(recorded_at, id)` and its place among that fact's
entries. A page reads its facts in Cypher from the fact of the cursor on (a page boundary
may fall between two entries of one fact) and counts entries by aggregation.
"""

from __future__ import annotations

from typing import Any

from graphmem.errors import InvalidInput
from graphmem.graph.driver import GraphDriver
from graphmem.graph.facts import as_time
from graphmem.graph.listings import as_it_stood, count
from graphmem.graph.rows import read_one
from graphmem.model import When
from graphmem.model.history import HistoryEntry
from graphmem.model.paging import Key, Page, Window
from graphmem.slots import normalise_subject

Keyed = tuple[Key, HistoryEntry]


def entries(row: dict[str, Any], when: When) -> list[Keyed]:
    """One fact's entries, oldest first: each refinement made by `as_of`, then the fact as
    it stood."""
    fact = as_it_stood(row, when.as_of)
    revisions = [r for r in fact.revisions if when.as_of is None
                 or (at := as_time(r.get("at"))) is None or at <= when.as_of]
    found: list[Keyed] = [((fact.recorded_at, fact.id, i),
                           HistoryEntry(fact, str(r.get("value")), "REFINED"))
                          for i, r in enumerate(revisions)]
    found.append(((fact.recorded_at, fact.id, len(revisions)),
                  HistoryEntry(fact, fact.value, fact.status.value)))
    return found


def _page(graph: GraphDriver, name: str, params: dict[str, Any], when: When,
          window: Window) -> Page[HistoryEntry]:
    bounds = {"after": None if window.after is None else list(window.after[:2]),
              "before": None if window.before is None else list(window.before[:2]),
              "backward": window.backward, "limit": window.size + 2}
    rows = read_one(graph, f"{name}_page", **params, **bounds)
    keyed: list[Keyed] = []
    for row in rows:
        found = entries(row["fact"], when)
        keyed += reversed(found) if window.backward else found
    inside = [k for k in keyed if (window.after is None or k[0] > window.after)
              and (window.before is None or k[0] < window.before)]
    total = count(graph, f"{name}_count", params) if window.count else None
    return window.page(inside, lambda k: k[0], total).map(lambda k: k[1])


def _params(space: str, scope: str | None, when: When) -> dict[str, Any]:
    return {"space": space, "scope": _folded(scope), "believed": when.world, **when.params()}


def _folded(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return normalise_subject(name)
    except ValueError as e:
        raise InvalidInput(str(e)) from None


def history_page(graph: GraphDriver, space: str, subject: str, scope: str | None,
                 when: When, window: Window) -> Page[HistoryEntry]:
    """A page of a subject's timeline (the supersession chain with its tombstones and
    refinements), optionally one scope."""
    params = {**_params(space, scope, when), "subject": subject}
    return _page(graph, "facts/history", params, when, window)


def entity_history_page(graph: GraphDriver, space: str, key: str, attribute: str,
                        scope: str | None, when: When, window: Window) -> Page[HistoryEntry]:
    """A page of one attribute (relation or subject) of an entity, oldest → newest."""
    params = {**_params(space, scope, when), "key": key, "attribute": _folded(attribute)}
    return _page(graph, "entities/history", params, when, window)
