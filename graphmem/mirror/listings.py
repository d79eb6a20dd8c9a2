"""Reads of the relational store for paged listings: how many audit rows a tenant has, one
row by its sequence number, and the events a space's change feed replays from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmem.mirror.audit import listing
from graphmem.mirror.crypto import FieldCipher
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.event_log import event_binding
from graphmem.model.audit import AuditRow

_COUNT = ("SELECT COUNT(*) FROM audit_log WHERE tenant = ?"
          " AND (CAST(? AS TEXT) IS NULL OR operation = ?)")
_EVENTS = ("SELECT event_id, kind, payload, created_at, graph_seq FROM events"
           " WHERE space = ? AND graph_seq IS NOT NULL"
           " AND (graph_seq > ? OR (graph_seq = ? AND event_id >= ?))"
           " ORDER BY graph_seq, event_id LIMIT ?")


def audit_count(store: RelationalStore, tenant: str, operation: str | None = None) -> int:
    """The tenant's audit rows (of one operation, when given)."""
    return int(store.query(_COUNT, (tenant, operation, operation))[0][0])


def audit_row(store: RelationalStore, tenant: str, seq: int) -> AuditRow | None:
    """The tenant's audit row `seq`, None when there is none (or another tenant's)."""
    rows = listing(store, tenant, 1, seq + 1)
    return rows[0] if rows and rows[0].seq == seq else None


@dataclass(frozen=True)
class Event:
    """An applied outbox entry as the mirror keeps it (payload opened)."""

    id: str
    kind: str
    payload: str
    created_at: str
    seq: int


def event(store: RelationalStore, cipher: FieldCipher, space: str, event_id: str
          ) -> Event | None:
    """One applied event of a space by id (payload opened), None when the mirror has none."""
    rows = store.query("SELECT event_id, kind, payload, created_at, graph_seq FROM events"
                       " WHERE event_id = ? AND space = ?", (event_id, space))
    if not rows:
        return None
    r = rows[0]
    return Event(str(r[0]), str(r[1]),
                 cipher.open(r[2], event_binding(str(r[0]), space, str(r[1]))) or "{}",
                 str(r[3]), int(r[4] or 0))


def events_from(store: RelationalStore, cipher: FieldCipher, space: str, seq: int,
                 event_id: str, limit: int) -> list[Event]:
    """A space's applied events from (seq, event id) on, that one included, in the graph's
    commit order: what the change feed replays once the graph's copies are pruned. An
    erasure rewrote (or, for a whole space, removed) the events that held what it erased."""
    rows = store.query(_EVENTS, (space, seq, seq, event_id, limit))
    return [Event(str(r[0]), str(r[1]),
                  cipher.open(r[2], event_binding(str(r[0]), space, str(r[1]))) or "{}",
                  str(r[3]), int(r[4]))
            for r in rows]


def fact_spaces(store: RelationalStore, prefix: str = "") -> list[str]:
    """The spaces whose key starts with `prefix` that hold a mirrored fact."""
    rows = store.query("SELECT DISTINCT space FROM mirror_facts WHERE substr(space, 1, ?) = ?",
                       (len(prefix), prefix))
    return [str(r[0]) for r in rows]


def fact_rows(store: RelationalStore, space: str) -> list[tuple[Any, ...]]:
    """Each mirrored fact of the space: id, status, scope, subject, sealed value."""
    return [tuple(r) for r in store.query(
        "SELECT id, status, scope, subject, value FROM mirror_facts WHERE space = ?",
        (space,))]
