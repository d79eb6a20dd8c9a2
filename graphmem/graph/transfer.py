"""What an export reads of one space: its settings and sizes, its facts streamed a page to a
record, its entities and its conflicts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import neo4j

from graphmem.graph.driver import GraphDriver
from graphmem.graph.rows import read
from graphmem.graph.statements import query


def export_space(graph: GraphDriver, space: str) -> dict[str, Any]:
    """The Space node's settings and the counts of what it holds."""
    return read(graph, "transfer/export_space", space=space)[0]


def export_facts(graph: GraphDriver, space: str, page: int) -> Iterator[list[Any]]:
    """Every fact of the space in one streamed read of its own, `page` facts to a record,
    so a space of any size is never held in memory."""
    with graph.session(default_access_mode=neo4j.READ_ACCESS) as session:
        for row in session.run(query("transfer/export_facts"), space=space, page=page):
            yield row["facts"]


def export_entities(graph: GraphDriver, space: str) -> list[dict[str, Any]]:
    return [row["entity"] for row in read(graph, "transfer/export_entities", space=space)]


def export_conflicts(graph: GraphDriver, space: str) -> list[dict[str, Any]]:
    return [row["conflict"] for row in read(graph, "transfer/export_conflicts", space=space)]
