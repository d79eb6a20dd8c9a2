"""The one builder of what a decision stores: a new Fact, and a Fact refined in place.

The in-batch state reconcile reasons about (`reconcile.apply_to_state`) and the graph write
(`write.Batch`) both build from here, so a later decision of the same batch sees exactly the
fact that is written: the same times, provenance and metadata. Pure: the write's instant
travels in `WriteInfo`, the fact id in the Decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from graphmem.model import Action, Decision, Fact, Proposal, Status


@dataclass(frozen=True)
class WriteInfo:
    """What is the same for every fact of one write; `space` is set by the transaction,
    from the space it writes to."""

    now: datetime
    space: str = ""
    source: str = ""
    source_ref: str = ""
    text: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    message_key: str | None = None
    message_id: str | None = None  # the id `text` is stored under, once for the write
    redacted: tuple[str, ...] = ()  # kinds redaction removed from the write


def recorded(p: Proposal, info: WriteInfo) -> datetime:
    """When memory learns the proposal: the write's instant, or the time a backfill gives."""
    return p.recorded_at or info.now


def source_of(p: Proposal, info: WriteInfo) -> str:
    """Who asserts the proposal: the write's source, unless a replayed fact names its own."""
    return info.source if p.source is None else p.source


def new_fact(p: Proposal, d: Decision, info: WriteInfo) -> Fact:
    """The fact `d` stores for `p`.

    A current fact is valid from the instant memory learns it (the write's, or the one a
    backfill gives) unless the proposal says otherwise; an archived (past-tense) fact was
    valid until then, or until the newer value a backdated one met (`d.valid_to`); a fact
    stored HISTORICAL (an archive or a tombstone) is retired as it is written.
    """
    assert d.fact_id is not None and d.status is not None
    archived = d.action == Action.ARCHIVE
    at = recorded(p, info)
    return Fact(
        id=d.fact_id, space=info.space, subject=d.subject, value=d.value, scope=d.scope,
        kind=d.kind, time_ref=p.time_ref, status=d.status, confidence=p.confidence,
        source=source_of(p, info),
        source_ref=info.source_ref if p.source_ref is None else p.source_ref,
        raw=p.raw or info.text,
        metadata=_metadata(p, d, info), category=d.category, head=p.head,
        relation=p.relation, tail=p.tail, cardinality=d.cardinality,
        proposed_action=d.proposed_action,
        valid_from=_valid_from(p, d, at),
        valid_to=d.valid_to or p.valid_to or (at if archived else None),
        recorded_at=at, retired_at=at if d.status == Status.HISTORICAL else None,
        supersedes=d.supersedes, retracts=d.retracts,
    )


def _valid_from(p: Proposal, d: Decision, at: datetime) -> datetime | None:
    """Since when the fact holds in the world: as the proposal says, else from when memory
    learns it; a past-tense fact archived as such began at an unknown time."""
    if p.valid_from is not None:
        return p.valid_from
    if d.action == Action.ARCHIVE and d.valid_to is None:
        return None
    return at


def _metadata(p: Proposal, d: Decision, info: WriteInfo) -> dict[str, Any]:
    """The caller's metadata (the call's, then the fact's own), the fact's kind, the
    extractor's reason and the gate's note."""
    metadata = {**info.metadata, **(p.metadata or {})}
    metadata["kind"] = d.kind.value
    if p.reason:
        metadata["reason"] = p.reason
    if d.note and d.note != p.reason:
        metadata["note"] = d.note
    return metadata


def revision(former_value: str | None, source: str, at: datetime) -> dict[str, Any]:
    """What a refined fact keeps of its former value."""
    return {"value": former_value, "at": at.isoformat(), "source": source}


def refined(former: Fact, d: Decision, p: Proposal, info: WriteInfo) -> Fact:
    """REFINE rewrites the value in place, takes the proposal's confidence and keeps the
    former value in the fact's revisions."""
    return replace(
        former, value=d.value, confidence=p.confidence,
        revisions=(*former.revisions,
                   revision(former.value, source_of(p, info), recorded(p, info))),
    )
