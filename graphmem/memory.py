"""`GraphMem`: the Python API, one memory space per instance.

This is a public interface other tools drive; the GraphQL resolvers and the CLI call the
same operations. It holds no business rule itself: reconcile decides, the stores apply.
"""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from graphmem.errors import AccessDenied, GraphMemError, InvalidInput, NotFound
from graphmem.graph import reads
from graphmem.graph.driver import run, unavailable
from graphmem.graph.facts import row_to_fact
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
from graphmem.remember import approve
from graphmem.remember.pipeline import WriteRequest, load_states, message_key, write_proposals
from graphmem.remember.policy import describe, make_policy, policy_from_json, policy_to_json
from graphmem.remember.proposals import check_text, parse_proposals
from graphmem.remember.results import NO_FACTS, NOTHING_TO_RETRACT
from graphmem.remember.write import WriteInfo, apply_plan
from graphmem.runtime import Runtime
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


class GraphMem:
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
                           frozenset(self.settings.curated_sources))
        results: list[Result] = self._in_write_tx(write_proposals, req)
        return results

    def _entitled(self, source: str) -> bool:
        """Only the principal of that name or an approver may write as a trusted source."""
        if source not in self.trusted:
            return False
        if self.caller.name == source or self.caller.can("approve"):
            return True
        raise AccessDenied(f"only {source!r} or a caller with approve may write as {source!r}")

    def _in_write_tx(self, fn: Any, *args: Any) -> Any:
        try:
            with self.graph.session() as session:
                return session.execute_write(fn, *args)
        except (ServiceUnavailable, SessionExpired) as e:
            raise unavailable(self.settings, e) from e
        except Neo4jError as e:
            raise GraphMemError(f"Neo4j rejected the write: {e.message or e}") from e

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
        for fact in held if mode != "confirm" else [winner] if winner else []:
            plan = self._plan(tx, mode, fact, winner, now)
            apply_plan(tx, self.key, plan, now, by)
        status = ConflictStatus.DISMISSED if mode == "dismiss" else ConflictStatus.RESOLVED
        run(tx, "conflicts/close", id=conflict.id, space=self.key, status=status.value,
            winner=fact_id if mode != "reject" else None, note=note or mode, by=by, now=now)
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

    # ---- policy --------------------------------------------------------------------------------
    def set_reconcile_policy(self, mode: str, authority: Mapping[str, int] | None = None,
                             curated: Iterable[str] = ()) -> str:
        self._require("admin")
        policy = make_policy(mode, authority, tuple(curated))
        self.graph.write("remember/set_policy", space=self.key, policy=policy_to_json(policy),
                         now=_now())
        return describe(policy)

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
