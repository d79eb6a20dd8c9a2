"""The order of one pass, as plain functions of what the pass read (no threads, no I/O).

One pass writes the queued audit rows in call order, each write's outbox entries (and those
committed before them in the space) at the write's marker, then the other entries it read.
It stops at a marker whose entries were not read yet; then (and when the queue holds more
than a batch) the other entries wait for the next pass, so no row lands before a row that was
queued before it.

A write hands the mirror the entries it committed. When they follow on from the last entry
this process applied in the space (no gap in the space's write counter, so no other writer
came between), the pass applies them without reading the outbox at all.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence, Set

from graphmem.graph.outbox import OutboxEntry
from graphmem.mirror.audit import AuditEntry
from graphmem.mirror.audit_queue import Item, Marker

AUDIT_BATCH = 2_000  # queued items written per relational transaction at most

Step = AuditEntry | list[OutboxEntry]


def follows(last: int | None, found: Iterable[OutboxEntry]) -> bool:
    """Whether entries committed by this process continue `last`, the write counter of the
    entry it applied last in their space, without a gap (then the outbox need not be read:
    nothing else can come between); any other writer, or a write without an entry, leaves a
    gap, and so does a space where nothing was applied yet (`last` None)."""
    if last is None:
        return False
    for seq in sorted({e.seq or 0 for e in found}):
        if seq != last + 1:
            return False
        last = seq
    return True


def follow_on(fresh: Mapping[str, list[OutboxEntry]], wanted: Set[str],
              last_seq: Mapping[str, int]) -> dict[str, list[OutboxEntry]]:
    """The spaces of `fresh` (entries committed here, by space) whose entries follow on from
    `last_seq` and that the pass does not read anyway (`wanted`)."""
    return {space: found for space, found in fresh.items()
            if space not in wanted and follows(last_seq.get(space), found)}


def unread(items: Iterable[tuple[int, Item]], applied: Container[str],
           known: Container[str]) -> set[str]:
    """The spaces to read for the queued writes: those of each marker's entries that are
    neither applied (`applied`) nor at hand (`known`), for markers not wholly applied."""
    return {space for _, item in items
            if isinstance(item, Marker) and not all(e in applied for _, e in item.events)
            for space, event in item.events if event not in known}


def plan(entries: Sequence[OutboxEntry], items: Sequence[tuple[int, Item]], t0: int,
         capped: bool, applied: Container[str], batch: int = AUDIT_BATCH
         ) -> tuple[list[Step], int, bool]:
    """The steps of one pass, the last ticket they take from the queue, and whether they
    are all that is due (`whole`: no item or entry left for a later pass).

    `entries` were read after ticket `t0` was handed out, in space and commit order, and
    capped at the read's limit (`capped`); `items` is the head of the queue (one more than a
    `batch`, to tell whether it holds more); `applied` names the entries applied before. A
    marker of entries not read stops the pass when its write may have committed after the
    read (a later ticket, or a capped read); one read before had its write rolled back."""
    index = {e.id: i for i, e in enumerate(entries)}
    done: set[int] = set()
    steps: list[Step] = []
    taken, whole = 0, len(items) <= batch
    for ticket, item in items[:batch]:
        if isinstance(item, Marker):
            missing = any(e not in index and e not in applied for _, e in item.events)
            if missing and (ticket > t0 or capped):
                whole = False  # committed after the entries were read: next pass
                break
            due = _due(entries, index, done, item)
            if due:
                steps.append(due)
        else:
            steps.append(item)
        taken = ticket
    if whole:
        rest = [e for i, e in enumerate(entries) if i not in done]
        if rest:
            steps.append(rest)
    return steps, taken, whole


def _due(entries: Sequence[OutboxEntry], index: Mapping[str, int], done: set[int],
         marker: Marker) -> list[OutboxEntry]:
    """A write's entries with those before them in their space not taken yet (adding them to
    `done`), in commit order."""
    due: list[int] = []
    for _, event in marker.events:
        i = index.get(event)
        while i is not None and i >= 0 and i not in done and (
                entries[i].space == entries[index[event]].space):
            due.append(i)
            done.add(i)
            i -= 1
    return [entries[i] for i in sorted(due)]
