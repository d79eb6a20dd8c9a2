"""Rows taken as they arrive, without `Record.data()`.

`Record.data()` walks every value to turn nodes and relationships into dicts; on the
hundreds of rows a traversal reads that walk costs more than the query. The hot statements
run here return map projections, so their values are already plain; a cold read that
returns a node gets the driver's Node, which a `graph.nodes` declaration inflates.
"""

from __future__ import annotations

import logging
from typing import Any

import neo4j
from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError

from graphmem.errors import Neo4jUnavailable
from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import query

log = logging.getLogger(__name__)


def plain(tx: ManagedTransaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named statement in the caller's transaction; rows as plain dicts."""
    return [dict(record) for record in tx.run(query(name), params)]


def read(graph: GraphDriver, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """A named read in a managed (retried) read transaction; values as they arrive."""
    return graph.execute(lambda tx: plain(tx, name, **params), write=False)


def read_one(graph: GraphDriver, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """One read statement in an auto-commit transaction: one round trip instead of three
    (BEGIN, RUN, COMMIT), which is most of a small read such as an as-of lookup. A
    transient failure or a lost connection runs it again as `graph.read` does (a managed
    transaction, retried, failing fast when Neo4j is down)."""
    try:
        with graph.session(default_access_mode=neo4j.READ_ACCESS) as session:
            return [dict(record) for record in session.run(query(name), params)]
    except Neo4jUnavailable as e:
        log.debug("auto-commit read %s lost its connection (%s); retrying managed", name, e)
    except Neo4jError as e:
        if not e.is_retryable():
            raise
        log.debug("auto-commit read %s failed transiently (%s); retrying managed", name, e)
    return graph.read(name, **params)
