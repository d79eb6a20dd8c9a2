"""Reads of one entity: its attributes and edges now or at an instant, one attribute's chain.

`as_of` is what memory believed at T (held_from <= T < retired_at); `valid_at` is what was true
in the world at T (valid_from <= T < valid_to): the same two clocks as the fact reads.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from graphmem.errors import InvalidInput
from graphmem.graph.driver import GraphDriver
from graphmem.graph.entities import row_to_entity
from graphmem.graph.facts import row_to_fact
from graphmem.graph.reads import value_at
from graphmem.graph.rows import read_one
from graphmem.model import Fact
from graphmem.model.entities import Entity, EntityView, Link
from graphmem.model.history import History, HistoryEntry
from graphmem.slots import normalise_subject

VIEW_LIMIT = 1000  # facts one entity view holds, the newest


def _key(fact: Fact) -> str:
    if fact.relation:
        try:
            return normalise_subject(fact.relation)
        except ValueError:
            pass
    return fact.subject


def view(graph: GraphDriver, space: str, entity: Entity, as_of: datetime | None = None,
         valid_at: datetime | None = None, limit: int = VIEW_LIMIT) -> EntityView:
    """The entity's facts, oldest first: the newest `limit` of them (`truncated` says when
    it holds more; its attributes and edges are listed a page at a time elsewhere)."""
    rows = read_one(graph, "entities/facts", space=space, key=entity.key, as_of=as_of,
                    valid_at=valid_at, limit=limit + 1)
    truncated = len(rows) > limit
    rows = list(reversed(rows[:limit]))
    attributes: dict[str, list[Fact]] = defaultdict(list)
    links: list[Link] = []
    for row in rows:
        fact = row_to_fact(row["fact"])
        fact = value_at(fact, as_of) if as_of else fact
        if row["other"] is None:
            attributes[_key(fact)].append(fact)
        else:
            links.append(Link(fact, row_to_entity(row["other"]), row["role"] == "head",
                              _key(fact)))
    return EntityView(entity, {k: tuple(v) for k, v in attributes.items()}, tuple(links),
                      truncated)


def history(graph: GraphDriver, space: str, entity: Entity, attribute: str) -> History:
    """One attribute of an entity (a relation or a subject): the chain, oldest → newest."""
    try:
        key = normalise_subject(attribute)
    except ValueError as e:
        raise InvalidInput(str(e)) from None
    rows = read_one(graph, "entities/history", space=space, key=entity.key, attribute=key)
    entries: list[HistoryEntry] = []
    for row in rows:
        fact = row_to_fact(row["fact"])
        entries += [HistoryEntry(fact, str(r.get("value")), "REFINED") for r in fact.revisions]
        entries.append(HistoryEntry(fact, fact.value, fact.status.value))
    return History(f"{entity.name}.{key}", tuple(entries))
