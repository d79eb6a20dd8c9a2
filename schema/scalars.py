"""Custom scalars: DateTime (ISO 8601, a timezone required) and JSON (an object)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NewType, cast

import strawberry
from strawberry.types.scalar import ScalarDefinition

JSON = NewType("JSON", object)


def _parse_datetime(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ValueError(f"DateTime must be an ISO 8601 string, got {type(value).__name__}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"DateTime {value[:64]!r} is not ISO 8601 (e.g."
                         " 2026-03-01T00:00:00+00:00)") from None
    if parsed.tzinfo is None:
        raise ValueError(f"DateTime {value[:64]!r} must carry a timezone (e.g. +00:00 or Z)")
    return parsed


def _serialize_datetime(value: datetime) -> str:
    return value.isoformat()


def as_object(value: JSON | None) -> Mapping[str, Any] | None:
    """A parsed JSON argument as the object its scalar guarantees it is."""
    return cast("Mapping[str, Any] | None", value)


def _parse_json(value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError(f"JSON must be an object, got {type(value).__name__}")
    return value


DATETIME = strawberry.scalar(
    name="DateTime", description="An ISO 8601 date and time with a timezone offset.",
    serialize=_serialize_datetime, parse_value=_parse_datetime,
)
JSON_SCALAR = strawberry.scalar(
    name="JSON", description="A JSON object (metadata).", serialize=lambda v: v,
    parse_value=_parse_json,
)
SCALARS: dict[object, ScalarDefinition] = {datetime: DATETIME, JSON: JSON_SCALAR}
