"""Relay conventions: the Node interface with opaque global ids, and connections.

A global id names the type, the space and the object's own id (`Fact`, `Conflict`, `Entity`,
`AuditEntry`, `Space`), so `node(id:)` finds it again through the same guard as every other
field: the space comes from the id, never from trust in the caller. Connections carry the
keyset cursors of graphmem.model.paging; `totalCount` is counted by aggregation, and only
when the query asks for it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import strawberry
from strawberry.types.nodes import SelectedField, Selection

from graphmem.errors import InvalidInput
from graphmem.model.paging import Page
from graphmem.schema.fields import GraphInfo, field

T = TypeVar("T")
M = TypeVar("M")
NODE_TYPES = ("Fact", "Conflict", "Entity", "AuditEntry", "Space")


@strawberry.interface(description="An object with a global id: `node(id:)` fetches it again"
                                  " (Relay's object identification).")
class Node:
    id: strawberry.ID = strawberry.field(description="Opaque and global: the type, the space"
                                                     " and the object's own id.")


@dataclass(frozen=True)
class GlobalId:
    type: str
    space: str
    local: str


def global_id(type_name: str, space: str, local: str) -> strawberry.ID:
    text = f"{type_name}|{space}|{local}"
    return strawberry.ID(base64.urlsafe_b64encode(text.encode()).decode().rstrip("="))


def parse_global_id(value: str) -> GlobalId:
    """A global id this API issued; anything else is refused with a clear error."""
    refused = InvalidInput(f"id {value[:64]!r} is not a global id this API issued")
    try:
        text = base64.urlsafe_b64decode((value + "=" * (-len(value) % 4)).encode()).decode()
    except (ValueError, UnicodeError, binascii.Error):
        raise refused from None
    parts = text.split("|", 2)
    if len(parts) != 3 or parts[0] not in NODE_TYPES or not parts[1] or not parts[2]:
        raise refused
    return GlobalId(*parts)


def local_id(value: str, type_name: str) -> str:
    """An object's own id, given either itself or its global id (of that type): arguments
    taking ids accept both."""
    try:
        found = parse_global_id(value)
    except InvalidInput:
        return value
    if found.type != type_name:
        raise InvalidInput(f"id {value[:64]!r} names a {found.type}, not a {type_name}")
    return found.local


@strawberry.type(description="Where a page sits in the whole list (Relay).")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool = strawberry.field(description="After a forward page: whether"
                                                           " `after` was given (Relay allows"
                                                           " this shortcut).")
    start_cursor: str | None
    end_cursor: str | None


@strawberry.type
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type
class Connection(Generic[T]):
    """A page: its nodes, and their cursors encoded only when `edges` asks for them."""

    page_info: PageInfo
    total_count: int = strawberry.field(description="Every item the filters admit, counted"
                                                    " where they lie (only when asked for).")
    _nodes: strawberry.Private[list[T]]
    _cursors: strawberry.Private[Sequence[str]]

    @field("The page's items, each with its cursor.")
    def edges(self) -> list[Edge[T]]:
        return [Edge(cursor=cursor, node=node)
                for cursor, node in zip(self._cursors, self._nodes, strict=True)]

    @field("The nodes of `edges`, for clients that need no cursors.")
    def nodes(self) -> list[T]:
        return self._nodes


def page_info(page: Page[M]) -> PageInfo:
    return PageInfo(has_next_page=page.has_next, has_previous_page=page.has_previous,
                    start_cursor=page.cursors[0] if page.cursors else None,
                    end_cursor=page.cursors[-1] if page.cursors else None)


def connection_fields(page: Page[M], convert: Callable[[M], T]) -> dict[str, Any]:
    """A Connection's own fields for `page`, for Connection and the types extending it."""
    return {"page_info": page_info(page), "total_count": page.total or 0,
            "_nodes": [convert(item) for item in page.items], "_cursors": page.cursors}


def connection(page: Page[M], convert: Callable[[M], T]) -> Connection[T]:
    return Connection(**connection_fields(page, convert))


def wants(info: GraphInfo, name: str) -> bool:
    """Whether the selection of this field asks for `name` directly (through fragments
    too): a connection counts its items only when `totalCount` is asked for."""
    return any(_selects(field.selections, name) for field in info.selected_fields)


def _selects(selections: Iterable[Selection], name: str) -> bool:
    for node in selections:
        if isinstance(node, SelectedField):
            if node.name == name:
                return True
        elif _selects(node.selections, name):
            return True
    return False
