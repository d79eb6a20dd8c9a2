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
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.graph.driver import run
from graphmem.graph.facts import row_to_fact
from graphmem.model import (
    Action,
    Context,
    Decision,
    Fact,
    Policy,
    Proposal,
    Result,
    SlotState,
    TimeRef,
)
from graphmem.remember.policy import policy_from_json
from graphmem.remember.reconcile import apply_to_state, detect_ambiguity, reconcile
from graphmem.remember.write import Batch, WriteInfo, new_id
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


def load_states(tx: ManagedTransaction, space: str, proposals: tuple[Proposal, ...]
                ) -> dict[Slot, SlotState]:
    """The hot set of every slot the proposals touch, plus the two indexed side lookups."""
    slots = sorted({(p.subject, p.scope) for p in proposals})
    params = [{"subject": s, "scope": c} for s, c in slots]
    facts: dict[Slot, list[Fact]] = defaultdict(list)
    for row in run(tx, "remember/load_slots", space=space, slots=params):
        fact = row_to_fact(row["fact"])
        facts[(fact.subject, fact.scope)].append(fact)
    archived: dict[Slot, frozenset[str]] = {}
    past = [{"subject": p.subject, "scope": p.scope} for p in proposals
            if p.time_ref == TimeRef.PAST]
    if past:
        for row in run(tx, "remember/load_archived", space=space, slots=past):
            archived[(row["subject"], row["scope"])] = frozenset(row["values"])
    elsewhere: set[Slot] = set()
    coexist = [{"subject": p.subject, "scope": p.scope} for p in proposals
               if p.action == Action.COEXIST]
    if coexist:
        for row in run(tx, "remember/subjects_elsewhere", space=space, slots=coexist):
            if row["elsewhere"]:
                elsewhere.add((row["subject"], row["scope"]))
    return {
        slot: SlotState(tuple(facts.get(slot, ())), archived.get(slot, frozenset()),
                        slot in elsewhere)
        for slot in slots
    }


def write_proposals(tx: ManagedTransaction, req: WriteRequest) -> list[Result]:
    """The transaction function: lock, load, reconcile, write, outbox."""
    info = req.info
    lock = run(tx, "remember/lock_space", space=info.space, now=info.now)
    policy = req.policy or policy_from_json(lock[0]["policy"])
    if req.curated:
        policy = Policy(policy.mode, policy.authority, policy.curated | req.curated)
    states = load_states(tx, info.space, req.proposals)
    specs = {p.subject: spec for p in req.proposals if (spec := req.schema.resolve(p.subject))}
    ambiguous = detect_ambiguity(req.proposals, specs)
    batch = Batch()
    decided: list[tuple[Proposal, Decision]] = []
    for index, p in enumerate(req.proposals):
        slot = (p.subject, p.scope)
        ctx = Context(source=info.source, text=info.text, trusted=req.trusted,
                      ambiguous=index in ambiguous, confidence_floor=req.confidence_floor)
        before = {f.id: f for f in states[slot].facts}
        d = reconcile(p, states[slot], specs.get(p.subject), policy, ctx, new_id("f"))
        states[slot] = apply_to_state(states[slot], d, p, ctx, info.now)
        batch.add(p, d, info, before)
        decided.append((p, d))
    conflicts = batch.apply(tx, info.space, info.now)
    results = [_result(p, d, conflicts) for p, d in decided]
    _outbox(tx, info, batch, results)
    return results


def _result(p: Proposal, d: Decision, conflicts: dict[str, str]) -> Result:
    value = p.value if d.action == Action.RETRACT else d.value
    fact_id = d.fact_id or d.refines
    return Result(action=d.action, subject=d.subject, value=value, fact_id=fact_id,
                  message=d.message,
                  conflict_id=conflicts.get(d.fact_id) if d.fact_id else None)


def _outbox(tx: ManagedTransaction, info: WriteInfo, batch: Batch, results: list[Result]
            ) -> None:
    """The change as one event, committed with the graph write for the mirror to apply."""
    payload: dict[str, Any] = {
        "source": info.source,
        "results": [{"action": r.action.value, "subject": r.subject, "value": r.value,
                     "fact_id": r.fact_id} for r in results],
        "facts": batch.facts, "supersedes": batch.supersedes, "retracts": batch.retracts,
        "refines": batch.refines, "conflicts": batch.conflicts,
    }
    run(tx, "remember/outbox_add", id=new_id("e"), space=info.space, kind="remember",
        payload=json.dumps(payload, default=_json_default, sort_keys=True), now=info.now)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")
