"""`graphmem graph restore --from-mirror`: rebuild an empty graph from the mirror's event log.

Events replay in the order the mirror applied them (each space's in commit order) through
the write path's own code: a `remember` event is the write's Batch, applied by
`Batch.apply` (facts, refines, statuses, retirements, the entity projection, conflicts);
`settle` replays its batches and closes its conflict; `policy` sets the space's policy;
`entity` seeds an entity (create_entity), `sweep` attaches placeholders with the recorded
vocabulary, `rebuild` runs the projection rebuild again at its instant; `import` (a restored
export's batch) writes its facts and links, then its entities, conflicts and space
properties, as the import did; `erase` deletes what it names (the log was already
rewritten without erased content). Space
write counters continue from the last event, so new writes keep their order after a restore.
Every payload must open where it is stored: one sealed for another event, space or kind was
copied there, and restore stops before replaying it (`TamperedLog`); `graphmem audit verify`
checks the whole log against the audit chain.
Embeddings are computed again for the restored facts (`embed=False` skips it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import GraphMemError
from graphmem.graph import conflicts, entities, erasure, outbox, projection, spaces, undo
from graphmem.graph import migrations as graph_migrations
from graphmem.graph import restore as graph_restore
from graphmem.lifecycle.clients import Clients
from graphmem.lifecycle.transfer.restore import apply_import
from graphmem.mirror import event_log
from graphmem.mirror.crypto import DecryptionFailed, FieldCipher, Misbound
from graphmem.mirror.event_log import event_binding
from graphmem.model.transfer import RestoreResult
from graphmem.remember.write import Batch

log = logging.getLogger(__name__)

PAGE = 200
Progress = Callable[[int, int], None]


class GraphNotEmpty(GraphMemError):
    """Restore only writes into an empty graph, so it can never mix with live data."""


class TamperedLog(GraphMemError):
    """An event of the log is not what was written there: restore replays nothing of it."""


@dataclass(frozen=True)
class Event:
    seq: int
    event_id: str
    space: str
    kind: str
    payload: dict[str, Any]
    now: datetime
    graph_seq: int | None


def _batch(payload: dict[str, Any]) -> Batch:
    """The write batch an event carries, its times back as datetimes."""
    lists = {f.name: [outbox.revive_times(item) if isinstance(item, dict) else item
                      for item in payload.get(f.name, [])]
             for f in fields(Batch) if f.name != "outbox"}
    return Batch(**lists)


def replay(tx: ManagedTransaction, event: Event, store: str) -> None:
    """One event, applied to the graph as its original transaction applied it."""
    space, now, payload = event.space, event.now, event.payload
    graph_restore.space(tx, space, now, event.graph_seq, store)
    if event.kind == "import":
        apply_import(tx, space, now, payload)
        return
    if event.kind == "undo":
        undo.mark(tx, space, now, event.event_id, [u["id"] for u in payload.get("undone", [])])
    for batch in outbox.batches(event.kind, payload):
        _batch(batch).apply(tx, space, now, event=event.event_id)
    if event.kind == "undo":
        undo.link(tx, space, now, payload.get("restores", []))
        for close in payload.get("close", []):
            conflicts.close(tx, space, now, id=close["id"], status="dismissed", winner=None,
                            note=close.get("note"), by=close.get("by"))
    if event.kind == "settle" and payload.get("close"):
        conflicts.close(tx, space, now, **payload["close"])
    elif event.kind == "policy":
        spaces.set_policy(tx, space, payload["policy"], now)
    elif event.kind == "relations" and "schema" in payload:
        spaces.set_relation_schema(tx, space, payload["schema"], now)
    elif event.kind == "relations":
        spaces.set_relation_descriptions(tx, space, payload["described"], now)
    elif event.kind == "erase":
        erasure.facts(tx, space, payload.get("facts", []))
        if payload.get("all"):
            erasure.space_rest(tx, space)
    elif event.kind == "entity":
        entities.create(tx, space, now, **payload)
    elif event.kind == "sweep":
        entities.sweep_placeholders(tx, space, payload["types"])
    elif event.kind == "rebuild":
        projection.rebuild_in(tx, space, now)


def _replay_page(tx: ManagedTransaction, events: list[Event], store: str) -> None:
    for event in events:
        replay(tx, event, store)


def events(runtime: Clients, spaces: Iterable[str] | None = None,
           page: int = PAGE) -> Iterator[list[Event]]:
    """The event log, oldest first (of some spaces: each space's in turn), a page at a
    time, decrypted."""
    for space in ([None] if spaces is None else sorted(set(spaces))):
        yield from _pages(runtime, space, page)


def _pages(runtime: Clients, space: str | None, page: int) -> Iterator[list[Event]]:
    cipher = runtime.mirror.cipher
    after = 0
    while True:
        rows = event_log.page_after(runtime.store, space, after, page)
        if not rows:
            return
        yield [_event(cipher, tuple(r)) for r in rows]
        after = int(rows[-1][0])


def _event(cipher: FieldCipher, row: tuple[Any, ...]) -> Event:
    """An event as restore replays it; its payload must have been sealed for this very row
    (its id, space and kind), else the log was tampered with and restore stops."""
    seq, event_id, space, kind = int(row[0]), str(row[1]), str(row[2]), str(row[3])
    try:
        text = cipher.open(row[4], event_binding(event_id, space, kind))
    except Misbound as e:
        raise TamperedLog(f"event {event_id} (space {space}) was not written there: {e};"
                          " restore refuses to replay it (run `graphmem audit verify`)") from e
    except DecryptionFailed as e:
        raise TamperedLog(f"event {event_id} (space {space}) does not open: {e}") from e
    return Event(seq, event_id, space, kind, json.loads(text or "{}"),
                 datetime.fromisoformat(row[5]), row[6])


def event_count(runtime: Clients) -> int:
    return event_log.count(runtime.store)


def _require_empty(runtime: Clients, spaces: Iterable[str] | None) -> None:
    for space in (list(spaces) if spaces is not None else [None]):
        nodes = graph_restore.graph_count(runtime.graph, space)
        if nodes:
            where = f"space {space}" if space else "the graph"
            raise GraphNotEmpty(
                f"{where} already holds {nodes} memory node(s): restore rebuilds only into an"
                " empty database (point GRAPHMEM_NEO4J_URI at a fresh one, or erase it first)")


def restore(runtime: Clients, spaces: Iterable[str] | None = None, embed: bool = True,
            progress: Progress | None = None) -> RestoreResult:
    """Rebuild the graph (or the given spaces) from the mirror into an empty database."""
    spaces = None if spaces is None else sorted(set(spaces))
    runtime.graph.verify()
    graph_migrations.up(runtime.graph)
    _require_empty(runtime, spaces)
    total = event_count(runtime)
    done, seen = 0, set[str]()
    for page in events(runtime, spaces):
        runtime.graph.execute(_replay_page, page, runtime.mirror.store_id)
        done += len(page)
        seen.update(e.space for e in page)
        if progress is not None:
            progress(done, total)
    facts = 0
    for space in sorted(seen):
        ids = sorted(runtime.graph.execute(erasure.targets_all, space, write=False))
        facts += len(ids)
        if embed and ids:
            _embed(runtime, space, ids)
    return RestoreResult(done, tuple(sorted(seen)), facts)


def _embed(runtime: Clients, space: str, ids: list[str]) -> None:
    from graphmem.recall.vectors import VectorIndex

    vectors = VectorIndex(runtime.graph, lambda: runtime.embedder)
    for start in range(0, len(ids), 256):
        vectors.store(space, ids[start:start + 256])
