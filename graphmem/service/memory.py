"""`GraphMem`: the Python API, one memory space per instance.

This is a public interface other tools drive; the GraphQL resolvers and the CLI call the
same operations. It holds no business rule itself: reconcile decides, the stores apply.
"""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from graphmem.errors import (
    AccessDenied,
    GraphMemError,
    InvalidInput,
    LLMUnavailable,
    NotFound,
)
from graphmem.graph import entities as entity_store  # entity graph (issue 4)
from graphmem.graph import entity_reads, projection, reads
from graphmem.recall import related
from graphmem.recall import related_answer
from graphmem.graph import fsck as fsck_checks
from graphmem.graph.driver import run, unavailable
from graphmem.graph.facts import row_to_fact
from graphmem.mirror import outbox as mirror_outbox  # issue 7
from graphmem.service.records import MirrorOperations, audit_operations  # issue 7
from graphmem.model import (
    Action,
    Conflict,
    ConflictKind,
    ConflictStatus,
    Fact,
    Policy,
    Proposal,
    Result,
    Space,
    Status,
)
from graphmem.recall.answer import Recall
from graphmem.recall.check import ActCheck, check_before_act
from graphmem.recall.embed_worker import EmbedWorker
from graphmem.recall.pipeline import RecallRequest, recall
from graphmem.recall.retrieve import Ranker
from graphmem.recall.vectors import VectorIndex, written_ids
from graphmem.remember import approve
from graphmem.remember.extract import extract, usable
from graphmem.remember.extract_context import extraction_input
from graphmem.remember.pipeline import WriteRequest, load_states, message_key, write_proposals
from graphmem.remember.policy import describe, make_policy, policy_from_json, policy_to_json
from graphmem.remember.proposals import check_text, parse_proposals
from graphmem.remember.results import NO_FACTS, NOTHING_TO_RETRACT
from graphmem.remember.write import Batch, WriteInfo, apply_plan
from graphmem.service.runtime import Runtime
from graphmem.settings import Settings, load_settings
from graphmem.slots import SlotSchema, load_slot_schema

CAPABILITIES = frozenset({"read", "write", "delete", "verify", "approve", "admin"})


@dataclass(frozen=True)
class Caller:
    """Who is calling: the local process is an admin unless a principal is given."""

    name: str = "local"
    capabilities: frozenset[str] = CAPABILITIES

    def can(self, capability: str) -> bool:
        return capability in self.capabilities


