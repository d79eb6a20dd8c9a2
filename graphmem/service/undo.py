"""Undo at the service boundary: find the event (the graph's outbox entry while it is kept,
else the mirror's event log), check who may undo it, and run the undo as one write."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta

from graphmem import consistency
from graphmem.errors import AccessDenied, InvalidInput, NotFound
from graphmem.graph import undo as graph_undo
from graphmem.mirror.listings import event
from graphmem.model.audit import AuditCall
from graphmem.model.undo import UndoResult
from graphmem.remember.revert import UNDOABLE
from graphmem.remember.undo import UndoRequest, payload_of, undo_event
from graphmem.service.context import SpaceContext, now
from graphmem.service.writes import Writes

MAX_EVENT_ID = 64


class Undo:
    def __init__(self, ctx: SpaceContext, writes: Writes) -> None:
        self.ctx = ctx
        self.writes = writes

    def undo(self, call: AuditCall, event_id: str, force: bool = False) -> UndoResult:
        """Revert what one event did. An approver may undo any event of the space (and
        `force` one that later writes built on); a writer only its own, for
        GRAPHMEM_UNDO_WINDOW_SECONDS after it."""
        ctx = self.ctx
        ctx.require("write")
        if not isinstance(event_id, str) or not 0 < len(event_id) <= MAX_EVENT_ID:
            raise InvalidInput(f"event id must be 1-{MAX_EVENT_ID} characters")
        kind, payload, writer, at = self._event(event_id)
        if kind not in UNDOABLE:
            raise InvalidInput(f"event {event_id} is a {kind} event: only writes,"
                               " settlements and undos can be undone")
        self._allowed(event_id, writer, at, force)
        req = UndoRequest(event_id, kind, payload, force, ctx.caller.name, now())
        with consistency.tracking() as tracker:
            result = ctx.write(call, undo_event, req)
        self.writes.index(list(result.restored))
        token = tracker.token()
        return replace(result, consistency_token=token) if token else result

    def _event(self, event_id: str) -> tuple[str, dict[str, object], str | None,
                                             datetime | None]:
        """(kind, payload, writer, when) of an event of this space; the writer is known
        while the graph keeps the entry."""
        ctx = self.ctx
        row = graph_undo.event(ctx.graph, ctx.key, event_id)
        if row is not None:
            stub = json.loads(row["audit"]) if row["audit"] else {}
            return (str(row["kind"]), payload_of(row["payload"]), stub.get("caller"),
                    datetime.fromisoformat(row["created_at"]))
        found = event(ctx.runtime.store, ctx.runtime.mirror.cipher, ctx.key, event_id)
        if found is None:
            raise NotFound(f"no event {event_id!r} in this space")
        return found.kind, payload_of(found.payload), None, datetime.fromisoformat(
            found.created_at)

    def _allowed(self, event_id: str, writer: str | None, at: datetime | None,
                 force: bool) -> None:
        caller = self.ctx.caller
        if caller.can("approve"):
            return
        if force:
            raise AccessDenied("undoing with force needs the approve capability")
        window = timedelta(seconds=self.ctx.settings.undo_window_seconds)
        if writer != caller.name or at is None or now() - at > window:
            raise AccessDenied(f"undoing event {event_id} needs the approve capability: a"
                               " writer may undo only its own writes, within"
                               f" {int(window.total_seconds())} s (GRAPHMEM_UNDO_WINDOW_SECONDS)")
