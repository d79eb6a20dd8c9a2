"""What a restore from the mirror reads and writes of the graph besides the write path's own
statements: whether the target is empty, and a replayed event's Space node."""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver, run


def graph_count(graph: GraphDriver, space: str | None) -> int:
    """Memory nodes (facts, conflicts, entities, outbox entries) of a space, or of the
    whole graph when `space` is None."""
    return int(graph.read("restore/graph_count", space=space)[0]["nodes"])


def space(tx: ManagedTransaction, space: str, now: datetime, seq: int | None,
          store: str) -> None:
    """The Space node of a replayed event, its write counter at the event's and claimed by
    `store` (the mirror it came from)."""
    run(tx, "restore/space", space=space, now=now, seq=seq, store=store)
