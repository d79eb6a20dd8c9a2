"""Extractor-shaped dicts in, validated and normalised Proposals out.

Pipelines and the extractor speak the same JSON shape (docs/concepts/facts.md). Every field is
checked here, once, so that reconcile and the stores never see a malformed fact, and a bad
field is named in the error instead of failing somewhere deep in a query.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from graphmem.errors import InvalidInput
from graphmem.model import (
    DEFAULT_SCOPE,
    Action,
    Cardinality,
    Kind,
    Proposal,
    SlotSpec,
    TimeRef,
    value_key,
)
from graphmem.model.fact_fields import (
    FACT_FIELDS,
    MAX_METADATA_LENGTH,
    MAX_TEXT_LENGTH,
    MAX_VALUE_LENGTH,
)
from graphmem.slots import SlotSchema, normalise_subject

TIME_FIELDS = ("recorded_at", "valid_from")  # a backfill's own times (backfill capability)

E = TypeVar("E", bound=StrEnum)


def _enum(cls: type[E], raw: Any, field: str, default: E) -> E:
    if raw is None or raw == "":
        return default
    try:
        return cls(str(raw).strip().lower() if cls in (Kind, TimeRef, Cardinality)
                   else str(raw).strip().upper())
    except ValueError:
        allowed = ", ".join(m.value for m in cls)
        raise InvalidInput(f"fact field {field!r} is {raw!r}: use one of {allowed}") from None


def _text(raw: Any, field: str, limit: int, required: bool = False) -> str | None:
    if raw is None:
        if required:
            raise InvalidInput(f"fact field {field!r} is required")
        return None
    if not isinstance(raw, str):
        raise InvalidInput(f"fact field {field!r} must be a string, got {type(raw).__name__}")
    if "\x00" in raw:
        raise InvalidInput(f"fact field {field!r} contains a NUL character")
    if len(raw) > limit:
        raise InvalidInput(f"fact field {field!r} is {len(raw)} characters; the limit is {limit}")
    return raw


def _confidence(raw: Any) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise InvalidInput(f"fact field 'confidence' must be a number, got {raw!r}")
    value = float(raw)
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(f"fact field 'confidence' must be between 0 and 1, got {raw!r}")
    return value


def _when(raw: Any, field: str) -> datetime | None:
    if raw is None or raw == "":
        return None
    try:
        value = raw if isinstance(raw, datetime) else datetime.fromisoformat(str(raw))
    except ValueError:
        raise InvalidInput(f"fact field {field!r} is not an ISO 8601 time: {raw!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def parse_proposal(raw: Mapping[str, Any], schema: SlotSchema) -> Proposal:
    """One dict → one normalised Proposal (subject folded onto a declared slot if any)."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"each fact must be an object, got {type(raw).__name__}")
    unknown = set(raw) - FACT_FIELDS
    if unknown:
        raise InvalidInput(f"unknown fact field(s): {', '.join(sorted(map(str, unknown)))}")
    raw = _triple_defaults(raw)
    subject = _text(raw.get("subject"), "subject", 10_000, required=True) or ""
    value = _text(raw.get("value"), "value", MAX_VALUE_LENGTH)
    action = _enum(Action, raw.get("action"), "action", Action.ADD)
    if value is None or not value.strip():
        if action != Action.RETRACT:
            raise InvalidInput("fact field 'value' is required (only a RETRACT may omit it)")
        value = ""
    try:
        canonical = schema.canonical(subject)
        scope = normalise_subject(_text(raw.get("scope"), "scope", 200) or DEFAULT_SCOPE)
    except ValueError as e:
        raise InvalidInput(str(e)) from None
    spec = schema.resolve(canonical)
    return Proposal(
        subject=canonical, value=value.strip(), scope=scope,
        kind=_enum(Kind, raw.get("kind"), "kind", Kind.STATE),
        time_ref=_enum(TimeRef, raw.get("time_ref"), "time_ref", TimeRef.CURRENT),
        action=action, confidence=_confidence(raw.get("confidence")),
        head=_text(raw.get("head"), "head", 1000), relation=_text(raw.get("relation"),
                                                                  "relation", 200),
        tail=_text(raw.get("tail"), "tail", 1000),
        head_type=_text(raw.get("head_type"), "head_type", 100),
        tail_type=_text(raw.get("tail_type"), "tail_type", 100),
        cardinality=_cardinality(raw.get("cardinality"), spec),
        reason=_text(raw.get("reason"), "reason", 10_000),
        target_id=_text(raw.get("target_id"), "target_id", 200),
        category=(spec.category if spec and spec.category else
                  _text(raw.get("category"), "category", 100)),
        valid_from=_when(raw.get("valid_from"), "valid_from"),
        valid_to=_when(raw.get("valid_to"), "valid_to"),
        raw=_text(raw.get("raw"), "raw", MAX_TEXT_LENGTH) or "",
        source_ref=_text(raw.get("source_ref"), "source_ref", 2000),
        recorded_at=_when(raw.get("recorded_at"), "recorded_at"),
        metadata=_metadata(raw.get("metadata")),
    )


