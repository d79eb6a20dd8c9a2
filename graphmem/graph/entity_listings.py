"""Paged reads of entities: by type, by a part of their name or of a spelling facts used
for them, at any point of either clock; and their aliases, in one batch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.graph.driver import GraphDriver
from graphmem.graph.entities import fold_type, normalise_name, row_to_entity
from graphmem.graph.listings import count
from graphmem.graph.rows import read_one
from graphmem.model import When
from graphmem.model.entities import Entity
from graphmem.model.listings import EntityFilter
from graphmem.model.paging import Key, Page, Window

MAX_ALIASES = 20


def filter_params(flt: EntityFilter, when: When) -> dict[str, Any]:
    """The statement parameters of a filter: its type folded, its search normalised."""
    folded = fold_type(flt.type) if flt.type is not None else None
    search = normalise_name(flt.search) if flt.search is not None else None
    return {"prefix": f"{folded}:" if folded else None, "search": search, **when.params()}


def entity_key(entity: Entity) -> Key:
    return (entity.key,)


def entity_page(graph: GraphDriver, space: str, flt: EntityFilter, when: When,
                window: Window) -> Page[Entity]:
    params = {"space": space, **filter_params(flt, when)}
    rows = read_one(graph, "entities/page", **params, **window.params())
    found = [row_to_entity(r["entity"]) for r in rows]
    total = count(graph, "entities/count", params) if window.count else None
    return window.page(found, entity_key, total)


def aliases(graph: GraphDriver, space: str, keys: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """For each entity key, the spellings facts used for it other than its name."""
    rows = read_one(graph, "entities/aliases", space=space, keys=list(dict.fromkeys(keys)),
                    limit=MAX_ALIASES)
    return {r["key"]: tuple(r["aliases"]) for r in rows}
