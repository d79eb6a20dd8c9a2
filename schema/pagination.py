"""Cursor pagination (Relay-style connections) over the lists the service returns."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import strawberry

from graphmem.errors import InvalidInput

T = TypeVar("T")
S = TypeVar("S")
DEFAULT_PAGE = 50
_PREFIX = "gm:"


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type
class Connection(Generic[T]):
    edges: list[Edge[T]]
    page_info: PageInfo
    total_count: int


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"{_PREFIX}{offset}".encode()).decode()


def decode_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        if not text.startswith(_PREFIX):
            raise ValueError
        offset = int(text[len(_PREFIX):])
        if offset < 0:
            raise ValueError
        return offset
    except (ValueError, UnicodeError, binascii.Error):
        raise InvalidInput(f"cursor {cursor[:64]!r} is not one this API issued") from None


@dataclass(frozen=True)
class Page:
    """A validated window: checked before any data is read."""

    start: int
    size: int

    @classmethod
    def parse(cls, first: int | None, after: str | None, max_page: int) -> Page:
        size = DEFAULT_PAGE if first is None else first
        if size < 0 or size > max_page:
            raise InvalidInput(f"first must be between 0 and {max_page}, got {first}")
        return cls(0 if after is None else decode_cursor(after) + 1, min(size, max_page))

    def cut(self, items: Sequence[S], convert: Callable[[S], T]) -> Connection[T]:
        window = items[self.start:self.start + self.size]
        edges = [Edge(cursor=encode_cursor(self.start + i), node=convert(item))
                 for i, item in enumerate(window)]
        return Connection(edges=edges, total_count=len(items), page_info=PageInfo(
            has_next_page=self.start + len(window) < len(items),
            end_cursor=edges[-1].cursor if edges else None))
