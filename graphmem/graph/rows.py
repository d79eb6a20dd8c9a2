"""Rows of statements that return only maps, lists and scalars, taken as they arrive.

`Record.data()` walks every value to turn nodes and relationships into dicts; on the
hundreds of rows a traversal reads that walk costs more than the query. Statements run here
return map projections only, so the values are already plain.
"""

from __future__ import annotations

from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.queries import query


def plain(tx: ManagedTransaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named statement in the caller's transaction; rows as plain dicts."""
    return [dict(record) for record in tx.run(query(name), params)]
