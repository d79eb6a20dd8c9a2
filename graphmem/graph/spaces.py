"""The Space node: the write lock every writer of a space takes first, the space's stored
reconcile policy and relation schema, and the list of spaces the graph knows."""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.outbox import Outbox


def lock(tx: ManagedTransaction, space: str, now: datetime) -> str | None:
    """Take the space's write lock for the rest of `tx`; returns the stored policy (JSON)."""
    rows = run(tx, "spaces/lock_with_policy", space=space, now=now)
    return rows[0]["policy"] if rows else None


def set_policy(tx: ManagedTransaction, space: str, policy: str, now: datetime) -> None:
    run(tx, "spaces/set_policy", space=space, policy=policy, now=now)


def set_relation_schema(tx: ManagedTransaction, space: str, schema: str,
                        now: datetime) -> None:
    run(tx, "spaces/set_relation_schema", space=space, schema=schema, now=now)


def set_relation_descriptions(tx: ManagedTransaction, space: str, described: str,
                              now: datetime) -> None:
    run(tx, "spaces/set_relation_descriptions", space=space, described=described, now=now)


def change_policy(tx: ManagedTransaction, outbox: Outbox, policy: str, now: datetime) -> None:
    """Store the reconcile policy (JSON) under the space's lock, with its event."""
    lock(tx, outbox.space, now)
    set_policy(tx, outbox.space, policy, now)
    outbox.record(tx, "policy", {"policy": policy}, now)


def change_relation_schema(tx: ManagedTransaction, outbox: Outbox, schema: str,
                           now: datetime) -> None:
    """Store the declared relation schema (JSON) under the space's lock, with its event."""
    lock(tx, outbox.space, now)
    set_relation_schema(tx, outbox.space, schema, now)
    outbox.record(tx, "relations", {"schema": schema}, now)


def change_relation_descriptions(tx: ManagedTransaction, outbox: Outbox, described: str,
                                 now: datetime) -> None:
    """Store what a model said the space's relations mean (JSON), with its event."""
    lock(tx, outbox.space, now)
    set_relation_descriptions(tx, outbox.space, described, now)
    outbox.record(tx, "relations", {"described": described}, now)


def stored_policy(graph: GraphDriver, space: str) -> str | None:
    rows = graph.read("spaces/get_policy", space=space)
    return rows[0]["policy"] if rows else None


def listing(graph: GraphDriver) -> list[str]:
    """Every space the graph knows (each writer creates its Space node first)."""
    return [r["space"] for r in graph.read("spaces/list")]


def write_counts(graph: GraphDriver, keys: list[str]) -> dict[str, int]:
    """Each space's write counter (0 for a space never written): a reader polling it learns
    that a space changed, whichever process wrote, in one query for many spaces."""
    if not keys:
        return {}
    return {r["space"]: int(r["writes"]) for r in graph.read("spaces/write_counts", spaces=keys)}


def holding(graph: GraphDriver, prefix: str) -> list[str]:
    """The spaces whose key starts with `prefix` that hold a fact, entity or outbox entry."""
    return [str(r["space"]) for r in graph.read("spaces/holding", prefix=prefix)]


def under(graph: GraphDriver, prefix: str, store: str | None) -> list[str]:
    """The spaces whose key starts with `prefix` ('' for all) that `store` claimed or nobody
    did (every one when `store` is None)."""
    return [str(r["space"]) for r in graph.read("spaces/under", prefix=prefix, store=store)]
