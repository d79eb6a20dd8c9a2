"""Export spaces to a signed JSON Lines file (see `codec` for the format).

Per space, in this order: the space (policy, relation labels, retention), its facts (each
after the facts it superseded or retracted, so an import can link them as it goes), its
entities, its conflicts with their outcome, the proposals pending approval, its decisions.
A space holding no fact, entity or conflict is left out, so an erased user's spaces leave
no trace in a tenant's export.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import IO, Any

from graphmem.graph import transfer
from graphmem.lifecycle.clients import Clients
from graphmem.lifecycle.transfer import asof, records
from graphmem.lifecycle.transfer.codec import FORMAT, VERSION, Writer
from graphmem.mirror import transfer_rows
from graphmem.model.transfer import ExportRequest, ExportResult

PAGE = 1000
Progress = Callable[[int, int], None]


class _Topological:
    """Facts in the order the scan gives (recording order), each held back until the facts
    it points at (SUPERSEDES / RETRACTS / RESTORES) are out, so an import can link each fact as it
    writes it. A settlement can make an older fact supersede a newer one; those few wait
    here. Facts still waiting when the scan ends (their target is gone) follow in order."""

    def __init__(self) -> None:
        self.out: set[str] = set()
        self.waiting: dict[str, list[dict[str, Any]]] = {}

    def _missing(self, record: dict[str, Any]) -> str | None:
        for link in (link for kind in records.LINKS for link in record[kind]):
            if link["id"] not in self.out and link["id"] != record["id"]:
                return str(link["id"])
        return None

    def add(self, record: dict[str, Any]) -> Iterator[dict[str, Any]]:
        missing = self._missing(record)
        if missing is not None:
            self.waiting.setdefault(missing, []).append(record)
            return
        ready = [record]
        while ready:
            current = ready.pop(0)
            self.out.add(current["id"])
            yield current
            for held in self.waiting.pop(current["id"], []):
                still = self._missing(held)
                if still is None:
                    ready.append(held)
                else:
                    self.waiting.setdefault(still, []).append(held)

    def rest(self) -> Iterator[dict[str, Any]]:
        """The facts still waiting, without their links to facts the scan never gave (erased
        while the export ran)."""
        left = sorted((r for held in self.waiting.values() for r in held),
                      key=lambda r: (r["recorded_at"] or "", r["id"]))
        self.waiting = {}
        known = self.out | {r["id"] for r in left}
        for record in left:
            for kind in records.LINKS:
                record[kind] = [link for link in record[kind] if link["id"] in known]
            self.out.add(record["id"])
            yield record


class SpaceExport:
    """The records of one space, read a page at a time."""

    def __init__(self, runtime: Clients, space: str, req: ExportRequest) -> None:
        self.runtime = runtime
        self.space = space
        self.req = req
        self.flagged: dict[str, dict[str, Any]] = {}
        self.order = _Topological()

    def size(self) -> dict[str, Any]:
        return transfer.export_space(self.runtime.graph, self.space)

    def space_record(self, row: dict[str, Any]) -> dict[str, Any]:
        policy = row.get("policy")
        schema, described = row.get("relation_schema"), row.get("relation_descriptions")
        return {"type": "space", "space": self.space,
                "policy": json.loads(policy) if policy else None,
                "relation_labels": list(row.get("relation_labels") or []),
                "relation_schema": json.loads(schema) if schema else None,
                "relation_descriptions": json.loads(described) if described else None,
                "retention_days": transfer_rows.retention_days(self.runtime.store, self.space)}

    def facts(self) -> Iterator[dict[str, Any]]:
        """One streamed scan of the space's facts (a read of its own, so a space of any
        size is never held in memory here), a page of facts to a driver record, in an order
        an import can link as it goes."""
        order = self.order
        for page in transfer.export_facts(self.runtime.graph, self.space, PAGE):
            for fact in page:
                record = records.fact_record(fact, self.space)
                found = (record if self.req.as_of is None
                         else asof.fact(record, self.req.as_of))
                if found is not None:
                    yield from self._flagged(order.add(found))
        yield from self._flagged(order.rest())

    def exported(self, ids: list[str]) -> list[str]:
        """The ids among `ids` of facts this export holds (the space is read while writes
        go on: a conflict or an entity may name a fact written after the facts were)."""
        return [i for i in ids if i in self.order.out]

    def _flagged(self, found: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for record in found:
            if record["status"] == "FLAGGED_CONFLICT":
                self.flagged[record["id"]] = record
            yield record

    def entities(self) -> Iterator[dict[str, Any]]:
        for entity in transfer.export_entities(self.runtime.graph, self.space):
            record = records.entity_record(entity, self.space)
            record["facts"] = self.exported(record["facts"])
            if self.req.as_of is None or asof.made_by(record, self.req.as_of):
                yield record

    def conflicts(self) -> list[dict[str, Any]]:
        out = []
        for conflict in transfer.export_conflicts(self.runtime.graph, self.space):
            record = records.conflict_record(conflict, self.space)
            record["fact_ids"] = self.exported(record["fact_ids"])
            found = record if self.req.as_of is None else asof.conflict(record,
                                                                        self.req.as_of)
            if found is not None and found["fact_ids"]:
                out.append(found)
        return out

    def decisions(self) -> Iterator[dict[str, Any]]:
        yield from transfer_rows.decisions(self.runtime.store, self.runtime.mirror.cipher,
                                        self.space, self.req.decrypt, self.req.as_of)


@contextmanager
def _collector_settled() -> Iterator[None]:
    """The objects alive when an export starts, kept out of the garbage collector's scans
    until it ends. An export allocates a few short-lived dicts per fact, so the collector
    runs thousands of times over it; with the process's long-lived heap (the driver, the
    model stack, caches) frozen, each of those runs sees only the export's own objects
    (about a fifth of the export's time at 100k facts)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def export(runtime: Clients, req: ExportRequest, out: IO[str],
           progress: Progress | None = None) -> ExportResult:
    """Write the spaces' records and the signed manifest to `out`."""
    with _collector_settled():
        return _export(runtime, req, out, progress)


