"""The entity-graph projection of facts, written in the same transaction as the facts.

A fact with a head points at its entities with `(:Fact)-[:ABOUT {role}]->(:Entity)`; a fact
with (head, relation, tail) also gets `(head)-[:REL_TYPE {fact_id, status, ...}]->(tail)`.
An edge mirrors its fact's status and validity: retiring the fact retires the edge, nothing
is deleted. Every projection can be rebuilt from the Fact nodes alone: the resolved entity
keys are stored on the fact, so a rebuild lands every edge where it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput
from graphmem.graph import entities
from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.identifiers import relation_type
from graphmem.graph.outbox import Outbox
from graphmem.model.entities import UNKNOWN
from graphmem.slots import normalise_subject

# A relation with no letter or digit of the safe alphabet (say, 日本語) still projects, under
# this type; the original label stays on the edge's `relation` property.
FALLBACK_TYPE = "RELATED_TO"
REBUILD_PAGE = 2000


class BatchLike(Protocol):
    """What the projection reads of a write batch (graphmem.remember.write.Batch)."""

    facts: list[dict[str, Any]]
    supersedes: list[dict[str, Any]]
    retracts: list[dict[str, Any]]
    refines: list[dict[str, Any]]
    statuses: list[dict[str, Any]]


def edge_type(relation: str) -> str:
    """UPPER_SNAKE from the safe alphabet; never text a caller controls verbatim."""
    try:
        return relation_type(relation)
    except InvalidInput:
        return FALLBACK_TYPE


def relation_key(relation: str | None) -> str | None:
    """The snake_case attribute name a relation is known by (`works at` → works_at)."""
    if not relation:
        return None
    try:
        return normalise_subject(relation)
    except ValueError:
        return None


def _makes_edge(fact: dict[str, Any]) -> bool:
    """A tombstone, or a held removal, is not a claim that the relation holds."""
    return (bool(fact.get("relation")) and bool(fact.get("tail"))
            and fact.get("action") != "RETRACT" and fact.get("proposed_action") != "RETRACT")


def _untyped(facts: Sequence[dict[str, Any]]) -> set[str]:
    names = set()
    for f in facts:
        for end in ("head", "tail"):
            if f.get(end) and not f.get(f"{end}_key") and entities.fold_type(
                    f.get(f"{end}_type")) is None:
                names.add(entities.normalise_name(f[end]))
    return names


def _known(tx: ManagedTransaction, space: str, facts: Sequence[dict[str, Any]]) -> set[str]:
    """Typed keys an untyped name could resolve to: stored ones and those of this batch."""
    names = _untyped(facts)
    if not names:
        return set()
    keys = [k for n in sorted(names) for k in entities.candidate_keys(n)]
    found = {r["entity"]["key"] for r in run(tx, "entities/by_key", space=space,
                                             keys=keys)}
    for f in facts:
        for end in ("head", "tail"):
            folded = entities.fold_type(f.get(f"{end}_type"))
            if f.get(end) and folded not in (None, UNKNOWN):
                found.add(entities.entity_key(folded, entities.normalise_name(f[end])))
    return found


def _end(fact: dict[str, Any], end: str, known: Iterable[str]) -> dict[str, Any]:
    name = str(fact[end]).strip()
    norm = entities.normalise_name(name)
    key = fact.get(f"{end}_key")
    if not key:
        folded = entities.fold_type(fact.get(f"{end}_type"))
        key = (entities.entity_key(folded, norm) if folded is not None
               else entities.resolve(norm, known)[1])
    return {f"{end}_key": key, f"{end}_entity_type": key.split(":", 1)[0],
            f"{end}_name": name, f"{end}_norm": norm}


def projection_row(fact: dict[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """What project_facts writes for one fact node (or fact row of a batch)."""
    row: dict[str, Any] = {"id": fact["id"], **_end(fact, "head", known)}
    tail = _end(fact, "tail", known) if fact.get("tail") else {
        "tail_key": None, "tail_entity_type": None, "tail_name": None, "tail_norm": None}
    row.update(tail)
    relation = fact.get("relation")
    row["rel_type"] = edge_type(relation) if relation else None
    row["rel_key"] = relation_key(relation)
    row["edge"] = _makes_edge(fact) and row["rel_type"] is not None
    row["entity_keys"] = list(dict.fromkeys(k for k in (row["head_key"], row["tail_key"]) if k))
    return row


def _own_instant(fact: dict[str, Any], now: datetime) -> datetime | None:
    """A fact recorded at another instant than the write's (a backfill): its entities exist
    from then on."""
    recorded = fact.get("recorded_at")
    return recorded if isinstance(recorded, datetime) and recorded is not now else None


def project(tx: ManagedTransaction, space: str, now: datetime,
            facts: Sequence[dict[str, Any]]) -> int:
    """Write entities, ABOUT edges and typed edges for the facts that have a head."""
    facts = [f for f in facts if f.get("head")]
    if not facts:
        return 0
    known = _known(tx, space, facts)
    rows = [{**projection_row(f, known), "at": _own_instant(f, now)} for f in facts]
    run(tx, "projection/project_facts", space=space, now=now, rows=rows)
    return len(rows)


def sync(tx: ManagedTransaction, space: str, fact_ids: Iterable[str]) -> None:
    """Status labels of the facts, and their edges brought in step (status, validity)."""
    ids = sorted(set(fact_ids))
    if ids:
        run(tx, "projection/sync_facts", space=space, ids=ids)


def changed(batch: BatchLike) -> list[str]:
    """The facts a batch changes (retires, refines, moves to another status), whose labels
    and edges the write brings in step (remember/apply inlines graph/sync_facts for them,
    saving a round trip). The facts it creates are labelled as they are created; one that a
    later decision of the batch changes again is among these."""
    ids = [e["old"] for e in (*batch.supersedes, *batch.retracts)]
    ids += [r["id"] for r in (*batch.refines, *batch.statuses)]
    return sorted(set(ids))


# ---- rebuild -------------------------------------------------------------------------------
@dataclass(frozen=True)
class RebuildResult:
    removed_about: int
    removed_edges: int
    facts: int

    def __str__(self) -> str:
        return (f"projection rebuilt from {self.facts} fact(s): removed {self.removed_about}"
                f" ABOUT and {self.removed_edges} projection edge(s) first")


def _drain(graph: GraphDriver, name: str, space: str) -> int:
    total = 0
    while True:
        deleted = int(graph.write(name, space=space, limit=10_000)[0]["deleted"])
        total += deleted
        if deleted == 0:
            return total


def _project_page(tx: ManagedTransaction, space: str, now: datetime,
                  facts: list[dict[str, Any]]) -> None:
    run(tx, "spaces/lock", space=space, now=now)
    project(tx, space, now, facts)
    sync(tx, space, [f["id"] for f in facts])


def rebuild(graph: GraphDriver, space: str, now: datetime) -> RebuildResult:
    """Drop every ABOUT and projection edge of the space, then project each fact again.

    Entities stay (seeded ones have no fact); pages are idempotent, so a rebuild that is
    interrupted can simply be run again.
    """
    about = _drain(graph, "projection/unproject_about", space)
    edges = _drain(graph, "projection/unproject_edges", space)
    after_at, after_id, count = None, "", 0  # count: facts with a head, projected again
    while True:
        page = [r["fact"] for r in graph.read("projection/projectable_facts", space=space,
                                              after_at=after_at, after_id=after_id,
                                              limit=REBUILD_PAGE)]
        if not page:
            return RebuildResult(about, edges, count)
        with graph.session() as session:
            session.execute_write(_project_page, space, now, page)
        count += sum(1 for f in page if f.get("head"))
        after_at, after_id = page[-1]["recorded_at"], page[-1]["id"]


def rebuilt(tx: ManagedTransaction, outbox: Outbox, now: datetime) -> None:
    """A finished rebuild is an event of the mirror's log: restore runs it again at that
    point, with the same instant (`rebuild_in`)."""
    run(tx, "spaces/lock", space=outbox.space, now=now)
    outbox.record(tx, "rebuild", {}, now)


def rebuild_in(tx: ManagedTransaction, space: str, now: datetime) -> None:
    """The whole rebuild inside one transaction (restore replays a `rebuild` event so)."""
    for name in ("projection/unproject_about", "projection/unproject_edges"):
        while int(run(tx, name, space=space, limit=10_000)[0]["deleted"]):
            pass
    after_at, after_id = None, ""
    while True:
        page = [r["fact"] for r in run(tx, "projection/projectable_facts", space=space,
                                       after_at=after_at, after_id=after_id,
                                       limit=REBUILD_PAGE)]
        if not page:
            return
        _project_page(tx, space, now, page)
        after_at, after_id = page[-1]["recorded_at"], page[-1]["id"]


def snapshot(graph: GraphDriver, space: str) -> tuple[frozenset[Any], frozenset[Any]]:
    """Every ABOUT edge and projection edge (type, ends, properties), order-free."""
    row = graph.read("projection/snapshot", space=space)[0]
    about = frozenset(tuple(a) for a in row["about"])
    edges = frozenset((e["type"], e["head"], e["tail"], tuple(sorted(
        (k, str(v)) for k, v in e["props"].items()))) for e in row["edges"])
    return about, edges
