"""Keyset pages: a window of a statement's own order, after or before a position in it.

A cursor is the sort key of an item (a fact's `(recorded_at, id)`, an entity's key, …),
encoded as opaque text, so a page read after a write starts exactly where the last one
ended: nothing is skipped or repeated when facts are added or retired meanwhile, as an
offset into a list would be. Statements take `$after` and `$before` (lists compared in
Cypher's list order, null when absent), `$backward` and `$limit` (the page size plus one, so
one read says whether more follow), and sort by the same key.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar, overload

from graphmem.errors import InvalidInput

T = TypeVar("T")
U = TypeVar("U")
Part = Literal["time", "str", "int"]
DEFAULT_PAGE = 50

# The shape of each kind of key: which orders exist, and what a cursor of each holds.
KEYS: dict[str, tuple[Part, ...]] = {
    "fact": ("time", "str"),
    "conflict": ("time", "str"),
    "entity": ("str",),
    "space": ("str",),
    "entry": ("time", "str", "int"),
    "audit": ("int",),
    "change": ("int", "str", "int"),
    "slot": ("str", "str"),
}
Key = tuple[Any, ...]


_COMPACT = json.JSONEncoder(separators=(",", ":"))  # built once: a page encodes a cursor per item


def encode(kind: str, key: Key) -> str:
    """The opaque cursor of `key` in the order `kind`."""
    parts = [{"t": p.isoformat()} if isinstance(p, datetime) else p for p in key]
    text = _COMPACT.encode([kind, *parts])
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(kind: str, cursor: str) -> Key:
    """A cursor this API issued for the order `kind`, back to its key; anything else is
    refused with a clear error (never read as some other position)."""
    refused = InvalidInput(f"cursor {cursor[:64]!r} is not one this field issued")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = json.loads(base64.urlsafe_b64decode(padded.encode()).decode())
    except (ValueError, UnicodeError, binascii.Error):
        raise refused from None
    shape = KEYS[kind]
    if not isinstance(raw, list) or len(raw) != len(shape) + 1 or raw[0] != kind:
        raise refused
    try:
        return tuple(_part(p, v) for p, v in zip(shape, raw[1:], strict=True))
    except (TypeError, ValueError):
        raise refused from None


def _part(shape: Part, value: Any) -> Any:
    if shape == "time":
        if not isinstance(value, dict) or not isinstance(value.get("t"), str):
            raise TypeError
        parsed = datetime.fromisoformat(value["t"])
        if parsed.tzinfo is None:
            raise ValueError
        return parsed
    if shape == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError
        return value
    if not isinstance(value, str):
        raise TypeError
    return value


@dataclass(frozen=True)
class Window:
    """One page asked for, checked before anything is read: `size` items after `after`
    (forward) or, reading backwards, the `size` items just before `before`."""

    kind: str
    size: int = DEFAULT_PAGE
    after: Key | None = None
    before: Key | None = None
    backward: bool = False
    count: bool = True

    @classmethod
    def of(cls, kind: str, first: int | None = None, after: str | None = None,
           last: int | None = None, before: str | None = None, max_page: int = 500,
           count: bool = True) -> Window:
        """Relay's arguments: `first`/`after` read forwards, `last`/`before` backwards."""
        if first is not None and last is not None:
            raise InvalidInput("pass first (with after) or last (with before), not both")
        size = DEFAULT_PAGE if first is None and last is None else (
            first if first is not None else last)
        assert size is not None
        if not 0 <= size <= max_page:
            name = "first" if first is not None else "last"
            raise InvalidInput(f"{name} must be between 0 and {max_page}, got {size}")
        return cls(kind, min(size, max_page),
                   decode(kind, after) if after is not None else None,
                   decode(kind, before) if before is not None else None,
                   backward=last is not None, count=count)

    def params(self) -> dict[str, Any]:
        """What every paged statement takes besides its filters."""
        return {"after": None if self.after is None else list(self.after),
                "before": None if self.before is None else list(self.before),
                "backward": self.backward, "limit": self.size + 1}

    def page(self, rows: Sequence[T], key: Callable[[T], Key],
             total: int | None = None) -> Page[T]:
        """The page from a statement's rows (at most size + 1, in reading order)."""
        more = len(rows) > self.size
        kept = list(rows[:self.size])
        if self.backward:
            kept.reverse()
        keys = Cursors(self.kind, tuple(key(item) for item in kept))
        if self.backward:
            return Page(tuple(kept), keys, has_next=self.before is not None,
                        has_previous=more, total=total)
        return Page(tuple(kept), keys, has_next=more, has_previous=self.after is not None,
                    total=total)


@dataclass(frozen=True)
class Cursors(Sequence[str]):
    """The cursors of a page's items, each encoded when it is read: a reader that wants
    only the items (a `nodes` selection) or the page's ends never pays for the others."""

    kind: str
    keys: tuple[Key, ...]

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [encode(self.kind, k) for k in self.keys[index]]
        return encode(self.kind, self.keys[index])

    def __len__(self) -> int:
        return len(self.keys)


@dataclass(frozen=True)
class Page(Generic[T]):
    """Items in the order's direction (oldest first for timelines, whichever way they were
    read), each with its cursor; `total` counts every item the filters admit (None when the
    caller did not ask). `has_previous` after a forward read (and `has_next` after a
    backward one) says whether a cursor was given, as Relay allows."""

    items: tuple[T, ...]
    cursors: Sequence[str]
    has_next: bool
    has_previous: bool
    total: int | None = None

    @property
    def next_cursor(self) -> str | None:
        """The cursor a forward read of the next page starts after (None on the last)."""
        return self.cursors[-1] if self.has_next and self.cursors else None

    def map(self, convert: Callable[[T], U]) -> Page[U]:
        return Page(tuple(convert(i) for i in self.items), self.cursors, self.has_next,
                    self.has_previous, self.total)

    def __len__(self) -> int:
        return len(self.items)
