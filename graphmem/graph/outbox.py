"""The graph half of the outbox: entries committed with the graph changes they describe.

Every graph write commits `(:Outbox {id, space, kind, payload, seq, done: false, audit})` in
its own transaction; `seq` is the space's write counter, taken under the space lock, so it
orders one space's entries as their transactions committed. The relational mirror reads
pending entries in that order (`pending`), applies them once (see `graphmem.mirror.apply`)
and marks them done here (`mark_done`); applied entries are pruned after a while.

An entry committed by an audited call carries that call's audit row (`audit`: who, which
operation, when), so the row survives a crash after the graph commit and whoever applies the
entry appends it to the chain exactly once.

Payloads are the graph batches themselves (`graphmem.remember.write.Batch` lists: facts,
refines, statuses, supersedes, retracts, conflicts), so the event log replays through the
write path's own statements. Kinds: `remember` (one batch), `settle` (approval or conflict
settlement: a list of batches and the conflict it closes), `policy`, `entity`
(create_entity), `sweep` (placeholders attached), `rebuild` (the projection rebuilt),
`import` (a restored batch of an export: its facts and links as a batch, with the entities,
conflicts and space properties restored beside them), `undo` (the inverse of an earlier
event as a batch, with the facts it voided and the copies that restore values) and `erase`
(hard deletion, ids only).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction
from neo4j.time import DateTime as NeoDateTime

from graphmem.graph.driver import GraphDriver, run
from graphmem.graph.rows import read_one

TIME_KEYS = frozenset({"recorded_at", "held_from", "valid_from", "valid_to", "retired_at",
                       "refined_at", "at"})
ID_KEYS = ("id", "fact_id", "new", "old")
_REF_KEYS = frozenset({*ID_KEYS, "fact_ids", "flagged"})


@dataclass(frozen=True)
class OutboxEntry:
    id: str
    space: str
    kind: str
    payload: str
    created_at: datetime
    seq: int | None
    audit: str | None = None

    @property
    def now(self) -> str:
        return self.created_at.isoformat()


@dataclass
class Outbox:
    """The entries one attempt of a write transaction commits in one space, each with the
    audited call's row (`audit`, None outside an audited call). A retried transaction starts
    from a new Outbox, so `entries` is what the committed attempt wrote."""

    space: str
    audit: str | None = None
    entries: list[OutboxEntry] = field(default_factory=list)

    def record(self, tx: ManagedTransaction, kind: str, payload: dict[str, Any],
               now: datetime, event_id: str | None = None) -> str:
        """Add an entry in `tx`, which must hold the space's lock (`event_id`: the id the
        changes it describes were already stamped with)."""
        entry = self.draft(kind, encode(payload), event_id)
        rows = run(tx, "outbox/add", space=self.space, now=now, **entry)
        if rows:
            self.written([entry], now, rows[0]["seq"])
        return str(entry["id"])

    def draft(self, kind: str, payload: str, event_id: str | None = None) -> dict[str, Any]:
        """An entry's properties, for a statement that writes it along with its changes."""
        return {"id": event_id or new_event_id(), "kind": kind, "payload": payload,
                "audit": self.audit}

    def relabel(self, tx: ManagedTransaction, joined: dict[str, str]) -> None:
        """The conflicts a write drafted but joined (an open conflict of the same slot and
        kind was there) take the joined conflict's id in this write's entries."""
        for index, entry in enumerate(self.entries):
            payload = json.loads(entry.payload)
            rows = payload.get("conflicts")
            if not isinstance(rows, list) or not any(r.get("id") in joined for r in rows):
                continue
            for row in rows:
                if row.get("id") in joined:
                    row["id"], row["joined"] = joined[row["id"]], True
            text = encode(payload)
            run(tx, "outbox/set_payload", id=entry.id, payload=text)
            self.entries[index] = replace(entry, payload=text)

    def written(self, drafts: Sequence[dict[str, Any]], now: datetime, seq: int | None) -> None:
        """Entries a statement wrote (remember/apply writes its own)."""
        self.entries.extend(
            OutboxEntry(str(d["id"]), self.space, str(d["kind"]), str(d["payload"]), now, seq,
                        d.get("audit")) for d in drafts)


