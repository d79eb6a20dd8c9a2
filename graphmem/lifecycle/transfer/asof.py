"""An export as of an instant: each record as memory held it then (pure, on records).

A fact recorded after the instant is left out; one retired after it is as it was before
(ACTIVE if memory held it, else a FLAGGED_CONFLICT proposal, with no end to its validity);
refinements, links and undos made after it are taken back (the validity an undo emptied
stays empty: the graph keeps when the fact was undone, not its validity before); conflicts
opened after it are left out and those closed after it are open again; entities and
decisions made after it are left out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.lifecycle.transfer.records import LINKS, when


def _after(value: Any, at: datetime) -> bool:
    instant = when(value)
    return instant is not None and instant > at


def fact(record: dict[str, Any], at: datetime) -> dict[str, Any] | None:
    if _after(record.get("recorded_at"), at):
        return None
    out = dict(record)
    for kind in LINKS:
        out[kind] = [link for link in record.get(kind) or () if not _after(link["at"], at)]
    if _after(record.get("undone_at"), at):
        out.update(undone_by=None, undone_at=None)
    _unrefine(out, at)
    if _after(record.get("retired_at"), at):
        held = record.get("held_from") is not None and not _after(record["held_from"], at)
        out.update(retired_at=None, valid_to=None,
                   status="ACTIVE" if held else "FLAGGED_CONFLICT")
        if not held:
            out.update(held_from=None, coexist=None)
    elif _after(record.get("held_from"), at):
        out.update(held_from=None, coexist=None, status="FLAGGED_CONFLICT")
    return out


def _unrefine(out: dict[str, Any], at: datetime) -> None:
    """Revisions made after the instant undone: the first of them holds the value then."""
    kept: list[dict[str, Any]] = []
    later: list[dict[str, Any]] = []
    for revision in out["revisions"]:
        (later if _after(revision.get("at"), at) else kept).append(revision)
    if later:
        out["value"] = later[0].get("value", out["value"])
        out["revisions"] = kept
        out["refined_at"] = kept[-1].get("at") if kept else None


def conflict(record: dict[str, Any], at: datetime) -> dict[str, Any] | None:
    if _after(record.get("created_at"), at):
        return None
    if _after(record.get("closed_at"), at):
        return {**record, "status": "open", "winner": None, "closed_at": None}
    return record


def made_by(record: dict[str, Any], at: datetime, field: str = "created_at") -> bool:
    return not _after(record.get(field), at)