def _metadata(raw: Any) -> dict[str, Any] | None:
    """A fact's own metadata: a JSON object, merged over the call's."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"fact field 'metadata' must be an object, got {type(raw).__name__}")
    try:
        size = len(json.dumps(raw, default=str))
    except (TypeError, ValueError) as e:
        raise InvalidInput(f"fact field 'metadata' is not JSON: {e}") from None
    if size > MAX_METADATA_LENGTH:
        raise InvalidInput(f"fact field 'metadata' is {size} characters of JSON; the limit is"
                           f" {MAX_METADATA_LENGTH}")
    return dict(raw)


def _cardinality(raw: Any, spec: SlotSpec | None) -> Cardinality | None:
    if spec is not None:
        return Cardinality.MANY if spec.multi else Cardinality.ONE
    if raw is None or raw == "":
        return None
    return _enum(Cardinality, raw, "cardinality", Cardinality.ONE)


def _filled(raw: Any) -> bool:
    return isinstance(raw, str) and bool(raw.strip())


def _triple_defaults(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """Issue 4: how a (head, relation, tail) fact maps to a slot.

    The slot is the caller's subject, else `head relation` (normalised: `alice_works_at`);
    the value is the tail. So a single-valued relation supersedes its old tail, and on a
    many-valued one (cardinality many: identity = the whole value) each tail is its own
    item and a removal naming a tail retires only that edge.
    """
    head, relation, tail = raw.get("head"), raw.get("relation"), raw.get("tail")
    if (_filled(relation) or _filled(tail)) and not _filled(head):
        raise InvalidInput("fact field 'head' is required with 'relation' or 'tail'")
    if _filled(tail) and not _filled(relation):
        raise InvalidInput("fact field 'relation' is required with 'tail'")
    out = dict(raw)
    if not _filled(raw.get("subject")) and _filled(relation):
        out["subject"] = f"{head} {relation}"
    value = raw.get("value")
    if _filled(tail) and not _filled(value):
        out["value"] = tail
    elif _filled(tail) and isinstance(value, str) and value_key(value) != value_key(str(tail)):
        raise InvalidInput("fact field 'value' must equal 'tail' on a relation fact (or be"
                           " omitted: the tail is the value)")
    return out


def parse_proposals(raw: Any, schema: SlotSchema) -> list[Proposal]:
    if not isinstance(raw, list | tuple):
        raise InvalidInput(f"facts must be a list, got {type(raw).__name__}")
    proposals = []
    for index, item in enumerate(raw):
        try:
            proposals.append(parse_proposal(item, schema))
        except InvalidInput as e:
            raise InvalidInput(f"fact #{index + 1}: {e}") from None
    return proposals


def check_text(text: str, field: str = "text") -> str:
    checked = _text(text, field, MAX_TEXT_LENGTH)
    return checked or ""
