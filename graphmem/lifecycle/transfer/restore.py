"""Restore: an export's records as they are, into empty spaces.

The whole file is checked first (the hash chain, the counts, the signature: see `codec`);
a file that fails is refused with the line that fails and nothing is written. Then the
records are written in batches, in file order, each batch one write transaction under the
space's lock: its facts and links as exported (original times and statuses), their
projection onto the entity graph, the entities, conflicts and space properties beside them,
an `import` outbox entry carrying all of it (so the mirror follows, the audit row is
committed with it, and `graph restore --from-mirror` replays it the same way), and the
import's checkpoint. Decisions and
the retention period go to the relational store first, idempotently. A re-run of the same
file after an interruption continues after the last committed batch.

Ids are kept, so references to them stay valid in another deployment; when the graph
already holds the file's ids (a copy into a second space of the same deployment) every id
is re-derived for the target space, the same way on every run.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from neo4j import ManagedTransaction

from graphmem.errors import InvalidInput
from graphmem.graph import imports, projection, spaces
from graphmem.graph.imports import Checkpoint
from graphmem.graph.outbox import Outbox
from graphmem.lifecycle.clients import Clients
from graphmem.lifecycle.erasure import set_retention
from graphmem.lifecycle.transfer import codec, records
from graphmem.mirror import transfer_rows
from graphmem.model.audit import AuditCall
from graphmem.model.transfer import ImportReport
from graphmem.recall import relation_schema
from graphmem.remember.policy import make_policy, policy_to_json

Opener = Callable[[], IO[str]]
Progress = Callable[[int, int], None]
Index = Callable[[str, list[str]], None]


class SpaceNotEmpty(InvalidInput):
    """A restore writes only into an empty space, so it never mixes with what is there: the
    caller chose the wrong space or the wrong mode, and is told which."""


def import_id(target: str, digest: str, mode: str) -> str:
    return "i" + hashlib.sha256(f"{target}\x00{digest}\x00{mode}".encode()).hexdigest()[:16]


def derive(space: str, old: str) -> str:
    """The id a record gets in `space` when its own is taken: stable, so a re-run agrees."""
    return old[:1] + hashlib.sha256(f"{space}\x00{old}".encode()).hexdigest()[:12]


def _remapper(space: str, remap: bool) -> records.Remap:
    return (lambda old: derive(space, old)) if remap else (lambda old: old)


# ---- what one batch writes, live and when the mirror's log is replayed -----------------------
class BrokenLinks(InvalidInput):
    """A link of the export names a fact that is not there to link to: the export is
    damaged or cut short."""


def apply_import(tx: ManagedTransaction, space: str, now: datetime,
                 event: dict[str, Any]) -> None:
    """Everything an `import` event restores, in the caller's transaction (which holds the
    space's lock): its facts and links, their projection onto the entity graph, then the
    entities as exported (their names and times), the conflicts with their outcome and the
    space's own properties (the relation labels whole, so their order is the exporter's)."""
    part = event.get("batch") or {}
    facts = list(part.get("facts", []))
    links = {k: list(part.get(k, [])) for k in records.LINKS}
    written = imports.restore_facts(tx, space, facts, links)
    for kind, expected in links.items():
        if written[kind] != len(expected):
            raise BrokenLinks(f"{len(expected) - written[kind]} {kind} link(s) of the import"
                              " name facts the space does not hold")
    projection.project(tx, space, now, facts)
    own = event.get("space")
    if own is not None:
        imports.restore_space(tx, space, own.get("policy"), list(own.get("labels") or []),
                              own.get("schema"), own.get("described"))
    imports.restore_entities(tx, space, [{k: v for k, v in e.items() if k != "fact_ids"}
                                         for e in event.get("entities", [])])
    imports.restore_conflicts(tx, space, list(event.get("conflicts", [])))


def _write(tx: ManagedTransaction, outbox: Outbox, event: dict[str, Any], point: Checkpoint,
           lines: tuple[int, int], written: int, done: bool) -> None:
    now = datetime.now(UTC)
    spaces.lock(tx, outbox.space, now)
    imports.expect(tx, point, lines[0])
    apply_import(tx, outbox.space, now, event)
    outbox.record(tx, "import", event, now)
    imports.advance(tx, point, lines[0], lines[1], written, done, now)


# ---- reading the file into batches -------------------------------------------------------------
_LISTS = {"fact": "facts", "entity": "entities", "conflict": "conflicts",
          "decision": "decisions"}


@dataclass
class _Pending:
    """Records of one source space, read but not yet written."""

    space: str
    last: int = 0
    facts: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    own: dict[str, Any] | None = None
    read: int = 0

    def add(self, line: codec.Line) -> None:
        kind = line.record["type"]
        self.last = line.number
        self.read += 1
        if kind == "space":
            self.own = line.record
        elif kind in _LISTS:
            getattr(self, _LISTS[kind]).append(line.record)


@dataclass(frozen=True)
class _Plan:
    source: str
    target: str
    point: Checkpoint


class Restore:
    """One restore of a checked export into its target spaces."""

    def __init__(self, runtime: Clients, call: AuditCall | None, verified: codec.Verified,
                 targets: dict[str, str], batch: int, index: Index,
                 progress: Progress | None = None,
                 source_of: Callable[[str], str] = str) -> None:
        self.runtime = runtime
        self.call = call
        self.verified = verified
        self.targets = targets
        self.batch = batch
        self.index = index
        self.progress = progress
        self.source_of = source_of  # a fact's source as this caller may record it
        self.written: Counter[str] = Counter()
        self.sealed = 0
        self.at: dict[str, int] = {}  # each target's checkpoint line as this run left it

    def plan(self, ids: dict[str, list[str]]) -> dict[str, _Plan]:
        """Each source space's target and checkpoint; refuses a target that holds memory
        this import did not write."""
        plans = {}
        for source, target in self.targets.items():
            key = import_id(target, self.verified.digest, "restore")
            point = imports.checkpoint(self.runtime.graph, target, key)
            if point is None:
                held = imports.content(self.runtime.graph, target)
                if held:
                    raise SpaceNotEmpty(
                        f"space {target} already holds {held} memory node(s): a restore"
                        " writes only into an empty space (choose a new space, or import"
                        " in replay mode to reconcile into this one)")
                remap = imports.taken(self.runtime.graph, ids.get(source, []))
                point = Checkpoint(key, target, "restore", self.verified.digest, 0, False,
                                   remap)
            plans[source] = _Plan(source, target, point)
            self.at[target] = point.line
        return plans

    def run(self, opener: Opener, plans: dict[str, _Plan]) -> ImportReport:
        total = int(self.verified.manifest.get("records", 0))
        targets = tuple(p.target for p in plans.values())
        if all(p.point.done for p in plans.values()):
            return ImportReport("restore", "graphmem", targets, total - 1, already=True)
        skipped = read = 0
        pending: _Pending | None = None
        with opener() as stream:
            for line in codec.read(stream, self.verified):
                kind = line.record["type"]
                if kind == "header":
                    continue
                read += 1
                plan = plans[str(line.record["space"])]
                if plan.point.done or line.number <= plan.point.line:
                    skipped += 1
                    continue
                if pending is not None and (pending.space != plan.source
                                            or pending.read >= self.batch):
                    self._flush(pending, plans, done=False)
                    self._report(read, total)
                    pending = None
                pending = pending or _Pending(plan.source)
                pending.add(line)
        if pending is not None:
            self._flush(pending, plans, done=True)
        self._finish(plans)
        self._report(total, total)
        notes = (f"{self.sealed} decision(s) were exported sealed: restored without their"
                 " action, snapshot and receipt",) if self.sealed else ()
        return ImportReport("restore", "graphmem", targets, read, dict(+self.written),
                            skipped=skipped, unmapped=notes,
                            remapped=any(p.point.remap for p in plans.values()))

    def _report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def _flush(self, pending: _Pending, plans: dict[str, _Plan], done: bool) -> None:
        plan = plans[pending.space]
        target, point = plan.target, plan.point
        remap = _remapper(target, point.remap)
        store, cipher = self.runtime.store, self.runtime.mirror.cipher
        for decision in pending.decisions:  # idempotent: safe before the graph commit
            transfer_rows.restore_decision(store, cipher, decision, target, remap)
            self.sealed += bool(decision.get("sealed"))
        if pending.own is not None:
            set_retention(store, target, pending.own.get("retention_days"))
        event = self._event(pending, target, point, remap)
        self.runtime.write(target, self.call, _write, event, point,
                           (self.at[target], pending.last), len(pending.facts), done)
        self.at[target] = pending.last
        self.written.update(facts=len(pending.facts), entities=len(pending.entities),
                            conflicts=len(pending.conflicts), decisions=len(pending.decisions))
        self.index(target, [remap(str(f["id"])) for f in pending.facts])

    def _event(self, pending: _Pending, target: str, point: Checkpoint,
               remap: records.Remap) -> dict[str, Any]:
        own = None
        if pending.own is not None:
            policy = pending.own.get("policy")
            own = {"policy": None if policy is None else policy_to_json(make_policy(
                policy.get("mode", "RECENCY"), policy.get("authority"),
                policy.get("curated", ()))),
                "labels": list(pending.own.get("relation_labels") or []),
                **relations_of(pending.own)}
        return {
            "import": point.id, "space": own,
            "batch": {"facts": [records.fact_row(self._spoken(f), target, remap)
                                for f in pending.facts],
                      **{kind: [e for f in pending.facts
                                for e in records.link_rows(f, kind, remap)]
                         for kind in records.LINKS}},
            "entities": [records.entity_row(e, remap) for e in pending.entities],
            "conflicts": [records.conflict_row(c, target, remap) for c in pending.conflicts],
        }

    def _spoken(self, fact: dict[str, Any]) -> dict[str, Any]:
        source = str(fact.get("source") or "")
        return {**fact, "source": self.source_of(source)} if source else fact

    def _finish(self, plans: dict[str, _Plan]) -> None:
        """Spaces whose every record an earlier run wrote, but whose end it did not mark."""
        for plan in plans.values():
            point = imports.checkpoint(self.runtime.graph, plan.target, plan.point.id)
            if point is not None and not point.done:
                self.runtime.write(plan.target, None, _mark_done, point,
                                   self.at[plan.target])


def _mark_done(tx: ManagedTransaction, outbox: Outbox, point: Checkpoint, line: int) -> None:
    now = datetime.now(UTC)
    spaces.lock(tx, outbox.space, now)
    imports.advance(tx, point, line, line, 0, True, now)


def collect_ids(ids: dict[str, list[str]],
                settings: list[str] | None = None) -> Callable[[dict[str, Any]], None]:
    """A visitor for `codec.verify`: the fact and conflict ids of each source space, and in
    `settings` what the file would set that only an admin may (`admin_settings`)."""
    def visit(record: dict[str, Any]) -> None:
        if record["type"] in ("fact", "conflict"):
            ids.setdefault(str(record["space"]), []).append(str(record["id"]))
        elif record["type"] == "space" and settings is not None:
            settings.extend(f"{what} of space {record['space']}"
                            for what in admin_settings(record))
    return visit


def admin_settings(space: Mapping[str, Any]) -> list[str]:
    """What a space record sets that only an admin may: a reconcile policy other than the
    default (a mode, authority ranks, curated sources), a retention period."""
    found = []
    policy = space.get("policy") or {}
    if policy.get("mode", "RECENCY") != "RECENCY" or policy.get("authority"):
        found.append("the reconcile policy")
    if policy.get("curated"):
        found.append("the curated sources")
    if space.get("retention_days") is not None:
        found.append("the retention period")
    if space.get("relation_schema") or space.get("relation_descriptions"):
        found.append("the relation schema")
    return found


def relations_of(space: Mapping[str, Any]) -> dict[str, str | None]:
    """A space record's relation schema and descriptions, checked, as the JSON the Space
    node keeps (a malformed one is refused with the reason)."""
    schema = space.get("relation_schema")
    described = space.get("relation_descriptions")
    return {"schema": None if not schema else relation_schema.schema_to_json(
                relation_schema.schema_from_json(json.dumps(schema))),
            "described": None if not described else relation_schema.descriptions_to_json(
                relation_schema.descriptions_from_json(json.dumps(described)))}


def lines(opener: Opener, verified: codec.Verified) -> Iterator[tuple[int, dict[str, Any]]]:
    with opener() as stream:
        for line in codec.read(stream, verified):
            yield line.number, line.record
