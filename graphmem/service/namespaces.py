"""The audited namespaces of `GraphMem` beyond its core verbs (`mem.review`,
`mem.entities`, `mem.records`, `mem.erasure`, `mem.transfer`).

Each method is one audited call of a collaborator, exactly as a core verb is: the audit
row names the operation by its flat name (`create_entity`, `list_facts`), the name GraphQL
and MCP audit it under too, and the collaborator checks the caller's capability.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any, TypeVar

from graphmem import consistency
from graphmem.errors import InvalidInput
from graphmem.graph import projection
from graphmem.lifecycle import fsck
from graphmem.model import NOW, Conflict, Fact, Policy, Result, When
from graphmem.model.audit import AuditCall, AuditRow, ChainReport
from graphmem.model.differences import Clock, SlotChange
from graphmem.model.entities import Entity, EntityView, SweepResult, Vocabulary
from graphmem.model.fsck import Report
from graphmem.model.history import History, HistoryEntry
from graphmem.model.listings import ConflictFilter, EntityFilter, FactFilter
from graphmem.model.paging import Page, Window
from graphmem.model.paths import Related
from graphmem.model.recall import ActCheck
from graphmem.model.receipts import Verdict
from graphmem.model.relations import (
    RelationDeclaration,
    RelationDescription,
    RelationInfo,
    RelationSchema,
)
from graphmem.model.stats import SpaceInfo, SpaceStats
from graphmem.model.transfer import ExportResult, ImportReport
from graphmem.model.undo import UndoResult
from graphmem.service.audit import Auditor
from graphmem.service.context import SpaceContext
from graphmem.service.entities import EntityGraph
from graphmem.service.erasure import Erasure
from graphmem.service.reads import Listing, Reads
from graphmem.service.records import Records
from graphmem.service.review import Review
from graphmem.service.transfer import Transfer
from graphmem.service.undo import Undo
from graphmem.service.writes import Writes

T = TypeVar("T")


@dataclass(frozen=True)
class Collaborators:
    """The parts one space's operations run on, built once per `GraphMem`."""

    ctx: SpaceContext
    auditor: Auditor
    writes: Writes
    reads: Reads
    review: Review
    graph: EntityGraph
    records: Records
    erasure: Erasure
    transfer: Transfer


class _Namespace:
    def __init__(self, parts: Collaborators) -> None:
        self._ctx = parts.ctx
        self._auditor = parts.auditor
        self._writes = parts.writes
        self._reads = parts.reads
        self._review = parts.review
        self._graph = parts.graph
        self._records = parts.records
        self._erasure = parts.erasure
        self._transfer = parts.transfer

    def _run(self, operation: str, work: Callable[[AuditCall], T]) -> T:
        """One public operation with its audit row (see graphmem.service.audit)."""
        return self._auditor.run(operation, work)

    def _window(self, kind: str, first: int | None, after: str | None, last: int | None,
                before: str | None, count: bool) -> Window:
        return self._ctx.window(kind, first, after, last, before, count)


