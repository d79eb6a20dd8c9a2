"""What subscribers are told, derived from the durable change log (the outbox entries every
write commits with its graph change), so every writer is heard: GraphQL on any worker, the
Python API, the CLI, another process.

One entry gives zero or more events, each keyed `(seq, entry id, index)`: the space's commit
order, then the event's place in its entry. A cursor is that key, so a client that
reconnects `after:` it misses nothing and sees nothing twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.graph.outbox import OutboxEntry
from graphmem.model import Action, ConflictKind

FACT_CHANGED = "factChanged"
CONFLICT_OPENED = "conflictOpened"
CONFLICT_CLOSED = "conflictClosed"
PENDING_CHANGED = "pendingChanged"
CHANNELS = frozenset({FACT_CHANGED, CONFLICT_OPENED, CONFLICT_CLOSED, PENDING_CHANGED})
_UNCHANGED = frozenset({Action.DEDUP.value, Action.SKIP.value})
EventKey = tuple[int, str, int]
END = 10**9  # an index after every event of an entry: (seq, id, END) is "after that entry"


@dataclass(frozen=True)
class Change:
    """One event of a space. `change` says what happened (remembered, retracted, confirmed,
    rejected, resolved, dismissed, proposed, erased); fields a channel does not use are
    None."""

    channel: str
    key: EventKey
    space: str
    change: str
    message: str
    at: datetime
    fact_id: str | None = None
    subject: str | None = None
    value: str | None = None
    action: str | None = None
    conflict_id: str | None = None
    kind: str | None = None
    status: str | None = None
    winner: str | None = None
    note: str | None = None
    by: str | None = None
    fact_ids: tuple[str, ...] = field(default_factory=tuple)


def events(entry: OutboxEntry) -> list[Change]:
    """The events of one entry, in order, each with its key."""
    try:
        payload = json.loads(entry.payload)
    except ValueError:
        return []
    if not isinstance(payload, dict):
        return []
    drafts = _drafts(entry.kind, payload)
    seq = entry.seq or 0
    return [Change(channel, (seq, entry.id, index), entry.space, change, message,
                   entry.created_at, **fields)
            for index, (channel, change, message, fields) in enumerate(drafts)]


Draft = tuple[str, str, str, dict[str, Any]]


def _drafts(kind: str, payload: dict[str, Any]) -> list[Draft]:
    if kind == "remember":
        return _remembered(payload)
    if kind == "settle":
        return _settled(payload)
    if kind == "erase":
        return _erased(payload)
    if kind == "undo":
        return _undone(payload)
    return []


def _remembered(payload: dict[str, Any]) -> list[Draft]:
    found: list[Draft] = []
    results = [r for r in payload.get("results", []) if isinstance(r, dict)]
    values = {r.get("fact_id"): r for r in results if r.get("fact_id")}
    for r in results:
        if r.get("action") in _UNCHANGED:
            continue
        change = "retracted" if r.get("action") == Action.RETRACT.value else "remembered"
        message = str(r.get("message") or f"Stored: [{r.get('action')}] {r.get('subject')} ="
                                           f" {r.get('value')}")
        found.append((FACT_CHANGED, change, message, {
            "fact_id": r.get("fact_id"), "subject": r.get("subject"), "value": r.get("value"),
            "action": r.get("action")}))
    for c in payload.get("conflicts", []):
        flagged = [f for f in c.get("flagged", []) if isinstance(f, str)]
        first = values.get(flagged[0], {}) if flagged else {}
        fields = {"conflict_id": c.get("id"), "kind": c.get("kind"),
                  "fact_id": flagged[0] if flagged else None,
                  "subject": first.get("subject") or c.get("subject"),
                  "value": first.get("value"), "fact_ids": tuple(c.get("fact_ids", ()))}
        message = str(first.get("message") or f"conflict {c.get('id')} opened")
        found.append((CONFLICT_OPENED, "opened", message, fields))
        if c.get("kind") == ConflictKind.PENDING.value:
            found.append((PENDING_CHANGED, "proposed", message, fields))
    return found


def _settled(payload: dict[str, Any]) -> list[Draft]:
    close = payload.get("close") or {}
    mode = str(payload.get("mode") or close.get("note") or "settled")
    change = {"confirm": "confirmed", "reject": "rejected", "resolve": "resolved",
              "dismiss": "dismissed"}.get(mode, str(close.get("status") or "settled"))
    found: list[Draft] = []
    for batch in payload.get("batches", []):
        for row in batch.get("facts", []):
            found.append((FACT_CHANGED, change, f"{change}: {row.get('subject')} ="
                                                f" {row.get('value')}", {
                "fact_id": row.get("id"), "subject": row.get("subject"),
                "value": row.get("value"), "action": row.get("action")}))
        for row in batch.get("statuses", []):
            found.append((FACT_CHANGED, change, f"{change}: fact {row.get('id')} is now"
                                                f" {row.get('status')}",
                          {"fact_id": row.get("id")}))
        for edge in batch.get("supersedes", []):
            found.append((FACT_CHANGED, change, f"{change}: fact {edge.get('old')} superseded"
                                                f" by {edge.get('new')}",
                          {"fact_id": edge.get("old")}))
    touched = tuple(str(row.get("id")) for batch in payload.get("batches", [])
                    for row in batch.get("statuses", []))
    return found + _review(payload, close, mode, change, touched)


def _review(payload: dict[str, Any], close: dict[str, Any], mode: str, change: str,
            touched: tuple[str, ...]) -> list[Draft]:
    """The conflict's side of a settlement: closed, or (a confirm or reject of one of its
    proposals while others still wait) left open, which only the pending channel hears."""
    conflict_id = close.get("id") or payload.get("conflict")
    conflict = {"conflict_id": conflict_id, "kind": payload.get("kind"),
                "status": close.get("status") or "open", "winner": close.get("winner"),
                "note": close.get("note"), "by": close.get("by"),
                "fact_id": close.get("winner") or (touched[0] if touched else None),
                "fact_ids": touched}
    found: list[Draft] = []
    if close:
        message = f"Conflict {conflict_id} {close.get('status')}: {mode}"
        found.append((CONFLICT_CLOSED, change, message, conflict))
    else:
        message = f"Conflict {conflict_id} open: {mode}, other proposals still wait"
    if payload.get("kind") == ConflictKind.PENDING.value:
        found.append((PENDING_CHANGED, change, message, conflict))
    return found


def _undone(payload: dict[str, Any]) -> list[Draft]:
    """An undo: each fact it voided or restored, the conflicts it closed, and the proposals
    it put back to wait."""
    undoes = str(payload.get("undoes") or "")
    found: list[Draft] = []
    for batch in payload.get("batches", []):
        for row in batch.get("statuses", []):
            found.append((FACT_CHANGED, "undone", f"undone: fact {row.get('id')} is now"
                                                  f" {row.get('status')} (event {undoes})",
                          {"fact_id": row.get("id"), "status": row.get("status")}))
        for row in batch.get("facts", []):
            found.append((FACT_CHANGED, "restored", f"restored: {row.get('subject')} ="
                                                    f" {row.get('value')} (event {undoes})", {
                "fact_id": row.get("id"), "subject": row.get("subject"),
                "value": row.get("value"), "status": row.get("status")}))
        for row in batch.get("refines", []):
            found.append((FACT_CHANGED, "undone", f"undone: fact {row.get('id')} refined back"
                                                  f" to {row.get('value')} (event {undoes})",
                          {"fact_id": row.get("id"), "value": row.get("value")}))
        for c in batch.get("conflicts", []):
            fields = {"conflict_id": c.get("id"), "kind": c.get("kind"),
                      "fact_id": (c.get("flagged") or [None])[0], "subject": c.get("subject"),
                      "fact_ids": tuple(c.get("fact_ids", ()))}
            message = f"conflict {c.get('id')} opened again (event {undoes} undone)"
            found.append((CONFLICT_OPENED, "opened", message, fields))
            if c.get("kind") == ConflictKind.PENDING.value:
                found.append((PENDING_CHANGED, "proposed", message, fields))
    for close in payload.get("close", []):
        conflict = {"conflict_id": close.get("id"), "status": "dismissed",
                    "note": close.get("note"), "by": close.get("by")}
        message = f"Conflict {close.get('id')} dismissed: {close.get('note')}"
        found.append((CONFLICT_CLOSED, "undone", message, conflict))
        found.append((PENDING_CHANGED, "undone", message, conflict))
    return found


def _erased(payload: dict[str, Any]) -> list[Draft]:
    ids = tuple(str(i) for i in payload.get("facts", []))
    message = f"erased {len(ids)} fact(s)" + (" (the whole space)" if payload.get("all") else "")
    found: list[Draft] = [(FACT_CHANGED, "erased", message, {"fact_ids": ids})]
    for conflict_id in payload.get("conflicts", []):
        found.append((CONFLICT_CLOSED, "erased", f"conflict {conflict_id} erased",
                      {"conflict_id": conflict_id, "status": "erased"}))
    found.append((PENDING_CHANGED, "erased", message, {"fact_ids": ids}))
    return found
