"""What recall and the embedding of facts read and write in the graph.

The ranking reads run in the caller's transaction (`tx`), so a recall can put all of them
in one read transaction; `filters` are a pool's parameters (statuses, scope, times). Their
rows are taken as they arrive: these statements return only maps, lists and strings, and
`record.data()` would walk every nested value (every float of a vector)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver
from graphmem.graph.rows import plain
from graphmem.graph.statements import query

Filters = Mapping[str, Any]
Scored = list[tuple[str, float]]


def _scored(rows: list[dict[str, Any]]) -> Scored:
    return [(str(r["id"]), float(r["score"])) for r in rows]


# ---- ranking a pool ------------------------------------------------------------------------
def pool_size(tx: ManagedTransaction, space: str, cap: int, filters: Filters) -> int:
    """The pool's size, counted only up to `cap` (an index range scan, no property read)."""
    return int(plain(tx, "recall/pool_size", space=space, cap=cap, **filters)[0]["n"])


def pool(tx: ManagedTransaction, space: str, cap: int, filters: Filters
         ) -> list[dict[str, Any]]:
    """Up to `cap` facts of the pool, as maps."""
    return [r["fact"] for r in plain(tx, "recall/pool", space=space, cap=cap, **filters)]


def load(tx: ManagedTransaction, space: str, ids: list[str]) -> list[dict[str, Any]]:
    """The facts of `ids`, as maps."""
    return [r["fact"] for r in plain(tx, "recall/load", space=space, ids=ids)]


def critical(tx: ManagedTransaction, space: str, categories: list[str], cap: int,
             filters: Filters) -> list[str]:
    """The ids of up to `cap` pool facts in the given categories."""
    return [str(r["id"]) for r in plain(tx, "recall/critical", space=space,
                                        categories=categories, cap=cap, **filters)]


def vector_ann(tx: ManagedTransaction, space: str, vector: list[float], k: int, limit: int,
               filters: Filters) -> Scored:
    """The approximate nearest `k` of the vector index, `limit` of them in the pool."""
    return _scored(plain(tx, "recall/vector_ann", space=space, vector=vector, k=k,
                         limit=limit, **filters))


def vector_exact(tx: ManagedTransaction, space: str, vector: list[float], limit: int,
                 filters: Filters) -> Scored:
    """The nearest `limit` of the pool by an exact scan."""
    return _scored(plain(tx, "recall/vector_exact", space=space, vector=vector, limit=limit,
                         **filters))


def statuses(tx: ManagedTransaction, space: str, ids: list[str]) -> dict[str, str]:
    """The status of each of `ids` that is still a fact of the space."""
    return {str(r["id"]): str(r["status"])
            for r in plain(tx, "recall/statuses", space=space, ids=ids)}


def await_fulltext(tx: ManagedTransaction) -> None:
    """Wait until the eventually consistent full-text indexes hold every committed write."""
    plain(tx, "recall/await_fulltext")


def fulltext(tx: ManagedTransaction, space: str, terms: str, limit: int,
             filters: Filters) -> Scored:
    """The pool's facts that the `fact_search` index matches to `terms`, best first."""
    return _scored(plain(tx, "recall/fulltext", space=space, query=terms, limit=limit,
                         **filters))


def open_conflicts(tx: ManagedTransaction, space: str, ids: list[str]
                   ) -> list[dict[str, Any]]:
    """The open conflicts that hold any of `ids` (`conflict`, `facts` per row)."""
    return plain(tx, "recall/open_conflicts", space=space, ids=ids)


def check_subjects(graph: GraphDriver, space: str, subjects: list[str],
                   as_of: datetime | None, valid_at: datetime | None) -> list[dict[str, Any]]:
    """The facts a check before acting weighs for each subject (`fact` per row)."""
    return graph.read("recall/check_subjects", space=space, subjects=subjects, as_of=as_of,
                      valid_at=valid_at)


# ---- vectors -------------------------------------------------------------------------------
def vector_index(graph: GraphDriver) -> dict[str, Any] | None:
    """The fact vector index's options, None when the schema has none."""
    rows = graph.read("recall/vector_index")
    return rows[0]["options"] if rows else None


def vectors_since(tx: ManagedTransaction, space: str, seq: int, statuses: list[str],
                  limit: int) -> list[tuple[str, list[float], int]]:
    """(id, vector, sequence) of up to `limit` hot facts embedded after `seq`, as raw
    record values."""
    result = tx.run(query("recall/vectors_since"), space=space, seq=seq, statuses=statuses,
                    limit=limit)
    return [(r[0], r[1], r[2]) for r in result]


def embed_targets(graph: GraphDriver, items: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The text of each fact to embed (space, id, subject, value, scope); facts erased since
    they were queued are left out."""
    return graph.read("recall/embed_targets", items=items)


def set_embeddings(graph: GraphDriver, spaces: list[dict[str, Any]]) -> None:
    """Store vectors, per space (`key`, `rows` of id and vector), in one transaction."""
    graph.write_once("recall/set_embeddings", spaces=spaces)


def unembedded(graph: GraphDriver, space: str, limit: int) -> list[dict[str, Any]]:
    """Up to `limit` facts of the space that lack a vector."""
    return graph.read("recall/unembedded", space=space, limit=limit)


def unembedded_recent(graph: GraphDriver, since: datetime, until: datetime, limit: int
                      ) -> list[dict[str, Any]]:
    """Per space, the ids of facts recorded between `since` and `until` lacking a vector."""
    return graph.read("recall/unembedded_recent", since=since, until=until, limit=limit)


def unembedded_count(graph: GraphDriver, cap: int) -> int:
    """Facts lacking a vector, counted up to `cap`."""
    return int(graph.read("recall/unembedded_count", cap=cap)[0]["facts"])


def relation_profiles(tx: ManagedTransaction, space: str, labels: list[str], sample: int
                      ) -> list[dict[str, Any]]:
    """A sample of `sample` facts of each relation label (`label`, `facts` per row)."""
    return plain(tx, "recall/relation_profiles", space=space, labels=labels, sample=sample)
