"""Paged answers for the listing tools: the items, one line each, and the cursor of the next
page, both as text and as structured content."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Generic, TypeVar

from pydantic import Field

from graphmem.model import Conflict, Fact
from graphmem.model.differences import SlotChange
from graphmem.model.paging import Page

T = TypeVar("T")

Limit = Annotated[int, Field(ge=1, description="At most this many items (up to"
                                              " GRAPHMEM_API_MAX_PAGE, 500 by default).")]
Cursor = Annotated[str | None, Field(max_length=1000, description="The `next_cursor` of the"
                                     " previous page; leave out for the first page.")]
LIMIT = 50


@dataclass(frozen=True)
class Listed(Generic[T]):
    """One page: `next_cursor` is None on the last one."""

    items: tuple[T, ...]
    next_cursor: str | None


def listed(page: Page[T]) -> Listed[T]:
    return Listed(page.items, page.next_cursor)


def page_text(line: Callable[[T], str], empty: str) -> Callable[[Listed[T]], str]:
    """A page as lines, then how to ask for the next one."""
    def render(found: Listed[T]) -> str:
        lines = [line(item) for item in found.items] or [empty]
        if found.next_cursor:
            lines.append(f'More: call again with cursor="{found.next_cursor}".')
        return "\n".join(lines)
    return render


def fact_line(fact: Fact) -> str:
    scope = f" ({fact.scope})" if fact.scope != "global" else ""
    source = f" from {fact.source}" if fact.source else ""
    return f"#{fact.id} {fact.subject}{scope} = {fact.value} [{fact.status.value}{source}]"


def change_line(c: SlotChange) -> str:
    """`subject (scope): before → after [KIND] by events …`."""
    scope = f" ({c.scope})" if c.scope != "global" else ""
    before = ", ".join(f.value for f in c.before) or "(none)"
    after = ", ".join(f.value for f in c.after) or "(none)"
    events = sorted({cause.event for cause in c.causes if cause.event})
    by = f" by {', '.join(events)}" if events else ""
    return f"{c.subject}{scope}: {before} → {after} [{c.kind.value}]{by}"


def conflict_line(c: Conflict) -> str:
    facts = ", ".join(f"#{f}" for f in sorted(c.fact_ids))
    note = f" — {c.note}" if c.note else ""
    return f"{c.id} [{c.status.value}] {c.kind.value} ({c.severity}): {facts}{note}"


def conflicts_text(found: list[Conflict], status: str) -> str:
    """Conflicts one line each (a resource's whole list)."""
    if not found:
        return f"No {'' if status == 'all' else status + ' '}conflicts."
    return "\n".join(conflict_line(c) for c in found)
