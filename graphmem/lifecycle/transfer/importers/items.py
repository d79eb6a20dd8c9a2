"""What every importer produces: facts in the extractor's shape, each with the time it was
said (when known), who said it and where it came from in the file."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import InvalidInput


@dataclass(frozen=True)
class Item:
    fact: dict[str, Any]
    origin: str
    at: datetime | None = None
    source: str | None = None
    source_ref: str | None = None


@dataclass(frozen=True)
class Source:
    """A file's facts, what could not be mapped from it, and its identity (a re-run of the
    same content continues the same import)."""

    format: str
    items: tuple[Item, ...]
    notes: tuple[str, ...] = ()
    digest: str = ""
    extra: dict[str, int] = field(default_factory=dict)


def instant(raw: Any, where: str, field_name: str = "time") -> datetime:
    """An ISO 8601 time (a date alone is its midnight UTC; no zone means UTC)."""
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return datetime.fromtimestamp(float(raw), UTC)
    text = str(raw).strip() if raw is not None else ""
    if not text:
        raise InvalidInput(f"{where}: {field_name} is missing")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"{where}: {field_name} {text!r} is not an ISO 8601 time") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


