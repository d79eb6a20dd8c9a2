"""Applies a batch of reconcile decisions to the graph inside the caller's transaction.

Each kind of change is one `UNWIND $rows` statement, so a batch of a thousand facts costs
the same handful of round trips as a single fact. Order matters: facts are created before
anything points at them, refined before a later decision in the batch retires them.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph import projection
from graphmem.graph import remember as graph_remember
from graphmem.graph.facts import fact_to_row
from graphmem.graph.outbox import Outbox
from graphmem.model import Action, ConflictKind, Decision, Fact, Proposal, Status, value_key
from graphmem.recall.text import fact_text
from graphmem.remember.approve import Plan, tombstone_value
from graphmem.remember.new_fact import WriteInfo, new_fact, recorded, refined, revision

_ID_BYTES = 6
_IDS_PER_DRAW = 512


class _IdPool(threading.local):
    """Random bytes for ids, drawn from the OS's CSPRNG 512 ids at a time per thread, so a
    batch of a thousand facts makes two system calls rather than a thousand."""

    def __init__(self) -> None:
        self.data = b""
        self.at = 0

    def take(self) -> bytes:
        if self.at + _ID_BYTES > len(self.data):
            self.data, self.at = os.urandom(_ID_BYTES * _IDS_PER_DRAW), 0
        self.at += _ID_BYTES
        return self.data[self.at - _ID_BYTES:self.at]


_POOL = _IdPool()


def new_id(prefix: str = "") -> str:
    """A random id: 48 bits, as hex, after `prefix`."""
    return prefix + _POOL.take().hex()


SEVERITY = {
    ConflictKind.PENDING: "high", ConflictKind.POLICY: "medium",
    ConflictKind.AMBIGUITY: "medium", ConflictKind.UNCERTAINTY: "medium",
    ConflictKind.LOW_CONFIDENCE: "low", ConflictKind.FUTURE: "low",
}


@dataclass
class Batch:
    """The graph changes of one write, accumulated decision by decision."""

    facts: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[dict[str, Any]] = field(default_factory=list)
    retracts: list[dict[str, Any]] = field(default_factory=list)
    refines: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)

    def add(self, p: Proposal, d: Decision, info: WriteInfo, before: dict[str, Fact]) -> None:
        at = recorded(p, info)
        valid_from = p.valid_from or at
        stamp = _stamp(p)
        if d.stores_fact:
            row = _fact_row(p, d, info)
            self.facts.append(row)
            if row.get("message_id") and not self.messages:  # one write, one message
                self.messages.append({"message_id": info.message_id, "text": info.text})
        for old in d.supersedes:
            self.supersedes.append({"new": d.fact_id, "old": old, "valid_to": valid_from,
                                    **stamp})
        for old in d.retracts:
            self.retracts.append({"new": d.fact_id, "old": old, "valid_to": valid_from,
                                  **stamp})
        if d.refines is not None:
            self.refines.append({**_refine_row(refined(before[d.refines], d, p, info)),
                                 **stamp})
        if d.conflict_kind is not None and d.fact_id is not None:
            self._conflict(d, stamp)

    def _conflict(self, d: Decision, stamp: dict[str, datetime] | None = None) -> None:
        """One conflict per (slot, kind) per write: later flags of the batch join it."""
        assert d.conflict_kind is not None and d.fact_id is not None
        for row in self.conflicts:
            if (row["subject"], row["scope"], row["kind"]) == (
                    d.subject, d.scope, d.conflict_kind.value):
                row["flagged"].append(d.fact_id)
                row["fact_ids"] = list(dict.fromkeys(
                    [*row["fact_ids"], d.fact_id, *d.conflict_with]))
                return
        self.conflicts.append({
            "id": new_id("c"), "subject": d.subject, "scope": d.scope,
            "kind": d.conflict_kind.value, "severity": SEVERITY[d.conflict_kind],
            "note": d.note, "flagged": [d.fact_id], "fact_ids": [d.fact_id, *d.conflict_with],
            **(stamp or {}),
        })

    def apply(self, tx: ManagedTransaction, space: str, now: datetime,
              outbox: Outbox | None = None, event: str | None = None) -> dict[str, str]:
        """Write everything, with the batch's outbox entries (drafted by `outbox`); returns
        fact id → conflict id for the flagged facts. The facts it records, holds, retires or
        refines are stamped with the event that did it: `event`, else the batch's own
        entry."""
        event = event or (str(self.outbox[0]["id"]) if self.outbox else None)
        applied = graph_remember.apply(
            tx, space, now, event, messages=self.messages,
            facts=[_stamped(row, now) for row in self.facts], refines=self.refines,
            statuses=self.statuses, supersedes=[_edge(e, now) for e in self.supersedes],
            retracts=[_edge(e, now) for e in self.retracts], outbox=self.outbox,
            synced=projection.changed(self))
        if applied is not None and outbox is not None:
            outbox.written(self.outbox, now, applied["seq"])
        projection.project(tx, space, now, self.facts)
        if not self.conflicts:
            return {}
        rows = graph_remember.open_conflicts(tx, space, now, self.conflicts)
        found = {fact_id: r["conflict_id"] for r in rows for fact_id in r["flagged"]}
        joined = {row["id"]: found[row["flagged"][0]] for row in self.conflicts
                  if found.get(row["flagged"][0], row["id"]) != row["id"]}
        if joined and outbox is not None:
            outbox.relabel(tx, joined)
        return found


_STAMPS = ("recorded_at", "held_from", "valid_from", "valid_to", "retired_at")


def _stamp(p: Proposal) -> dict[str, datetime]:
    """The instant a backfilled proposal's changes happen at (`at`); an ordinary write's
    changes happen at the write's own instant, which the statements take as $now."""
    return {} if p.recorded_at is None else {"at": p.recorded_at}