def _export(runtime: Clients, req: ExportRequest, out: IO[str],
            progress: Progress | None) -> ExportResult:
    writer = Writer(out)
    now = datetime.now(UTC).isoformat()
    as_of = req.as_of.astimezone(UTC).isoformat() if req.as_of else None
    parts = [SpaceExport(runtime, space, req) for space in req.spaces]
    sizes = [part.size() for part in parts]
    kept = [(part, size) for part, size in zip(parts, sizes, strict=True)
            if size["facts"] or size["entities"] or size["conflicts"]]
    total = sum(int(size["facts"]) for _, size in kept)
    writer.write({"type": "header", "format": FORMAT, "version": VERSION, "scope": req.scope,
                  "source": req.source, "spaces": [p.space for p, _ in kept], "as_of": as_of,
                  "exported_at": now, "sealed": not req.decrypt})
    done = 0
    for part, size in kept:
        writer.write(part.space_record(size))
        for record in part.facts():
            writer.write(record)
            done += 1
            if progress is not None and done % PAGE == 0:
                progress(done, total)
        for record in part.entities():
            writer.write(record)
        conflicts = part.conflicts()
        for record in conflicts:
            writer.write(record)
        for record in records.pending_records(conflicts, part.flagged):
            writer.write(record)
        for record in part.decisions():
            writer.write(record)
    if progress is not None:
        progress(done, total)
    manifest = writer.finish(runtime.mirror.ensure_registered(), {
        "scope": req.scope, "source": req.source, "as_of": as_of, "exported_at": now,
        "spaces": [p.space for p, _ in kept]})
    return ExportResult(tuple(p.space for p, _ in kept), dict(writer.counts),
                        str(manifest["hash"]), str(manifest["key_id"]), writer.bytes, manifest)
