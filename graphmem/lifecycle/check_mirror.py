"""The mirror against the graph, for `graphmem fsck`: lag, lost events, differing facts.

`check_mirror(runtime, space=None)` returns the problems found (an empty list when the two
stores agree); the list also answers `.ok`. It only reads: it never drains or repairs.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.graph import fsck, outbox, spaces
from graphmem.lifecycle.clients import Clients
from graphmem.mirror import event_log, listings
from graphmem.mirror.apply import fact_binding
from graphmem.mirror.crypto import DecryptionFailed, FieldCipher
from graphmem.model.health import Problems

STALE = timedelta(seconds=60)
MAX_LISTED = 20


def check_mirror(runtime: Clients, space: str | None = None) -> Problems:
    problems = Problems()
    for key in [space] if space is not None else _spaces(runtime):
        problems.extend(_check_space(runtime, key))
    return problems


def _spaces(runtime: Clients) -> list[str]:
    found = set(spaces.under(runtime.graph, "", runtime.mirror.store_id))
    found.update(listings.fact_spaces(runtime.store))
    return sorted(found)


def _check_space(runtime: Clients, space: str) -> list[str]:
    pending, oldest = outbox.pending_count(runtime.graph, space)
    if pending:
        if oldest is not None and datetime.now(UTC) - oldest > STALE:
            return [f"{space}: {pending} outbox entries wait for the mirror since"
                    f" {oldest.isoformat()} (is the relational store up?)"]
        return []  # in flight: the stores are compared once the drainer caught up
    problems = _lost_events(runtime, space)
    problems += _facts(runtime, space)
    return problems


def _lost_events(runtime: Clients, space: str) -> list[str]:
    done = outbox.done_ids(runtime.graph, space)
    found = event_log.event_ids(runtime.store, space)
    return [f"{space}: outbox entry {e} is marked applied but the mirror has no such event"
            for e in sorted(done - found)[:MAX_LISTED]]


def _opened(cipher: FieldCipher, space: str, row: tuple[Any, ...], problems: list[str]
            ) -> dict[str, Any]:
    """A mirror fact's compared columns, opened where they belong (a value copied from
    another row is reported)."""
    fact_id = str(row[0])
    found: dict[str, Any] = {"status": row[1], "scope": row[2]}
    for column, stored in (("subject", row[3]), ("value", row[4])):
        try:
            found[column] = cipher.open(stored, fact_binding(fact_id, space, column))
        except DecryptionFailed as e:
            problems.append(f"{space}: fact {fact_id}: its {column} does not open: {e}")
            found[column] = None
    return found


def _facts(runtime: Clients, space: str) -> list[str]:
    cipher = runtime.mirror.cipher
    graph = {r["id"]: r for r in fsck.mirror_facts(runtime.graph, space)}
    rows = listings.fact_rows(runtime.store, space)
    problems: list[str] = []
    mirror = {r[0]: _opened(cipher, space, tuple(r), problems) for r in rows}
    problems += [f"{space}: fact {i} is in the graph but not in the mirror"
                 for i in sorted(graph.keys() - mirror.keys())]
    problems += [f"{space}: fact {i} is in the mirror but not in the graph"
                 for i in sorted(mirror.keys() - graph.keys())]
    for fact_id in sorted(graph.keys() & mirror.keys()):
        differ = [k for k in ("status", "scope", "subject", "value")
                  if graph[fact_id][k] != mirror[fact_id][k]]
        if differ:
            problems.append(f"{space}: fact {fact_id} differs in the mirror ({', '.join(differ)})")
    return problems[:MAX_LISTED]