def _stamped(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Split a fact row into its properties and the times that are the write's instant."""
    stamped = {k: True for k in _STAMPS if row.get(k) is now}
    props = dict(row)
    for key in stamped:
        del props[key]
    return {"props": props, "stamped": stamped}


def _edge(edge: dict[str, Any], now: datetime) -> dict[str, Any]:
    return {**edge, "valid_to": None} if edge.get("valid_to") is now else edge


def _fact_row(p: Proposal, d: Decision, info: WriteInfo) -> dict[str, Any]:
    """The node `new_fact` describes, with the properties only the graph keeps."""
    extra: dict[str, Any] = {"action": d.action.value, "archived": d.action == Action.ARCHIVE}
    extra.update(head_type=p.head_type, tail_type=p.tail_type)
    extra["search_text"] = fact_text(d.subject, d.value, d.scope)
    if d.status == Status.ACTIVE:
        extra["held_from"] = recorded(p, info)
    if info.message_key:
        extra["message_key"] = info.message_key
    row = fact_to_row(new_fact(p, d, info), **extra)
    if info.message_id and info.text and not p.raw:  # the write's text: stored once
        row.update(raw=None, message_id=info.message_id)
    return row


def _refine_row(fact: Fact) -> dict[str, Any]:
    """The in-place change `refined` describes: value, confidence and the newest revision."""
    return {"id": fact.id, "value": fact.value, "value_key": value_key(fact.value),
            "search_text": fact_text(fact.subject, fact.value, fact.scope),
            "confidence": fact.confidence,
            "revision": json.dumps(fact.revisions[-1], sort_keys=True)}


def apply_plan(tx: ManagedTransaction, space: str, plan: Plan, now: datetime,
               source: str, event: str | None = None) -> Batch:
    """Apply an approval plan, stamped with `event` (the settle event that carries it to
    the mirror); returns the batch applied."""
    batch = Batch()
    if plan.tombstone_for is not None:
        target = plan.tombstone_for
        tomb_id = new_id("f")
        tomb = Fact(id=tomb_id, space=space, subject=target.subject, scope=target.scope,
                    value=tombstone_value(target), status=Status.HISTORICAL, source=source,
                    confidence=1.0, category=target.category, recorded_at=now, retired_at=now,
                    cardinality=target.cardinality)
        batch.facts.append(fact_to_row(tomb, action="RETRACT"))
        batch.retracts.append({"new": tomb_id, "old": target.id, "valid_to": now})
    if plan.refine is not None:
        fact, value = plan.refine
        former = revision(fact.value, source, now)
        batch.refines.append(_refine_row(replace(fact, value=value,
                                                 revisions=(*fact.revisions, former))))
    batch.statuses = plan.statuses
    batch.supersedes = [{"new": new, "old": old, "valid_to": now}
                        for new, old in plan.supersedes]
    batch.apply(tx, space, now, event=event)
    return batch