class ReviewDesk(_Namespace):
    """What waits for a person: flagged facts, pending proposals, conflicts and their
    settlement, and the space's reconcile policy."""

    def flagged(self) -> list[Fact]:
        return self._run("flagged", lambda call: self._reads.flagged())

    def pending(self) -> list[Fact]:
        """Confirm-gate proposals waiting for someone with the approve capability."""
        return self._run("pending", lambda call: self._reads.pending())

    def pending_changes(self, when: When = NOW, *, first: int | None = None,
                        after: str | None = None, last: int | None = None,
                        before: str | None = None, count: bool = True) -> Page[Fact]:
        """Confirm-gate proposals waiting for someone with the approve capability."""
        return self._run("pending_changes", lambda call: self._reads.pending_page(
            when, self._window("fact", first, after, last, before, count)))

    def conflicts(self, status: str | None = "open") -> list[Conflict]:
        return self._run("conflicts", lambda call: self._reads.conflicts(status))

    def list_conflicts(self, where: ConflictFilter | None = None, when: When = NOW, *,
                       first: int | None = None, after: str | None = None,
                       last: int | None = None, before: str | None = None,
                       count: bool = True) -> Page[Conflict]:
        return self._run("list_conflicts", lambda call: self._reads.conflicts_page(
            where or ConflictFilter(), when, self._window("conflict", first, after, last,
                                                          before, count)))

    def conflict(self, conflict_id: str) -> Conflict:
        return self._run("conflict", lambda call: self._reads.conflict(conflict_id))

    def confirm(self, fact_id: str) -> Result:
        """Apply a pending proposal (needs approve); the result says what it applied
        (`Stored: [SUPERSEDE] code_status = DNR`)."""
        return self._run("confirm", lambda call: self._review.confirm(call, fact_id))

    def reject(self, fact_id: str) -> Result:
        """Retire a pending proposal as history (`Rejected: [SUPERSEDE] …`)."""
        return self._run("reject", lambda call: self._review.reject(call, fact_id))

    def resolve_conflict(self, conflict_id: str, winner: str, note: str = "",
                         by: str = "") -> Result:
        """One claim wins; every other held claim of the conflict is superseded by it."""
        return self._run("resolve_conflict", lambda call: self._review.resolve_conflict(
            call, conflict_id, winner, note, by))

    def dismiss_conflict(self, conflict_id: str, note: str = "", by: str = "") -> Result:
        """Both claims valid (different contexts): held facts become active beside the rest."""
        return self._run("dismiss_conflict", lambda call: self._review.dismiss_conflict(
            call, conflict_id, note, by))

    def undo(self, event_id: str, force: bool = False) -> UndoResult:
        """Revert what one event did (a write's `event_id`, a settlement's, an undo's): what
        it made current is retired, what it retired returns, its flags are withdrawn and its
        refinements refined back; the undo is an event of its own, so undoing it redoes.
        Refused, naming the blocking facts, when later writes built on the event, unless an
        approver passes `force`."""
        undo = Undo(self._ctx, self._writes)
        return self._run("undo", lambda call: undo.undo(call, event_id, force))

    def set_reconcile_policy(self, mode: str, authority: Mapping[str, int] | None = None,
                             curated: Iterable[str] = ()) -> str:
        """How cross-source conflicts resolve in this space (needs admin)."""
        return self._run("set_reconcile_policy", lambda call: self._writes.set_reconcile_policy(
            call, mode, authority, curated))

    def get_reconcile_policy(self) -> Policy:
        return self._run("get_reconcile_policy",
                         lambda call: self._writes.get_reconcile_policy())


