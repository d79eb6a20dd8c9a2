"""Export spaces to a signed JSON Lines file (see `codec` for the format).

Per space, in this order: the space (policy, relation labels, retention), its facts (each
after the facts it superseded or retracted, so an import can link them as it goes), its
entities, its conflicts with their outcome, the proposals pending approval, its decisions.
A space holding no fact, entity or conflict is left out, so an erased user's spaces leave
no trace in a tenant's export.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from graphmem.graph.facts import as_time
from graphmem.lifecycle.transfer import asof, records, relational
from graphmem.lifecycle.transfer.codec import FORMAT, VERSION, Writer
from graphmem.lifecycle.transfer.importers.items import plural
from graphmem.runtime import Runtime

PAGE = 1000
PLURALS = {"entity": "entities", "pending": "pending"}
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ExportRequest:
    """What to export: the spaces (keys), as of an instant or as they are now, and whether
    sealed relational content is decrypted into the file (the caller may read it)."""

    spaces: tuple[str, ...]
    scope: str
    source: str
    as_of: datetime | None = None
    decrypt: bool = False


@dataclass(frozen=True)
class ExportResult:
    spaces: tuple[str, ...]
    counts: dict[str, int]
    digest: str
    key_id: str
    bytes: int
    manifest: dict[str, Any] = field(repr=False, default_factory=dict)

    def __str__(self) -> str:
        parts = ", ".join(plural(n, kind, PLURALS.get(kind))
                          for kind, n in self.counts.items() if kind not in ("header",))
        return (f"exported {parts or 'nothing'} from {len(self.spaces)} space(s);"
                f" hash {self.digest[:16]}…, signed by key {self.key_id}")


def _order(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Fact ids by recording time, each after the facts it points at (Kahn's algorithm with
    the recording order as the tie-break; a cycle, which the writes never make, falls back
    to the recording order). Facts recorded at one instant (one write) follow their slot and
    value before their id, so a copy whose ids were re-derived lists them in the same order."""
    rank = {r["id"]: (as_time(r["recorded_at"]) or datetime.min.replace(tzinfo=UTC),
                      r["subject"], r["scope"], r["value"], r["id"]) for r in rows}
    waiting = {r["id"]: {t for t in r["targets"] if t in rank and t != r["id"]} for r in rows}
    users: dict[str, list[str]] = {}
    for fact_id, targets in waiting.items():
        for target in targets:
            users.setdefault(target, []).append(fact_id)
    ready = [(rank[i], i) for i, targets in waiting.items() if not targets]
    heapq.heapify(ready)
    out: list[str] = []
    while ready:
        _, fact_id = heapq.heappop(ready)
        out.append(fact_id)
        for user in users.get(fact_id, ()):
            waiting[user].discard(fact_id)
            if not waiting[user]:
                heapq.heappush(ready, (rank[user], user))
    if len(out) < len(rank):
        placed = set(out)
        out += sorted((i for i in rank if i not in placed), key=lambda i: rank[i])
    return out


class SpaceExport:
    """The records of one space, read a page at a time."""

    def __init__(self, runtime: Runtime, space: str, req: ExportRequest) -> None:
        self.runtime = runtime
        self.space = space
        self.req = req
        self.flagged: dict[str, dict[str, Any]] = {}

    def size(self) -> dict[str, Any]:
        return self.runtime.graph.read("transfer/export_space", space=self.space)[0]

    def space_record(self, row: dict[str, Any]) -> dict[str, Any]:
        policy = row.get("policy")
        return {"type": "space", "space": self.space,
                "policy": json.loads(policy) if policy else None,
                "relation_labels": list(row.get("relation_labels") or []),
                "retention_days": relational.retention_days(self.runtime.store, self.space)}

    def facts(self) -> Iterator[dict[str, Any]]:
        graph = self.runtime.graph
        order = _order(graph.read("transfer/export_order", space=self.space))
        for start in range(0, len(order), PAGE):
            ids = order[start:start + PAGE]
            rows = {r["fact"]["id"]: r["fact"] for r in graph.read(
                "transfer/export_facts", space=self.space, ids=ids)}
            for fact_id in ids:
                if fact_id not in rows:
                    continue  # erased while the export ran
                record = records.fact_record(rows[fact_id], self.space)
                found = record if self.req.as_of is None else asof.fact(record, self.req.as_of)
                if found is None:
                    continue
                if found["status"] == "FLAGGED_CONFLICT":
                    self.flagged[found["id"]] = found
                yield found

    def entities(self) -> Iterator[dict[str, Any]]:
        for row in self.runtime.graph.read("transfer/export_entities", space=self.space):
            record = records.entity_record(row["entity"], self.space)
            if self.req.as_of is None or asof.made_by(record, self.req.as_of):
                yield record

    def conflicts(self) -> list[dict[str, Any]]:
        out = []
        for row in self.runtime.graph.read("transfer/export_conflicts", space=self.space):
            record = records.conflict_record(row["conflict"], self.space)
            found = record if self.req.as_of is None else asof.conflict(record,
                                                                        self.req.as_of)
            if found is not None:
                out.append(found)
        return out

    def decisions(self) -> Iterator[dict[str, Any]]:
        yield from relational.decisions(self.runtime.store, self.runtime.mirror.cipher,
                                        self.space, self.req.decrypt, self.req.as_of)


def export(runtime: Runtime, req: ExportRequest, out: IO[str],
           progress: Progress | None = None) -> ExportResult:
    """Write the spaces' records and the signed manifest to `out`."""
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