# ---- payloads -------------------------------------------------------------------------------
def _json_default(value: Any) -> Any:
    if isinstance(value, NeoDateTime):
        return value.to_native().isoformat()
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, default=_json_default, sort_keys=True)


def new_event_id() -> str:
    return "e" + secrets.token_hex(6)


def batch_payload(batch: Any) -> dict[str, Any]:
    """A write Batch's lists as an event payload (its own outbox entries excluded)."""
    return {f.name: getattr(batch, f.name) for f in fields(batch) if f.name != "outbox"}


def revive_times(row: dict[str, Any]) -> dict[str, Any]:
    """JSON carried times as ISO strings; the graph stores them as datetimes."""
    return {k: datetime.fromisoformat(v) if k in TIME_KEYS and isinstance(v, str) else v
            for k, v in row.items()}


def batches(kind: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The write batches an event carries, in the order they were applied."""
    if kind == "remember":
        return [payload]
    if kind in ("settle", "undo"):
        return list(payload.get("batches", []))
    if kind == "import" and isinstance(payload.get("batch"), dict):
        return [payload["batch"]]
    return []


def referenced_ids(payload: Any) -> set[str]:
    """Every fact (and conflict) id an event mentions, for finding it again on erasure."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in _REF_KEYS and isinstance(value, str):
                found.add(value)
            elif key in _REF_KEYS and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            else:
                found |= referenced_ids(value)
    elif isinstance(payload, list):
        for item in payload:
            found |= referenced_ids(item)
    return found


def _belongs(item: dict[str, Any], ids: frozenset[str]) -> bool:
    return any(item.get(key) in ids for key in ID_KEYS)


def scrub(payload: Any, ids: frozenset[str]) -> Any:
    """The payload without anything about the erased facts: their rows, edges, refines, status
    changes and results go, and the text of the write they were stored from; a conflict
    keeps only its remaining facts, or goes."""
    if isinstance(payload, dict):
        out = {k: scrub(v, ids) for k, v in payload.items()}
        for key in ("fact_ids", "flagged"):
            if isinstance(out.get(key), list):
                out[key] = [v for v in out[key] if v not in ids]
        gone = _erased_messages(payload, ids)
        if gone and isinstance(out.get("messages"), list):
            out["messages"] = [m for m in out["messages"]
                               if not (isinstance(m, dict) and m.get("message_id") in gone)]
        return out
    if isinstance(payload, list):
        return [kept for item in payload if (kept := _scrub_item(item, ids)) is not _GONE]
    return payload


_GONE = object()


def _erased_messages(payload: dict[str, Any], ids: frozenset[str]) -> set[str]:
    """The messages (a write's text) that erased fact rows of this batch were stored from."""
    rows = payload.get("facts")
    if not isinstance(rows, list):
        return set()
    return {str(row["message_id"]) for row in rows
            if isinstance(row, dict) and row.get("message_id") and _belongs(row, ids)}


def _scrub_item(item: Any, ids: frozenset[str]) -> Any:
    if isinstance(item, str) and item in ids:
        return _GONE
    if not isinstance(item, dict):
        return item
    if "fact_ids" in item:
        item = scrub(item, ids)
        return item if item["fact_ids"] else _GONE
    return _GONE if _belongs(item, ids) else scrub(item, ids)


# ---- reading, claiming, marking, pruning ---------------------------------------------------
def as_datetime(value: Any) -> datetime:
    if isinstance(value, NeoDateTime):
        return value.to_native()
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def pending(graph: GraphDriver, store: str, limit: int, spaces: Sequence[str] | None = None
            ) -> list[OutboxEntry]:
    """What waits for `store`'s mirror, in order (see cypher/outbox/pending.cypher)."""
    rows = graph.read("outbox/pending", store=store, limit=limit,
                      spaces=None if spaces is None else list(spaces))
    return [OutboxEntry(r["id"], r["space"], r["kind"], r["payload"],
                        as_datetime(r["created_at"]), r["seq"], r["audit"]) for r in rows]


def claim(graph: GraphDriver, space: str, store: str) -> str:
    """Claim a space for `store` unless another store did; returns the claiming store."""
    rows = graph.write("outbox/claim_space", space=space, store=store, now=datetime.now(UTC))
    return str(rows[0]["store"])


def claim_stale(graph: GraphDriver, store: str, holder: str, lease_seconds: float,
                limit: int = 1000) -> list[str]:
    """The spaces whose entries waited past the lease, claimed for `holder`'s sweep for as
    long again (see cypher/outbox/claim_stale.cypher)."""
    now = datetime.now(UTC)
    lease = timedelta(seconds=lease_seconds)
    rows = graph.write("outbox/claim_stale", store=store, holder=holder, now=now,
                       stale=now - lease, until=now + lease, limit=limit)
    return [str(r["space"]) for r in rows]


def mark_done(graph: GraphDriver, ids: Sequence[str]) -> None:
    graph.write("outbox/mark_done", ids=list(ids), now=datetime.now(UTC))


def prune(graph: GraphDriver, keep_seconds: int, limit: int = 1000,
          spaces: Sequence[str] | None = None) -> int:
    """Applied entries older than `keep_seconds` leave the graph, in `spaces` only when given
    (a maintenance job of one space must not take other spaces' entries with it)."""
    before = datetime.now(UTC) - timedelta(seconds=keep_seconds)
    rows = graph.write("outbox/prune", before=before, limit=limit,
                       spaces=None if spaces is None else list(spaces))
    return int(rows[0]["pruned"])


def pending_count(graph: GraphDriver, space: str | None = None
                  ) -> tuple[int, datetime | None]:
    row = graph.read("outbox/pending_count", space=space)[0]
    return int(row["pending"]), as_datetime(row["oldest"]) if row["oldest"] is not None else None


def done_ids(graph: GraphDriver, space: str) -> set[str]:
    return {r["id"] for r in graph.read("outbox/done_ids", space=space)}


# ---- the change feed: entries in commit order, after a position ----------------------------
MAX_ID = "\uffff"  # above every entry id: (seq, MAX_ID) is after every entry of seq
Position = tuple[int, str]  # (seq, id) of an entry, or (seq, MAX_ID): after all of seq


@dataclass(frozen=True)
class Followed:
    """One followed space at a poll: where its outbox ends (for a tail not placed yet) and
    the entries after the tail's position."""

    space: str
    head: Position | None
    entries: list[OutboxEntry]


def _entry(row: dict[str, Any]) -> OutboxEntry:
    return OutboxEntry(row["id"], row["space"], row["kind"], row["payload"],
                       as_datetime(row["created_at"]), row["seq"])


def follow(graph: GraphDriver, tails: Sequence[tuple[str, int | None, str]], limit: int
           ) -> list[Followed]:
    """For each (space, seq, id) position (seq None: not placed yet: where the outbox ends,
    see cypher/fragments/outbox_head.cypher), up to `limit` entries committed after it: one
    statement for every space a process follows."""
    rows = read_one(graph, "outbox/follow", limit=limit, max_id=MAX_ID, tails=[
        {"space": space, "seq": seq, "id": ident} for space, seq, ident in tails])
    return [Followed(r["space"], _position(r["head"]), [_entry(e) for e in r["entries"]])
            for r in rows]


def _position(head: list[Any] | None) -> Position | None:
    return (int(head[0]), str(head[1])) if head is not None else None


def since(graph: GraphDriver, space: str, seq: int, ident: str, limit: int
          ) -> tuple[int, list[OutboxEntry]]:
    """(the floor below which applied entries left the graph, up to `limit` entries from
    (seq, id) on, that one included, in commit order)."""
    row = read_one(graph, "outbox/since", space=space, seq=seq, id=ident, limit=limit)[0]
    return int(row["floor"]), [_entry(e) for e in row["entries"]]


def since_time(graph: GraphDriver, space: str, at: datetime, limit: int
               ) -> tuple[Position, list[OutboxEntry]]:
    """(where the outbox ends, up to `limit` entries up to there created at or after `at`):
    where a subscriber that names no cursor starts."""
    row = read_one(graph, "outbox/since_time", space=space, at=at, limit=limit, max_id=MAX_ID)[0]
    head = _position(row["head"])
    assert head is not None
    return head, [_entry(e) for e in row["entries"]]
