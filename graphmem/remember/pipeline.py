"""remember → reconcile → graph write, for one call, in one Neo4j transaction.

The transaction first takes the space's lock, then loads the hot facts of exactly the slots
the call touches (never a scan, never a retired row), reconciles fact after fact in memory,
and writes the whole batch plus its outbox entry. A retried transaction re-runs all of it,
so a retry can never apply a decision made on a stale read.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph import clusters
from graphmem.graph import remember as graph_remember
from graphmem.graph.facts import row_to_fact
from graphmem.graph.outbox import Outbox
from graphmem.model import (
    Action,
    Context,
    Decision,
    Fact,
    Policy,
    PolicyMode,
    Proposal,
    Result,
    SlotState,
    TimeRef,
)
from graphmem.remember.new_fact import WriteInfo, source_of
from graphmem.remember.policy import policy_from_json
from graphmem.remember.reconcile import apply_to_state, detect_ambiguity, reconcile
from graphmem.remember.write import Batch, new_id
from graphmem.slots import SlotSchema

Slot = tuple[str, str]


def message_key(text: str) -> str | None:
    """The dedup prefilter's key: the case-folded, whitespace-collapsed message, hashed."""
    folded = " ".join(text.casefold().split())
    return hashlib.sha256(folded.encode()).hexdigest() if folded else None


@dataclass(frozen=True)
class WriteRequest:
    proposals: tuple[Proposal, ...]
    info: WriteInfo
    schema: SlotSchema
    policy: Policy | None
    trusted: bool
    confidence_floor: float
    curated: frozenset[str]
    cluster_jaccard: float = 0.5  # collisions by entity overlap (docs/concepts/entity-graph.md)
    trusted_sources: frozenset[str] = frozenset()  # facts' own sources entitled as trusted
    review: bool = False  # flag every cross-source change (curated sources unknown)

    def trusts(self, p: Proposal) -> bool:
        """Whether the confirm gate trusts the proposal's source (its own, or the call's)."""
        return self.trusted if p.source is None else p.source in self.trusted_sources


def _slot_params(proposals: tuple[Proposal, ...], keep: Any = None) -> list[dict[str, str]]:
    slots = sorted({(p.subject, p.scope) for p in proposals if keep is None or keep(p)})
    return [{"subject": s, "scope": c} for s, c in slots]


def load_states(tx: ManagedTransaction, space: str, proposals: tuple[Proposal, ...],
                now: datetime) -> tuple[str | None, dict[Slot, SlotState]]:
    """Take the space lock and load the hot set of every slot the proposals touch, in one
    round trip; returns the space's stored policy (JSON) and the slot states."""
    row = graph_remember.lock_and_load(
        tx, space, now, slots=_slot_params(proposals),
        past=_slot_params(proposals, lambda p: p.time_ref == TimeRef.PAST),
        coexist=_slot_params(proposals, lambda p: p.action == Action.COEXIST))
    facts: dict[Slot, list[Fact]] = defaultdict(list)
    for raw in row["facts"]:
        fact = row_to_fact(raw)
        facts[(fact.subject, fact.scope)].append(fact)
    archived: dict[Slot, set[str]] = defaultdict(set)
    for item in row["archived"]:
        archived[(item["subject"], item["scope"])].add(item["value"])
    elsewhere = {(item["subject"], item["scope"]) for item in row["elsewhere"]}
    states = {
        (s["subject"], s["scope"]): SlotState(
            tuple(facts.get((s["subject"], s["scope"]), ())),
            frozenset(archived.get((s["subject"], s["scope"]), ())),
            (s["subject"], s["scope"]) in elsewhere)
        for s in _slot_params(proposals)
    }
    return row["policy"], states


def write_proposals(tx: ManagedTransaction, outbox: Outbox, req: WriteRequest) -> list[Result]:
    """The transaction function: lock, load, reconcile, write, outbox. The space is the
    one the transaction writes to (the outbox's)."""
    info = replace(req.info, space=outbox.space)
    stored_policy, states = load_states(tx, info.space, req.proposals, info.now)
    policy = req.policy or policy_from_json(stored_policy)
    if req.curated or req.review:
        mode = PolicyMode.REVIEW if req.review else policy.mode
        policy = Policy(mode, policy.authority, policy.curated | req.curated)
    specs = {p.subject: spec for p in req.proposals if (spec := req.schema.resolve(p.subject))}
    ambiguous = detect_ambiguity(req.proposals, specs)
    batch = Batch()
    decided: list[tuple[Proposal, Decision]] = []
    for index, p in enumerate(req.proposals):
        slot = (p.subject, p.scope)
        ctx = Context(source=source_of(p, info), text=info.text, trusted=req.trusts(p),
                      ambiguous=index in ambiguous, confidence_floor=req.confidence_floor)
        before = {f.id: f for f in states[slot].facts}
        d = reconcile(p, states[slot], specs.get(p.subject), policy, ctx, new_id("f"))
        states[slot] = apply_to_state(states[slot], d, p, info)
        batch.add(p, d, info, before)
        decided.append((p, d))
    batch.outbox.append(_outbox_entry(outbox, info, batch,
                                      [_result(p, d, {}) for p, d in decided]))
    conflicts = batch.apply(tx, info.space, info.now, outbox)
    found = clusters.collisions(tx, info.space, decided, req.cluster_jaccard)
    event = str(batch.outbox[0]["id"])
    return [replace(_result(p, d, conflicts, found.get(d.fact_id or "", ())), event_id=event)
            for p, d in decided]


def _result(p: Proposal, d: Decision, conflicts: dict[str, str],
            collisions: tuple[dict[str, Any], ...] = ()) -> Result:
    value = p.value if d.action == Action.RETRACT else d.value
    fact_id = d.fact_id or d.refines
    return Result(action=d.action, subject=d.subject, value=value, fact_id=fact_id,
                  message=d.message,
                  conflict_id=conflicts.get(d.fact_id) if d.fact_id else None,
                  collisions=collisions)


def _outbox_entry(outbox: Outbox, info: WriteInfo, batch: Batch, results: list[Result]
                  ) -> dict[str, Any]:
    """The change as one event, committed with the graph write for the mirror to apply."""
    payload: dict[str, Any] = {
        "source": info.source,
        "results": [{"action": r.action.value, "subject": r.subject, "value": r.value,
                     "fact_id": r.fact_id, "message": r.message} for r in results],
        "facts": batch.facts, "supersedes": batch.supersedes, "retracts": batch.retracts,
        "refines": batch.refines, "conflicts": batch.conflicts, "messages": batch.messages,
    }
    if info.redacted:
        payload["redacted"] = list(info.redacted)
    now, now_text = info.now, info.now.isoformat()

    def default(value: Any) -> Any:
        """Times as ISO text; most are the write's own instant, converted once."""
        if value is now:
            return now_text
        if isinstance(value, datetime):
            return value.isoformat()
        raise TypeError(f"cannot serialise {type(value).__name__}")

    return outbox.draft("remember", json.dumps(payload, default=default, sort_keys=True))