class Entities(_Namespace):
    """The entity graph the facts project into: entities, their attributes and edges,
    neighbourhoods and the projection's upkeep."""

    def create(self, type: str, name: str) -> Entity:
        """Seed a canonical entity before ingestion so later mentions land on it."""
        return self._run("create_entity",
                         lambda call: self._graph.create_entity(call, type, name))

    def all(self, type: str | None = None,
            as_of: datetime | None = None) -> list[Entity]:
        return self._run("entities", lambda call: self._graph.entities(type, as_of))

    def get(self, type: str, name: str, as_of: datetime | None = None,
            valid_at: datetime | None = None) -> EntityView:
        """The entity's active attributes and edges (or those held/valid at an instant)."""
        return self._run("entity", lambda call: self._graph.entity(type, name, as_of, valid_at))

    def neighbourhood(self, type: str, name: str, hops: int = 1, as_of: datetime | None = None,
                      valid_at: datetime | None = None, limit: int = 50) -> Related:
        return self._run("neighbourhood", lambda call: self._graph.recall_related(
            None, [(type, name)], hops, as_of, valid_at, limit, answer=False))

    def relations(self) -> list[RelationInfo]:
        """Each relation type of the space and what reads it: its labels, the types of its
        ends, its readings with the source of each (declared, model, text, lexicon, label)."""
        return self._run("relations", lambda call: self._graph.relations())

    def relation_schema(self) -> RelationSchema:
        """The space's declared relations, with the schema's version."""
        return self._run("relation_schema", lambda call: self._graph.relation_schema())

    def declare_relations(self, relations: Iterable[Mapping[str, Any] | RelationDeclaration],
                          replace: bool = False) -> RelationSchema:
        """Declare relations (admin): per relation a `label`, a `description`, `forward`
        and `inverse` verb phrases, `head_nouns` and `tail_nouns`, the ends' types and a
        cardinality. A declared relation's readings are trusted first by recall_related.
        `replace` drops the declarations not given; the version goes up by one."""
        return self._run("declare_relations", lambda call: self._graph.declare_relations(
            call, list(relations), replace))

    def describe_relations(self, force: bool = False) -> list[RelationDescription]:
        """Have the configured model describe each relation type no declaration or earlier
        description covers (every one with `force`): one call per relation type."""
        return self._run("describe_relations",
                         lambda call: self._graph.describe_relations(call, force))

    def history(self, type: str, name: str, key: str) -> History:
        """The supersession chain of one attribute of an entity, oldest → newest."""
        return self._run("entity_history",
                         lambda call: self._graph.entity_history(type, name, key))

    def history_page(self, type: str, name: str, attribute: str,
                     scope: str | None = None, when: When = NOW, *,
                     first: int | None = None, after: str | None = None,
                     last: int | None = None, before: str | None = None,
                     count: bool = True) -> Page[HistoryEntry]:
        return self._run("entity_history_page", lambda call: self._graph.entity_history_page(
            type, name, attribute, scope, when,
            self._window("entry", first, after, last, before, count)))

    def page(self, where: EntityFilter | None = None, when: When = NOW, *,
             first: int | None = None, after: str | None = None,
             last: int | None = None, before: str | None = None,
             count: bool = True) -> Page[Entity]:
        """Entities by type or by a part of a name they go by, a page at a time."""
        return self._run("list_entities", lambda call: self._graph.entities_page(
            where or EntityFilter(), when, self._window("entity", first, after, last, before,
                                                        count)))

    def by_key(self, key: str) -> Entity:
        return self._run("entity_by_key", lambda call: self._graph.entity_by_key(key))

    def aliases(self, keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """For each entity key, the spellings facts used for it other than its name."""
        return self._run("entity_aliases", lambda call: self._graph.aliases(keys))

    def vocabulary(self, limit: int = 200, when: When = NOW) -> Vocabulary:
        """Known entity names and relation labels, for the extraction prompt."""
        return self._run("graph_vocabulary", lambda call: self._graph.vocabulary(limit, when))

    def rebuild_projection(self) -> projection.RebuildResult:
        return self._run("rebuild_projection",
                         lambda call: self._graph.rebuild_projection(call))

    def sweep_placeholders(self) -> SweepResult:
        return self._run("sweep_placeholders",
                         lambda call: self._graph.sweep_placeholders(call))


class RecordsDesk(_Namespace):
    """What memory holds and what happened to it: facts by id and by page, counts, the
    space listing, the check before an action, the write path's catching up (prefilter,
    embeddings); the signed record (the audit chain and log, decision and state receipts),
    the consistency check of the space and the mirror's drain."""


    def prefilter(self, text: str) -> list[Result] | None:
        """The dedup prefilter: the exact message already produced facts, all still ACTIVE."""
        return self._run("prefilter", lambda call: self._writes.prefilter(text))

    def wait_for_embeddings(self, timeout: float | None = None) -> bool:
        """Block until this process's queued fact embeddings are stored (tools, tests, batch
        jobs that rank right after loading); False when `timeout` seconds pass first."""
        runtime = self._ctx.runtime
        return self._run("wait_for_embeddings", lambda call: (
            not runtime.has_embed_worker or runtime.embed_worker.flush(timeout)))

    def check_before_act(self, subjects: Iterable[str],
                         max_age: timedelta | float | None = None,
                         as_of: datetime | None = None,
                         valid_at: datetime | None = None) -> ActCheck:
        """Refuses, with reasons, when a fact the action depends on is not safe to use (as
        it would have at `as_of`; only facts true at `valid_at` when given)."""
        return self._run("check_before_act", lambda call: self._reads.check_before_act(
            subjects, max_age, When(as_of=as_of, valid_at=valid_at)))

    def fact(self, fact_id: str, as_of: datetime | None = None) -> Fact:
        """One fact by id (as memory held it at `as_of`, when given)."""
        return self._run("fact", lambda call: self._reads.fact(fact_id, as_of))

    def facts_by_id(self, ids: Iterable[str], as_of: datetime | None = None
                    ) -> dict[str, Fact]:
        """Facts by id in one read (as they stood at `as_of`); unknown ids are absent."""
        return self._run("facts_by_id", lambda call: self._reads.facts_by_id(ids, as_of))

    def superseded_by(self, ids: Iterable[str], as_of: datetime | None = None
                      ) -> dict[str, Fact]:
        """For each fact id, the fact that superseded (or the tombstone that retracted) it."""
        return self._run("superseded_by", lambda call: self._reads.superseded_by(ids, as_of))

    def read_after(self, token: str) -> AbstractContextManager[consistency.Tracker]:
        """Reads inside the block first wait for the state a write's `consistency_token`
        names, on whichever server serves them: read-your-writes across hosts."""
        return consistency.tracking(after=token)

    def list_memories(self, *, first: int | None = None, after: str | None = None) -> Listing:
        """Active and flagged facts, then the 20 most recently retired; with `first` one
        page of them (`after`: the previous page's `next_cursor`)."""
        window = (None if first is None and after is None else
                  self._window("fact", first, after, None, None, False))
        return self._run("list_memories", lambda call: self._reads.list_memories(window))

    def page(self, where: FactFilter | None = None, when: When = NOW, *,
             first: int | None = None, after: str | None = None, last: int | None = None,
             before: str | None = None, count: bool = True) -> Page[Fact]:
        """Facts of any status, filtered, at any point of either clock, a page at a time
        (`first`/`after` forwards, `last`/`before` backwards, cursors from a page)."""
        return self._run("list_facts", lambda call: self._reads.facts_page(
            where or FactFilter(), when, self._window("fact", first, after, last, before,
                                                      count)))

    def history_page(self, subject: str, scope: str | None = None, when: When = NOW, *,
                     first: int | None = None, after: str | None = None,
                     last: int | None = None, before: str | None = None,
                     count: bool = True) -> Page[HistoryEntry]:
        """A page of a subject's timeline, oldest → newest (`last` reads it backwards)."""
        return self._run("history_page", lambda call: self._reads.history_page(
            subject, scope, when, self._window("entry", first, after, last, before, count)))

    def changes(self, from_: datetime, to: datetime | None = None,
                clock: Clock | str = Clock.RECORDED, subject: str | None = None, *,
                first: int | None = None, after: str | None = None, last: int | None = None,
                before: str | None = None, count: bool = True) -> Page[SlotChange]:
        """What changed between two instants: each slot whose current facts at `from_`
        differ from those at `to` (now when None), on the RECORDED clock (what memory held)
        or the VALID one (what was true in the world), with the events that did it; a page
        of slots at a time, in (subject, scope) order."""
        return self._run("changes", lambda call: self._reads.changes(
            from_, to, clock, subject, self._window("slot", first, after, last, before,
                                                    count)))

    def stats(self, when: When = NOW) -> SpaceStats:
        """Counts of the space's facts by status, open conflicts, pending proposals and
        entities, by aggregation."""
        return self._run("stats", lambda call: self._reads.stats(when))

    def spaces(self, *, first: int | None = None, after: str | None = None,
               last: int | None = None, before: str | None = None,
               count: bool = True) -> Page[SpaceInfo]:
        """The spaces of this space's tenant that something wrote to."""
        return self._run("spaces", lambda call: self._reads.spaces_page(
            self._window("space", first, after, last, before, count)))

    def space_info(self) -> SpaceInfo:
        """This space, when something wrote to it (NotFound otherwise)."""
        return self._run("space_info", lambda call: self._reads.space_info())

    def spaces_stats(self, keys: Iterable[str], when: When = NOW) -> dict[str, SpaceStats]:
        return self._run("spaces_stats", lambda call: self._reads.spaces_stats(keys, when))


    def verify_audit(self, deep: bool = False, receipt: Mapping[str, Any] | None = None,
                     tenant: str | None = None) -> ChainReport:
        """Check the whole audit chain: hashes, links, the signed head, the checkpoint file
        and the event log (`deep`: every row's signature too; `receipt`: the chain must still
        hold the head it saw; `tenant`: report for that tenant only)."""
        return self._run("verify_audit", lambda call: self._records.verify_audit(
            deep, receipt, tenant))

    def audit_log(self, limit: int = 50, before: int | None = None,
                  operation: str | None = None) -> list[AuditRow]:
        """This tenant's audit rows, newest first."""
        return self._run("audit_log",
                         lambda call: self._records.audit_log(limit, before, operation))

    def audit_page(self, *, first: int | None = None, after: str | None = None,
                   operation: str | None = None, count: bool = True
                   ) -> Page[AuditRow]:
        """This tenant's audit rows newest first, a page at a time."""
        return self._run("audit_page", lambda call: self._records.audit_page(
            self._window("audit", first, after, None, None, count), operation))

    def audit_entry(self, seq: int) -> AuditRow:
        return self._run("audit_entry", lambda call: self._records.audit_entry(seq))

    def record_decision(self, action: str, subjects: Iterable[str]) -> dict[str, Any]:
        """Snapshot the exact ACTIVE facts of the subjects an action relied on; returns the
        signed decision receipt with the snapshot beside it."""
        return self._run("record_decision",
                         lambda call: self._records.record_decision(action, subjects))

    def attest(self, subjects: Iterable[str] | None = None) -> dict[str, Any]:
        """A signed statement of what memory holds now (the ACTIVE facts of the space, or of
        some subjects) and where the audit chain stands."""
        return self._run("attest", lambda call: self._records.attest(subjects))

    def receipt(self, receipt_id: str) -> dict[str, Any]:
        """A receipt issued earlier, found only from inside its tenant."""
        return self._run("receipt", lambda call: self._records.receipt(receipt_id))

    def export_public_key(self) -> str:
        """The current signing public key (PEM): all a third party needs for verify_receipt."""
        return self._records.export_public_key()

    def verify_receipt(self, receipt: Mapping[str, Any], public_key: str | None = None
                       ) -> Verdict:
        """Check a receipt against `public_key` alone when given (what a third party holds),
        else against this deployment's keys, retired ones included. Audited either way."""
        return self._run("verify_receipt",
                         lambda call: self._records.verify_receipt(receipt, public_key))

    def fsck(self, strict: bool = False) -> Report:
        def check(call: AuditCall) -> Report:
            self._ctx.require("verify")
            return fsck.fsck(self._ctx.runtime, self._ctx.key, strict)

        return self._run("fsck", check)

    def drain(self) -> int:
        """Apply this space's pending outbox entries to the mirror now (a background thread
        normally does it within milliseconds of each write); returns how many were applied."""
        return self._ctx.runtime.mirror.drain([self._ctx.key])


class ErasureDesk(_Namespace):
    """Erasure for good (one fact, a subject, the space, a user's or tenant's spaces)
    and the retention of history, each with a signed receipt."""

    def delete(self, fact_id: str | None = None, subject: str | None = None) -> dict[str, Any]:
        """Erase one fact (with the tombstones naming it) or every fact of a subject, from
        the graph, the mirror, embeddings and caches; returns a signed receipt."""
        return self._run("delete", lambda call: self._erasure.delete(call, fact_id, subject))

    def delete_all(self) -> dict[str, Any]:
        """Erase every fact, conflict and entity of this space."""
        return self._run("delete_all", lambda call: self._erasure.delete_all(call))

    def purge_expired(self, retention: timedelta | float | None = None) -> dict[str, Any]:
        """Erase retired history (superseded, retracted, historical) older than the retention
        period in days: the one given, else the space's (set_retention), else
        GRAPHMEM_RETENTION_DAYS."""
        return self._run("purge_expired",
                         lambda call: self._erasure.purge_expired(call, retention))

    def set_retention(self, days: timedelta | float | None) -> str:
        """This space's retention period for purge_expired (None: back to the default)."""
        return self._run("set_retention", lambda call: self._erasure.set_retention(days))

    def erase_subtree(self, level: str = "user") -> dict[str, Any]:
        """Erase every space of this space's user (level 'user') or tenant ('tenant')."""
        return self._run("erase_subtree",
                         lambda call: self._erasure.erase_subtree(call, level))


class _Bounded(io.StringIO):
    """An export in memory that stops once it grows past the inline limit."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.size = 0

    def write(self, text: str, /) -> int:
        self.size += len(text.encode())
        if self.size > self.limit:
            raise InvalidInput(f"the export is larger than GRAPHMEM_EXPORT_INLINE_MAX"
                               f" ({self.limit} bytes): use `graphmem export`")
        return super().write(text)


class TransferDesk(_Namespace):
    """The space's memory to and from files: signed exports, restores and replays."""

    def export(self, out: str | Path | IO[str], *, tenant: bool = False,
               as_of: datetime | None = None,
               progress: Callable[[int, int], None] | None = None) -> ExportResult:
        """Write this space's (with `tenant`, every space of its tenant) whole memory to a
        signed JSON Lines file: facts with every field and their links, entities, conflicts
        with their outcome, pending proposals, decisions; `as_of`: as memory held it then."""
        return self._run("export", lambda call: self._transfer.export(
            out, tenant, as_of, progress))

    def export_inline(self, as_of: datetime | None = None) -> tuple[str, ExportResult]:
        """The export as text, for a caller over the network: refused once it grows past
        GRAPHMEM_EXPORT_INLINE_MAX (`graphmem export` writes a file of any size)."""
        out = _Bounded(self._ctx.settings.export_inline_max)
        result = self.export(out, as_of=as_of)
        return out.getvalue(), result

    def import_text(self, data: str, *, mode: str = "auto", format: str = "auto",
                    public_key: str | None = None) -> ImportReport:
        """An import of a file's content sent over the network (bounded by the request's
        size), read as `import_memory` reads a file."""
        with tempfile.TemporaryDirectory(prefix="graphmem-import-") as folder:
            path = Path(folder) / "import"
            path.write_text(data, encoding="utf-8")
            return self.import_memory(path, mode=mode, format=format, public_key=public_key)

    def import_memory(self, source: str | Path, *, mode: str = "auto", format: str = "auto",
                      tenant: bool = False, public_key: str | None = None,
                      batch: int | None = None,
                      progress: Callable[[int, int], None] | None = None) -> ImportReport:
        """Import a file into this space (with `tenant`, each space of a tenant export into
        this tenant). `restore` (graphmem exports; the default for them) writes the records
        as they were into an empty space, after checking the file whole; `replay` (the only
        mode for other formats) reconciles each value at its original time. Needs write and
        backfill; a re-run after an interruption continues where it stopped."""
        return self._run("import", lambda call: self._transfer.import_memory(
            call, source, mode, format, tenant, public_key, batch, progress))