@dataclass(frozen=True)
class Listing:
    """`list_memories`: active facts, flagged ones marked ⚠, the 20 most recent retired."""

    active: tuple[Fact, ...]
    flagged: tuple[Fact, ...]
    retired: tuple[Fact, ...]

    def __str__(self) -> str:
        lines = [f"#{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.active]
        lines += [f"⚠ #{f.id} {f.subject} = {f.value}" + _scope(f) for f in self.flagged]
        if self.retired:
            lines.append("Recently retired:")
            lines += [f"  #{f.id} {f.subject} = {f.value} [{f.status.value}]"
                      for f in self.retired]
        return "\n".join(lines) if lines else "No memories stored."


def _scope(f: Fact) -> str:
    return "" if f.scope == "global" else f" ({f.scope})"


def _now() -> datetime:
    return datetime.now(UTC)


@audit_operations  # issue 7: every public operation appends an audit row
class GraphMem(MirrorOperations):
    """Memory for one space; usable as a context manager."""

    def __init__(self, space: str | Space | None = None,
                 slot_schema: Mapping[str, Any] | str | SlotSchema | None = None,
                 policy: Mapping[str, Any] | None = None,
                 trusted_sources: Iterable[str] | None = None, *,
                 settings: Settings | None = None, runtime: Runtime | None = None,
                 caller: Caller | None = None) -> None:
        try:
            self.space = Space.parse(space)
        except ValueError as e:
            raise InvalidInput(str(e)) from None
        self.settings = settings or (runtime.settings if runtime else load_settings())
        schema_spec = slot_schema if slot_schema is not None else self.settings.slot_schema
        self.schema = load_slot_schema(schema_spec)
        self.policy: Policy | None = None
        if policy is not None:
            self.policy = make_policy(policy.get("mode", "RECENCY"), policy.get("authority"),
                                      policy.get("curated", ()))
        self.trusted = frozenset(trusted_sources if trusted_sources is not None
                                 else self.settings.trusted_sources)
        self.caller = caller or Caller()
        self._owns_runtime = runtime is None
        self.runtime = runtime or Runtime.open(self.settings)
        self.graph = self.runtime.graph

    # ---- lifecycle -----------------------------------------------------------------------
    def close(self) -> None:
        if self._owns_runtime:
            self.runtime.close()

    def __enter__(self) -> GraphMem:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def key(self) -> str:
        return self.space.key

    # ---- writes ----------------------------------------------------------------------------
    def remember_facts(self, facts: Sequence[Mapping[str, Any]], text: str = "",
                       source: str = "", metadata: Mapping[str, Any] | None = None,
                       source_ref: str = "") -> list[Result]:
        """Reconcile pre-extracted facts; one transaction under the space's lock."""
        proposals = parse_proposals(list(facts) if facts is not None else None, self.schema)
        return self._write(tuple(proposals), text, source, metadata, source_ref)

    def forget_facts(self, facts: Sequence[Mapping[str, Any]], text: str = "",
                     source: str = "", metadata: Mapping[str, Any] | None = None) -> list[Result]:
        """Retract: every fact's action is forced to RETRACT; no match says so plainly."""
        proposals = [p.with_changes(action=Action.RETRACT)
                     for p in parse_proposals(list(facts), self.schema)]
        results = self._write(tuple(proposals), text, source, metadata, "")
        return [Result(r.action, r.subject, r.value, r.fact_id, NOTHING_TO_RETRACT)
                if r.action == Action.SKIP else r for r in results]

    def _write(self, proposals: tuple[Proposal, ...], text: str, source: str,
               metadata: Mapping[str, Any] | None, source_ref: str) -> list[Result]:
        self._require("write")
        text = check_text(text)
        source = check_text(source, "source")[:200]
        if not proposals:
            return []
        trusted = self._entitled(source)
        info = WriteInfo(space=self.key, source=source, source_ref=source_ref, text=text,
                         metadata=dict(metadata or {}), message_key=message_key(text),
                         now=_now())
        req = WriteRequest(proposals, info, self.schema, self.policy, trusted,
                           self.settings.confidence_floor,
                           frozenset(self.settings.curated_sources),
                           self.settings.cluster_jaccard)  # issue 4: collisions
        results: list[Result] = self._in_write_tx(write_proposals, req)
        self._index(written_ids(results))  # issue 5: after commit
        return results

    def _index(self, fact_ids: list[str]) -> None:
        """Vectors for what a write created: in the background unless configured inline."""
        if fact_ids:
            self._ranker().written(self.key)  # full-text catches up before the next ranking
        if self.settings.embed_background:
            self._embed_worker().submit(self.key, fact_ids)
        else:
            self._ranker().vectors.store(self.key, fact_ids)

    def wait_for_embeddings(self, timeout: float | None = None) -> bool:
        """Block until this process's queued fact embeddings are stored (tools, tests, batch
        jobs that rank right after loading); False when `timeout` seconds pass first."""
        worker = self.runtime.extras.get("embed_worker")
        return worker is None or worker.flush(timeout)

    def _embed_worker(self) -> EmbedWorker:
        """One per Runtime; Runtime.close embeds what is queued before it stops."""
        runtime = self.runtime
        worker = runtime.extras.get("embed_worker")
        if worker is None:
            vectors = self._ranker().vectors
            worker = runtime.extras.setdefault("embed_worker", EmbedWorker(
                runtime.graph, vectors.store, runtime.settings.embed_wait))
        assert isinstance(worker, EmbedWorker)
        return worker

    def _ranked(self) -> Ranker:
        """The Ranker, once this process's writes to the space have their vectors."""
        if self.settings.embed_background:
            self._embed_worker().wait(self.key)
        return self._ranker()

    def _entitled(self, source: str) -> bool:
        """Only the principal of that name or an approver may write as a trusted source."""
        if source not in self.trusted:
            return False
        if self.caller.name == source or self.caller.can("approve"):
            return True
        raise AccessDenied(f"only {source!r} or a caller with approve may write as {source!r}")

    def _in_write_tx(self, fn: Any, *args: Any) -> Any:
        tx_fn = mirror_outbox.stamped(fn, self.key)  # issue 7: the audit row rides the outbox
        try:
            result = self.graph.execute(tx_fn, *args)  # issue 7: fails fast when Neo4j is down
        except (ServiceUnavailable, SessionExpired) as e:
            raise unavailable(self.settings, e) from e
        except Neo4jError as e:
            raise GraphMemError(f"Neo4j rejected the write: {e.message or e}") from e
        self.runtime.mirror.notify(self.key, tx_fn.entries)  # issue 7: applied now
        return result

    def prefilter(self, text: str) -> list[Result] | None:
        """The dedup prefilter: the exact message already produced facts, all still ACTIVE."""
        key = message_key(text)
        if key is None or not self.settings.dedup_prefilter:
            return None
        rows = self.graph.read("remember/message_facts", space=self.key, message_key=key)
        if not rows or any(r["status"] != Status.ACTIVE.value for r in rows):
            return None
        return [Result(Action.DEDUP, r["subject"], r["value"], r["id"],
                       f"Stored: [DEDUP] {r['subject']} = {r['value']}") for r in rows]

    # ---- remember(text) and recall (issue 5) ----------------------------------------------
    def remember(self, text: str, source: str = "",
                 metadata: Mapping[str, Any] | None = None) -> list[Result]:
        """Prefilter, one extraction call, then remember_facts (reconcile, vectors)."""
        self._require("write")
        text = check_text(text)
        hit = self.prefilter(text)
        if hit is not None:
            return hit
        facts = self._extract(text, forget=False)
        if not facts:
            return [Result(Action.SKIP, "", "", None, NO_FACTS)]
        return self.remember_facts(facts, text=text, source=source, metadata=metadata)

    def forget(self, text: str, source: str = "") -> list[Result]:
        """One extraction with every action forced to RETRACT; no prefilter."""
        self._require("write")
        text = check_text(text)
        facts = self._extract(text, forget=True)
        if not facts:
            return [Result(Action.SKIP, "", "", None, NOTHING_TO_RETRACT)]
        return self.forget_facts(facts, text=text, source=source)

    def recall(self, question: str, explain: bool = False, include_history: bool = False,
               as_of: datetime | None = None,
               critical_categories: Iterable[str] | None = None) -> Recall:
        """The facts for the question (ranked when the space is large), one answer call."""
        self._require("read")
        categories = tuple(dict.fromkeys([*self.settings.critical_categories,
                                          *(critical_categories or ())]))
        req = RecallRequest(question, explain, include_history, as_of, categories)
        return recall(self._ranked(), self.runtime.llm, self.key, req,
                      self.settings.recall_context, self.settings.critical_budget)

    def check_before_act(self, subjects: Iterable[str],
                         max_age: timedelta | float | None = None) -> ActCheck:
        """Refuses, with reasons, when a fact the action depends on is not safe to use."""
        self._require("read")
        canonical = [self._subject(s) or "" for s in subjects]
        return check_before_act(self.graph, self.key, canonical, max_age,
                                self.settings.change_window_seconds, _now())

    def _extract(self, text: str, forget: bool) -> list[dict[str, Any]]:
        if not text.strip():
            raise InvalidInput("the message is empty: nothing to extract")
        llm = self.runtime.llm
        if llm is None:
            raise LLMUnavailable("remember(text) and forget(text) need an LLM: set"
                                 " GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL, or pass"
                                 " extracted facts to remember_facts")
        inp = extraction_input(self._ranked(), self.key, self.schema, text,
                               self.settings.reconcile_context, forget)
        return usable(extract(llm, inp, self.settings.extract_retries), self.schema)

    def _ranker(self) -> Ranker:
        """One Ranker per Runtime (it caches the vector index's dimensions)."""
        runtime = self.runtime
        ranker = runtime.extras.get("ranker")
        if ranker is None:
            vectors = VectorIndex(runtime.graph, lambda: runtime.embedder,
                                  runtime.settings.vector_cache)
            ranker = runtime.extras.setdefault("ranker", Ranker(runtime.graph, vectors))
        assert isinstance(ranker, Ranker)
        return ranker

    # ---- reads -------------------------------------------------------------------------------
    def active(self, subject: str | None = None, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> list[Fact]:
        self._require("read")
        return reads.facts(self.graph, self.key, self._subject(subject), as_of=as_of,
                           valid_at=valid_at)

    def flagged(self) -> list[Fact]:
        self._require("read")
        return reads.facts(self.graph, self.key, statuses=(Status.FLAGGED_CONFLICT.value,))

    def pending(self) -> list[Fact]:
        """Confirm-gate proposals waiting for someone with the approve capability."""
        pending_ids = {fid for c in self.conflicts("open") if c.kind == ConflictKind.PENDING
                       for fid in c.fact_ids}
        return [f for f in self.flagged() if f.id in pending_ids]

    def fact(self, fact_id: str) -> Fact:
        self._require("read")
        return reads.get(self.graph, self.key, fact_id)[0]

    def history(self, subject: str, scope: str | None = None,
                as_of: datetime | None = None) -> reads.History:
        self._require("read")
        return reads.history(self.graph, self.key, self._subject(subject) or "", scope, as_of)

    def list_memories(self) -> Listing:
        self._require("read")
        hot = reads.hot(self.graph, self.key)
        return Listing(tuple(f for f in hot if f.status == Status.ACTIVE),
                       tuple(f for f in hot if f.status == Status.FLAGGED_CONFLICT),
                       tuple(reads.recent_retired(self.graph, self.key, 20)))

    def conflicts(self, status: str | None = "open") -> list[Conflict]:
        self._require("read")
        return reads.conflicts(self.graph, self.key, status)

    def _subject(self, subject: str | None) -> str | None:
        if subject is None:
            return None
        try:
            return self.schema.canonical(subject)
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    # ---- approvals and conflicts -------------------------------------------------------------
    def confirm(self, fact_id: str) -> str:
        """Apply a pending proposal (needs approve)."""
        self._require("approve")
        return self._settle(fact_id, None, "confirm", "", self.caller.name)

    def reject(self, fact_id: str) -> str:
        self._require("approve")
        return self._settle(fact_id, None, "reject", "", self.caller.name)

    def resolve_conflict(self, conflict_id: str, winner: str, note: str = "",
                         by: str = "") -> str:
        """One claim wins; every other held claim of the conflict is superseded by it."""
        self._require("approve")
        return self._settle(winner, conflict_id, "resolve", note, by or self.caller.name)

    def dismiss_conflict(self, conflict_id: str, note: str = "", by: str = "") -> str:
        """Both claims valid (different contexts): held facts become active beside the rest."""
        self._require("approve")
        return self._settle(None, conflict_id, "dismiss", note, by or self.caller.name)

    def _settle(self, fact_id: str | None, conflict_id: str | None, mode: str, note: str,
                by: str) -> str:
        args = (fact_id, conflict_id, mode, check_text(note, "note"), by)
        result: str = self._in_write_tx(self._settle_tx, *args)
        return result

    def _settle_tx(self, tx: ManagedTransaction, fact_id: str | None, conflict_id: str | None,
                   mode: str, note: str, by: str) -> str:
        now = _now()
        run(tx, "remember/lock_space", space=self.key, now=now)
        conflict, involved = self._conflict_in_tx(tx, fact_id, conflict_id, mode)
        held = [f for f in involved if f.status == Status.FLAGGED_CONFLICT]
        winner = next((f for f in involved if f.id == fact_id), None)
        if mode in ("confirm", "resolve") and winner is None:
            raise NotFound(f"fact {fact_id!r} is not part of conflict {conflict.id!r}")
        batches: list[Batch] = []
        for fact in held if mode != "confirm" else [winner] if winner else []:
            plan = self._plan(tx, mode, fact, winner, now)
            apply_plan(tx, self.key, plan, now, by, applied=batches)
        status = ConflictStatus.DISMISSED if mode == "dismiss" else ConflictStatus.RESOLVED
        close = {"id": conflict.id, "status": status.value,
                 "winner": fact_id if mode != "reject" else None, "note": note or mode, "by": by}
        run(tx, "conflicts/close", space=self.key, now=now, **close)
        mirror_outbox.record(tx, self.key, "settle", {  # issue 7: the mirror's copy
            "batches": [mirror_outbox.batch_payload(b) for b in batches], "close": close}, now)
        return f"Conflict {conflict.id} {status.value}" + (f": {mode}" if mode else "")

    def _plan(self, tx: ManagedTransaction, mode: str, fact: Fact, winner: Fact | None,
              now: datetime) -> approve.Plan:
        if mode == "dismiss":
            return approve.coexist(fact)
        if mode == "reject":
            return approve.reject(fact)
        if winner is not None and fact.id == winner.id:
            _, state = load_states(tx, self.key, (Proposal(fact.subject, fact.value, fact.scope),),
                                   now)
            return approve.accept(fact, state[(fact.subject, fact.scope)],
                                  self.schema.resolve(fact.subject))
        if winner is not None and winner.status == Status.ACTIVE:
            return approve.keep_incumbent(fact, winner)
        return approve.reject(fact)

    def _conflict_in_tx(self, tx: ManagedTransaction, fact_id: str | None,
                        conflict_id: str | None, mode: str) -> tuple[Conflict, list[Fact]]:
        if conflict_id is None:
            rows = run(tx, "conflicts/for_fact", id=fact_id, space=self.key)
            pending = [r for r in rows if r["conflict"]["kind"] == ConflictKind.PENDING.value]
            if not pending:
                raise NotFound(f"no pending proposal {fact_id!r} in this space")
            conflict_id = pending[0]["conflict"]["id"]
        rows = run(tx, "conflicts/get", id=conflict_id, space=self.key)
        if not rows:
            raise NotFound(f"no conflict {conflict_id!r} in this space")
        conflict = rows[0]["conflict"]
        if conflict["status"] != ConflictStatus.OPEN.value:
            raise InvalidInput(f"conflict {conflict_id!r} is already {conflict['status']}")
        involved = [row_to_fact(f) for f in rows[0]["facts"]]
        found = reads._conflict(conflict, [f.id for f in involved])
        return found, involved

    # ---- entity graph (issue 4) ------------------------------------------------------------
    def create_entity(self, type: str, name: str) -> entity_store.Entity:
        """Seed a canonical entity before ingestion so later mentions land on it (seed 001)."""
        self._require("write")
        return entity_store.create(self.graph, self.key, type, name, _now())

    def entities(self, type: str | None = None,
                 as_of: datetime | None = None) -> list[entity_store.Entity]:
        self._require("read")
        return entity_store.listing(self.graph, self.key, type, reads._aware(as_of, "as_of"))

    def entity(self, type: str, name: str, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> entity_reads.EntityView:
        """The entity's active attributes and edges (or those held/valid at an instant)."""
        self._require("read")
        found = entity_store.get(self.graph, self.key, type, name)
        return entity_reads.view(self.graph, self.key, found, reads._aware(as_of, "as_of"),
                                 reads._aware(valid_at, "valid_at"))

    def neighbourhood(self, type: str, name: str, hops: int = 1, as_of: datetime | None = None,
                      valid_at: datetime | None = None, limit: int = 50) -> related.Related:
        return self.recall_related(entities=[(type, name)], hops=hops, as_of=as_of,
                                   valid_at=valid_at, limit=limit, answer=False)

    def entity_history(self, type: str, name: str, key: str) -> reads.History:
        """The supersession chain of one attribute of an entity, oldest → newest."""
        self._require("read")
        found = entity_store.get(self.graph, self.key, type, name)
        return entity_reads.history(self.graph, self.key, found, key)

    def recall_related(self, question: str | None = None,
                       entities: Sequence[related.StartSpec] | None = None, hops: int = 2,
                       as_of: datetime | None = None, valid_at: datetime | None = None,
                       limit: int = 50, answer: bool = True) -> related.Related:
        """Paths from the question's (or the given) entities, with the facts behind each edge;
        a configured LLM writes an answer from them, otherwise the paths are the answer."""
        self._require("read")
        found = related.recall_related(
            self.graph, self.key, question, entities, hops, reads._aware(as_of, "as_of"),
            reads._aware(valid_at, "valid_at"), related.Bounds(paths=limit))
        llm = getattr(self.runtime, "llm", None)
        if answer and question and llm is not None and found.paths:
            return replace(found, answer=related_answer.answer(llm, question, found))
        return found

    def graph_vocabulary(self, limit: int = 200) -> entity_store.Vocabulary:
        """Known entity names and relation labels, for the extraction prompt."""
        self._require("read")
        return entity_store.vocabulary(self.graph, self.key, limit)

    def rebuild_projection(self) -> projection.RebuildResult:
        self._require("admin")
        return projection.rebuild(self.graph, self.key, _now())

    def sweep_placeholders(self) -> entity_store.SweepResult:
        self._require("admin")
        return entity_store.sweep(self.graph, self.key)

    def fsck(self, strict: bool = False) -> fsck_checks.Report:
        self._require("verify")
        embedder = getattr(self.runtime, "embedder", None)
        return fsck_checks.fsck(self.graph, self.key, embedder, self.runtime, strict)

    # ---- policy --------------------------------------------------------------------------------
    def set_reconcile_policy(self, mode: str, authority: Mapping[str, int] | None = None,
                             curated: Iterable[str] = ()) -> str:
        self._require("admin")
        policy = make_policy(mode, authority, tuple(curated))
        self._in_write_tx(self._set_policy_tx, policy_to_json(policy), _now())
        return describe(policy)

    def _set_policy_tx(self, tx: ManagedTransaction, policy: str, now: datetime) -> None:
        run(tx, "remember/lock_space", space=self.key, now=now)
        run(tx, "remember/set_policy", space=self.key, policy=policy, now=now)
        mirror_outbox.record(tx, self.key, "policy", {"policy": policy}, now)  # issue 7

    def get_reconcile_policy(self) -> Policy:
        self._require("read")
        if self.policy is not None:
            return self.policy
        rows = self.graph.read("remember/get_policy", space=self.key)
        return policy_from_json(rows[0]["policy"] if rows else None)

    def _require(self, capability: str) -> None:
        if not self.caller.can(capability):
            raise AccessDenied(f"{self.caller.name!r} lacks the {capability} capability")


def no_facts_result() -> str:
    return NO_FACTS
