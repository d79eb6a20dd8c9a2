"""The event log that restore replays, covered by the audit chain.

Each event row is named in the chain by the row appended with it (same relational
transaction): its id, space, kind and a digest of the row as stored (`digest`: every column
restore reads, the sealed payload included). An erasure that rewrites events records their
new digests in its own row; one that empties a space records that, and the space's earlier
events may then be gone. Events that predate the chain's coverage are sealed in it by the
upgrade (graphmem.mirror.seal).

`check` compares the table with what the chain says: a row edited or moved to another space
(its digest differs), a row deleted that no erasure accounts for, a row the chain never
named (inserted). Sealed payloads are also bound to their row (graphmem.mirror.crypto), so
a payload copied from another event does not even open.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphmem.mirror.crypto import binding
from graphmem.mirror.db import RelationalStore

BATCH = 500
Problem = Callable[[str, str | None], None]
COLUMNS = "event_id, space, kind, payload, created_at, applied_at, graph_seq"


def event_binding(event_id: str, space: str, kind: str) -> str:
    """Where an event's payload belongs: it opens only in that row."""
    return binding("event", event_id, space, kind)


def digest(event_id: str, space: str, kind: str, payload: str | None, created_at: str,
           applied_at: str, graph_seq: int | None) -> str:
    """SHA-256 over an event row as stored (the payload as sealed, so it reveals nothing)."""
    row = [event_id, space, kind, payload, created_at, applied_at, graph_seq]
    return hashlib.sha256(json.dumps(row, separators=(",", ":")).encode()).hexdigest()


def row_digest(row: tuple[Any, ...]) -> str:
    """`digest` of a row read as COLUMNS."""
    return digest(str(row[0]), str(row[1]), str(row[2]), row[3], str(row[4]), str(row[5]),
                  None if row[6] is None else int(row[6]))


@dataclass(frozen=True)
class Named:
    """An event as the chain names it, at chain row `seq`."""

    event_id: str
    space: str
    digest: str
    seq: int


@dataclass
class Coverage:
    """What the chain says about the event log, gathered from its rows in order: the
    events it names (`named`, read again on demand), the latest digest of every rewritten
    event, and when each space was last emptied."""

    rewritten: dict[str, str] = field(default_factory=dict)
    emptied: dict[str, int] = field(default_factory=dict)

    def note(self, seq: int, space: str, detail: Mapping[str, Any]) -> None:
        """Learn from one chain row's detail (rows come in chain order)."""
        if detail.get("kind") == "erase":
            for event_id, new in (detail.get("rewritten") or {}).items():
                self.rewritten[str(event_id)] = str(new)
            if detail.get("all"):
                self.emptied[space] = seq

    def expected(self, named: Named) -> str:
        return self.rewritten.get(named.event_id, named.digest)

    def gone_by_erasure(self, named: Named) -> bool:
        return self.emptied.get(named.space, 0) > named.seq


def named_in(seq: int, space: str, detail: Mapping[str, Any]) -> Iterator[Named]:
    """The events one chain row names: the event applied with it, or those a seal lists."""
    if isinstance(detail.get("event"), str) and isinstance(detail.get("digest"), str):
        yield Named(detail["event"], space, detail["digest"], seq)
    for item in detail.get("sealed") or ():
        yield Named(str(item[0]), str(item[1]), str(item[2]), seq)


def check(store: RelationalStore, named: Iterable[Named], coverage: Coverage, bound: int,
          problem: Problem) -> int:
    """Compare the event table, up to event `bound` (the last one when the chain was read),
    with the events the chain names; `problem(text, tenant)` hears of each difference.
    Returns how many named events were found."""
    present = 0
    batch: list[Named] = []
    for item in named:
        batch.append(item)
        if len(batch) >= BATCH:
            present += _check_batch(store, batch, coverage, bound, problem)
            batch = []
    present += _check_batch(store, batch, coverage, bound, problem)
    total = int(store.query("SELECT count(*) FROM events WHERE seq <= ?", (bound,))[0][0])
    if total > present:
        problem(f"{total - present} event row(s) are not named in the audit chain"
                " (inserted into the log restore replays)", None)
    return present


def _check_batch(store: RelationalStore, batch: list[Named], coverage: Coverage, bound: int,
                 problem: Problem) -> int:
    if not batch:
        return 0
    marks = ", ".join("?" for _ in batch)
    rows = store.query(f"SELECT {COLUMNS}, seq FROM events"  # noqa: S608
                       f" WHERE event_id IN ({marks})", tuple(n.event_id for n in batch))
    found = {str(r[0]): r for r in rows}
    present = 0
    for item in batch:
        owner = item.space.split("/", 1)[0]
        row = found.get(item.event_id)
        if row is None:
            if not coverage.gone_by_erasure(item):
                problem(f"event {item.event_id} (audit row {item.seq}) is missing from the"
                        " log and no erasure removed it (deleted)", owner)
            continue
        present += int(row[7]) <= bound
        if row_digest(row[:7]) != coverage.expected(item):
            problem(f"event {item.event_id} (audit row {item.seq}) differs from what the chain"
                    " recorded (edited, or moved to another space)", owner)
    return present


def has_event(store: RelationalStore, event_id: str) -> bool:
    return bool(store.query("SELECT 1 FROM events WHERE event_id = ?", (event_id,)))


def event_ids(store: RelationalStore, space: str) -> set[str]:
    return {str(r[0]) for r in store.query("SELECT event_id FROM events WHERE space = ?",
                                           (space,))}


def count(store: RelationalStore) -> int:
    return int(store.query("SELECT count(*) FROM events")[0][0])


def page_after(store: RelationalStore, space: str | None, after: int, page: int
               ) -> list[tuple[Any, ...]]:
    """Up to `page` events after `after` in the log's order (of one space, or of all):
    seq, event_id, space, kind, sealed payload, created_at, graph_seq."""
    return [tuple(r) for r in store.query(
        "SELECT seq, event_id, space, kind, payload, created_at, graph_seq FROM events"
        " WHERE seq > ? AND (CAST(? AS TEXT) IS NULL OR space = ?) ORDER BY seq LIMIT ?",
        (after, space, space, page))]
