"""Replay: each fact reconciled in the order of its original time, with that time as the
write's record time, so `as_of` reads of the imported space answer as the source would
have.

Every fact of the source is checked first (a malformed one stops the import, naming where
it came from, before anything is written). Facts with a time are replayed oldest first
(ties in file order), then those without one in file order, at the time of the import.
Batches go through the ordinary write path (`remember.pipeline`), each one write
transaction under the space's lock with the import's checkpoint, so reconciliation, the
mirror, the audit and the embeddings are those of any write; a re-run after an
interruption continues after the last committed batch. Facts without a time never share a
batch with another fact of their slot, so no two of them are taken for one ambiguous
statement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput
from graphmem.graph import imports
from graphmem.graph.imports import Checkpoint
from graphmem.graph.outbox import Outbox
from graphmem.lifecycle.clients import Clients
from graphmem.lifecycle.transfer.importers.items import Item, Source
from graphmem.lifecycle.transfer.restore import import_id
from graphmem.model import Proposal, Result
from graphmem.model.audit import AuditCall
from graphmem.model.transfer import ImportReport
from graphmem.recall.vectors import written_ids
from graphmem.remember.pipeline import WriteRequest, write_proposals

Parse = Callable[[dict[str, Any]], Proposal]
Request = Callable[[tuple[Proposal, ...]], WriteRequest]
Index = Callable[[str, list[str]], None]
Progress = Callable[[int, int], None]


def _at(item: Item) -> datetime:
    assert item.at is not None
    return item.at


def chronological(items: Sequence[Item]) -> list[Item]:
    """Timed items oldest first (ties keep file order), then the untimed ones."""
    timed = sorted((i for i in items if i.at is not None), key=_at)
    return timed + [i for i in items if i.at is None]


def proposals(items: Sequence[Item], parse: Parse, fmt: str) -> list[Proposal]:
    """Every item as a checked Proposal carrying its time, source and origin."""
    out = []
    for item in items:
        try:
            p = parse(item.fact)
        except InvalidInput as e:
            raise InvalidInput(f"{item.origin}: {e}") from None
        metadata = {**(p.metadata or {}), "imported_from": f"{fmt}: {item.origin}"}
        out.append(p.with_changes(recorded_at=item.at, source=item.source,
                                  source_ref=item.source_ref, metadata=metadata))
    return out


def batches(props: Sequence[Proposal], size: int, start: int) -> list[tuple[int, int]]:
    """[start, end) ranges of at most `size`; an untimed proposal whose slot the batch holds
    already starts a new one."""
    out, begin, slots = [], start, set[tuple[str, str]]()
    for index in range(start, len(props)):
        p = props[index]
        slot = (p.subject, p.scope)
        if index > begin and (index - begin >= size or (p.recorded_at is None
                                                          and slot in slots)):
            out.append((begin, index))
            begin, slots = index, set()
        slots.add(slot)
    if begin < len(props):
        out.append((begin, len(props)))
    return out


def _write(tx: ManagedTransaction, outbox: Outbox, req: WriteRequest, point: Checkpoint,
           lines: tuple[int, int], done: bool) -> list[Result]:
    results = write_proposals(tx, outbox, req)
    imports.advance(tx, point, lines[0], lines[1], len(written_ids(results)), done,
                    req.info.now)
    return results


def replay(runtime: Clients, call: AuditCall | None, target: str, source: Source,
           parse: Parse, request: Request, index: Index, size: int,
           progress: Progress | None = None) -> ImportReport:
    props = proposals(chronological(source.items), parse, source.format)
    key = import_id(target, source.digest, "replay")
    point = imports.checkpoint(runtime.graph, target, key) or Checkpoint(
        key, target, "replay", source.digest)
    if point.done:
        return ImportReport("replay", source.format, (target,), len(props), already=True,
                            unmapped=source.notes)
    actions: Counter[str] = Counter()
    written = 0
    for begin, end in batches(props, size, point.line):
        req = request(tuple(props[begin:end]))
        results = runtime.write(target, call, _write, req, point, (begin, end),
                                end == len(props))
        actions.update(r.action.value for r in results)
        ids = written_ids(results)
        written += len(ids)
        index(target, ids)
        if progress is not None:
            progress(end, len(props))
    return ImportReport("replay", source.format, (target,), len(props), {"facts": written},
                        dict(actions), skipped=point.line, unmapped=source.notes)
