"""Mapping between Fact objects and Fact node properties.

Neo4j properties cannot hold maps, so metadata and revisions travel as JSON strings; times
are timezone-aware datetimes, which the driver stores as Neo4j DateTime.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from neo4j.time import DateTime as NeoDateTime

from graphmem.model import Action, Cardinality, Fact, Kind, Status, TimeRef, value_key


def as_time(value: Any) -> datetime | None:
    """A stored time as a datetime: reads send ISO strings (cheap to parse), older
    statements and writes' own rows send driver DateTimes."""
    if value is None:
        return None
    if isinstance(value, str):
        return datetime.fromisoformat(value)
    if isinstance(value, NeoDateTime):
        return value.to_native()
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def fact_to_row(fact: Fact, **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": fact.id, "space": fact.space, "subject": fact.subject, "scope": fact.scope,
        "value": fact.value, "value_key": value_key(fact.value), "kind": fact.kind.value,
        "time_ref": fact.time_ref.value, "status": fact.status.value,
        "confidence": fact.confidence, "source": fact.source, "source_ref": fact.source_ref,
        "raw": fact.raw,
        "metadata": json.dumps(fact.metadata, sort_keys=True) if fact.metadata else "{}",
        "category": fact.category, "head": fact.head, "relation": fact.relation,
        "tail": fact.tail, "cardinality": fact.cardinality.value,
        "proposed_action": fact.proposed_action.value if fact.proposed_action else None,
        "valid_from": fact.valid_from, "valid_to": fact.valid_to,
        "recorded_at": fact.recorded_at, "retired_at": fact.retired_at,
        "revisions": [json.dumps(r, sort_keys=True, default=str) for r in fact.revisions],
    }
    row.update(extra)
    return {k: v for k, v in row.items() if v is not None}


def _or(row: dict[str, Any], key: str, default: str) -> Any:
    """The stored value, or the default when the property is missing: explicit column
    lists return a missing property as null, `{.*}` leaves it out."""
    value = row.get(key)
    return default if value is None else value


# Enum members by stored value: a dict lookup, where calling the enum costs a Python call.
_KINDS, _TIME_REFS = Kind._value2member_map_, TimeRef._value2member_map_
_STATUSES, _CARDINALITIES = Status._value2member_map_, Cardinality._value2member_map_


def row_to_fact(row: dict[str, Any]) -> Fact:
    """A fact from its row (every read of facts passes here, a page of them at a time)."""
    get = row.get
    proposed = get("proposed_action")
    metadata = get("metadata")
    revisions = get("revisions")
    return Fact(
        id=row["id"], space=row["space"], subject=row["subject"], value=row["value"],
        scope=_or(row, "scope", "global"), kind=_member(_KINDS, Kind, _or(row, "kind", "state")),
        time_ref=_member(_TIME_REFS, TimeRef, _or(row, "time_ref", "current")),
        status=_member(_STATUSES, Status, row["status"]),
        confidence=get("confidence"), source=_or(row, "source", ""),
        source_ref=_or(row, "source_ref", ""), raw=_or(row, "raw", ""),
        metadata=json.loads(metadata) if metadata and metadata != "{}" else {},
        category=get("category"), head=get("head"), relation=get("relation"), tail=get("tail"),
        cardinality=_member(_CARDINALITIES, Cardinality, _or(row, "cardinality", "one")),
        proposed_action=Action(proposed) if proposed else None,
        valid_from=as_time(get("valid_from")), valid_to=as_time(get("valid_to")),
        recorded_at=as_time(get("recorded_at")), retired_at=as_time(get("retired_at")),
        supersedes=tuple(get("supersedes_ids") or ()),
        retracts=tuple(get("retracts_ids") or ()),
        revisions=tuple(json.loads(r) for r in revisions) if revisions else (),
        event=get("event"), undone_by=get("undone_by"),
    )


def _member(members: Any, enum: Any, value: Any) -> Any:
    """The enum member stored as `value`; an unknown value raises as calling the enum does."""
    found = members.get(value)
    return found if found is not None else enum(value)
