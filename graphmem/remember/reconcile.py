"""The pure reconcile step: proposal + the slot's hot facts + spec + policy -> one Decision.

The extractor's label is only an input; every reconciliation rule runs here, in order, so
what becomes current is decided by code that tests can drive without a database. No I/O, no
clock, no randomness: ids and `now` are passed in.

Rule order (each rule, with its example and tests: docs/concepts/reconciliation-rules.md):
 0. SKIP label / nothing to store -> SKIP
 1. events never replace and are never retired, except on a declared single-valued slot:
    there every change of value retires the previous one, whatever the kinds of the two
    facts (an incoming event becomes a state change)
 2. valid-time gate (past -> ARCHIVE; a definite removal of the active value -> RETRACT);
    a backdated value older than the slot's value it would replace -> ARCHIVE, a backdated
    removal older than the value it names -> SKIP (checked with the effect, rule 7)
 3. future tense -> FLAG
 4. retract upgrade (removal language about the active value -> RETRACT)
 5. restatement -> DEDUP
 6. ambiguity / model FLAG -> FLAG
 7. the effect (RETRACT / REFINE / ADD / SUPERSEDE / COEXIST; no retract target -> SKIP)
 8. confirm gate, 9. confidence threshold and same-source rule, 10. source policy
11. apply the effect
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from graphmem.model import (
    Action,
    Cardinality,
    ConflictKind,
    Context,
    Decision,
    Fact,
    Kind,
    Policy,
    PolicyMode,
    Proposal,
    SlotSpec,
    SlotState,
    Status,
    TimeRef,
)
from graphmem.remember.language import is_removal, is_removal_of
from graphmem.remember.new_fact import WriteInfo, new_fact, refined
from graphmem.remember.results import (
    NO_FACTS,
    NOTHING_TO_RETRACT,
    result_message,
    tombstone,
)

__all__ = [
    "NOTHING_TO_RETRACT",
    "NO_FACTS",
    "apply_to_state",
    "detect_ambiguity",
    "identity",
    "is_removal",
    "reconcile",
    "result_message",
    "same_value",
]

# Effects that replace, remove or rewrite something: gated by confirm slots and source policy.
_CHANGES = frozenset({Action.SUPERSEDE, Action.RETRACT, Action.REFINE})
# Effects the confidence floor judges: any change, and an ADD that would retire a rival.
_FLOOR_CHECKED = _CHANGES | {Action.COEXIST}
# Labels that say which of two values in one message is newer.
_UNDISTINGUISHED = frozenset({Action.ADD, Action.FLAG})

_WS = re.compile(r"\s+")
_FIRST_DIGIT = re.compile(r"\d")
_TRAILING_JUNK = re.compile(r"[\s,;:/(\[\-–—+]+$")


# ---------------------------------------------------------------------------------------------
# Value comparison


def _norm(text: str) -> str:
    return _WS.sub(" ", text.casefold()).strip()


def same_value(a: str, b: str) -> bool:
    """Case- and whitespace-insensitive equality: "Zustand " restates "zustand"."""
    return _norm(a) == _norm(b)


def identity(value: str, spec: SlotSpec | None, cardinality: Cardinality | None) -> str:
    """Which list item a value is about, so a new dose replaces the old one.

    On a declared list slot the identity is the drug/substance name before any dose
    (`Warfarin 5mg` -> `warfarin`); elsewhere (an undeclared list, or a single-valued slot
    where identity is not used) it is the whole normalised value.
    """
    norm = _norm(value)
    if spec is None or not spec.multi:
        return norm
    digit = _FIRST_DIGIT.search(norm)
    head = _TRAILING_JUNK.sub("", norm[: digit.start()]) if digit else norm
    return head or norm


# ---------------------------------------------------------------------------------------------
# The proposal as reconcile reads it


@dataclass(frozen=True)
class _Frame:
    """The (possibly relabelled) proposal plus the slot context every rule needs."""

    p: Proposal
    state: SlotState
    spec: SlotSpec | None
    new_id: str
    is_list: bool
    was_event: bool = False

    @property
    def declared_single(self) -> bool:
        """A declared single-valued slot: its schema says one value at a time, whatever kind."""
        return self.spec is not None and not self.spec.multi

    @property
    def slot_values(self) -> tuple[Fact, ...]:
        """The active facts a change can retire: the only possible rivals and targets.

        An event is never retired (rule 1) except on a declared single-valued slot,
        where the declaration outranks the kind: every active fact there is the slot's value,
        so a new value retires it whether either was recorded as an event.
        """
        if self.declared_single:
            return self.state.active
        return tuple(f for f in self.state.active if f.kind != Kind.EVENT)

    @property
    def cardinality(self) -> Cardinality:
        return Cardinality.MANY if self.is_list else Cardinality.ONE

    @property
    def category(self) -> str | None:
        return self.spec.category if self.spec and self.spec.category else self.p.category

    def key(self, value: str) -> str:
        return identity(value, self.spec, self.cardinality)

    def relabel(self, action: Action) -> _Frame:
        return replace(self, p=self.p.with_changes(action=action))

    def decision(self, action: Action, note: str = "", **fields: Any) -> Decision:
        """A Decision carrying this proposal's slot, kind, category and result string."""
        d = Decision(
            action=action,
            subject=self.p.subject,
            value=fields.pop("value", self.p.value),
            scope=self.p.scope,
            kind=self.p.kind,
            category=self.category,
            cardinality=self.cardinality,
            note=_note(note, self.p.reason),
            **fields,
        )
        return replace(d, message=result_message(d))

    def skip(self, why: str) -> Decision:
        return self.decision(Action.SKIP, why)

    def dedup(self, why: str) -> Decision:
        return self.decision(Action.DEDUP, why)


def _note(gate: str, reason: str | None) -> str:
    """The gate's reason first; the extractor's reason is kept for the reviewer."""
    if gate and reason:
        return f"{gate}; extractor: {reason}"
    return gate or reason or ""


def _is_list(p: Proposal, state: SlotState, spec: SlotSpec | None) -> bool:
    """A declared slot's shape wins; otherwise the proposal's, else the slot's stored shape."""
    if spec is not None:
        return spec.multi
    if p.cardinality is not None:
        return p.cardinality == Cardinality.MANY
    return any(f.cardinality == Cardinality.MANY for f in state.active if f.kind != Kind.EVENT)


@dataclass(frozen=True)
class _Effect:
    """What applying the proposal would do, and to which stored facts."""

    action: Action
    incumbents: tuple[Fact, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.incumbents)


@dataclass(frozen=True)
class _Gate:
    """Why a change is held for a person instead of applied."""

    kind: ConflictKind
    note: str
    involves: tuple[Fact, ...]


# ---------------------------------------------------------------------------------------------
# Matching stored facts


def _exact(f: _Frame) -> tuple[Fact, ...]:
    return tuple(x for x in f.slot_values if same_value(x.value, f.p.value))


def _same_identity(f: _Frame) -> tuple[Fact, ...]:
    if not f.is_list:
        return ()
    key = f.key(f.p.value)
    return tuple(x for x in f.slot_values if f.key(x.value) == key)


def _upgrade_targets(f: _Frame) -> tuple[Fact, ...]:
    """Active facts removal language may retire: the exact value, or a bare list-item name.

    A dosed value ("atorvastatin 20 mg") must match exactly, so "dose dropped" wording can
    never retire a different dose of the same drug.
    """
    exact = _exact(f)
    if exact or not f.p.value.strip():
        return exact
    bare = f.key(f.p.value) == _norm(f.p.value)
    return _same_identity(f) if bare else ()


def _by_id(f: _Frame) -> tuple[Fact, ...]:
    if not f.p.target_id:
        return ()
    return tuple(x for x in f.slot_values if x.id == f.p.target_id)


def _retract_targets(f: _Frame) -> tuple[Fact, ...]:
    """A RETRACT names a value: that value, else the list item, else target_id, else (no value
    on a single-valued slot) the slot's active value."""
    if f.p.value.strip():
        return _exact(f) or _same_identity(f) or _by_id(f)
    return _by_id(f) or (() if f.is_list else f.slot_values)


def _refine_target(f: _Frame) -> tuple[Fact, ...]:
    found = _by_id(f) or (_same_identity(f) if f.is_list else f.slot_values)
    return found[:1]


# ---------------------------------------------------------------------------------------------
# Rules 0-5


def _nothing_to_store(p: Proposal) -> bool:
    return p.action == Action.SKIP or (not p.value.strip() and p.action != Action.RETRACT)


def _events_never_replace(f: _Frame) -> _Frame:
    """Rule 1: events only add, except on a declared single slot holding another value."""
    if f.p.kind != Kind.EVENT:
        return f
    if f.declared_single and any(not same_value(x.value, f.p.value) for x in f.slot_values):
        action = Action.SUPERSEDE if f.p.action == Action.RETRACT else f.p.action
        return replace(f, p=f.p.with_changes(kind=Kind.STATE, action=action), was_event=True)
    if f.p.action in _CHANGES:
        return f.relabel(Action.ADD)
    return f


def _removes_active(f: _Frame, text: str) -> bool:
    """Definite removal language about a value the slot holds as ACTIVE state."""
    return bool(_upgrade_targets(f)) and is_removal_of(text, f.p.value)


def _archive(f: _Frame) -> Decision:
    """Rule 2: a past fact is recorded as HISTORICAL and never retires the current value."""
    if _norm(f.p.value) in {_norm(v) for v in f.state.archived_values}:
        return f.dedup("past fact already archived")
    return f.decision(
        Action.ARCHIVE,
        "past tense: recorded as history",
        status=Status.HISTORICAL,
        fact_id=f.new_id,
    )


def _restatement(f: _Frame) -> Decision | None:
    """Rule 5: the value is already active, or the same proposal is already pending."""
    retract = f.p.action == Action.RETRACT
    if not retract and any(same_value(x.value, f.p.value) for x in f.state.active):
        return f.dedup("already active in this slot")
    for x in f.state.flagged:
        if same_value(x.value, f.p.value) and (x.proposed_action == Action.RETRACT) == retract:
            return f.dedup("a proposal for this value is already pending")
    return None


def _opening(f: _Frame) -> Decision | _Effect:
    """A restatement, or a retraction with nothing to retract, settles the proposal at once;
    anything else has an effect on the slot."""
    dup = _restatement(f)
    if dup is not None:
        return dup
    eff = _effect(f)
    if eff.action == Action.SKIP:
        return f.skip(NOTHING_TO_RETRACT)
    return eff


def _future(f: _Frame) -> Decision:
    """Rule 3: a future-tense change is not true yet; the current value stands."""
    eff = _opening(f)
    if isinstance(eff, Decision):
        return eff
    gate = _Gate(ConflictKind.FUTURE, "future tense: not true yet", eff.incumbents)
    return _flagged(f, eff, gate)


# ---------------------------------------------------------------------------------------------
# Rule 7: the effect


def _effect(f: _Frame) -> _Effect:
    """What the proposal would do if applied (rule 7: the effect, not the label)."""
    if f.p.kind == Kind.EVENT:
        return _Effect(_add_or_coexist(f))
    if f.p.action == Action.RETRACT:
        targets = _retract_targets(f)
        return _Effect(Action.RETRACT, targets) if targets else _Effect(Action.SKIP)
    if f.p.action == Action.REFINE:
        target = _refine_target(f)
        if target:
            return _Effect(Action.REFINE, target)
    rivals = _same_identity(f) if f.is_list else f.slot_values
    return _Effect(Action.SUPERSEDE, rivals) if rivals else _Effect(_add_or_coexist(f))


def _add_or_coexist(f: _Frame) -> Action:
    """COEXIST is only reported when the subject really holds a value in another scope."""
    return Action.COEXIST if f.p.action == Action.COEXIST and f.state.elsewhere else Action.ADD


# ---------------------------------------------------------------------------------------------
# Rules 8-10: gates


def _confirm_gate(f: _Frame, eff: _Effect, ctx: Context) -> _Gate | None:
    """Rule 8: on a confirm slot a replacement or removal waits for approval.

    Joining a list is not gated: only an effect that retires or rewrites a stored value is.
    """
    if f.spec is None or not f.spec.confirm or eff.action not in _CHANGES or ctx.trusted:
        return None
    return _Gate(ConflictKind.PENDING, f"slot {f.spec.name} needs approval", eff.incumbents)


def _floor_gate(eff: _Effect, conf: float, ctx: Context) -> _Gate | None:
    """Rule 9: a weak extraction cannot change what is stored."""
    if eff.action not in _FLOOR_CHECKED or conf >= ctx.confidence_floor:
        return None
    note = f"confidence {conf:g} below the floor {ctx.confidence_floor:g}"
    return _Gate(ConflictKind.LOW_CONFIDENCE, note, eff.incumbents)


def _same_source_gate(eff: _Effect, conf: float, ctx: Context) -> _Gate | None:
    """Rule 9: a source may only overwrite its own belief with equal or higher confidence."""
    stronger = tuple(
        x
        for x in eff.incumbents
        if ctx.source and x.source == ctx.source and conf < x.effective_confidence
    )
    if not stronger:
        return None
    note = f"same source, confidence {conf:g} below the stored {stronger[0].effective_confidence:g}"
    return _Gate(ConflictKind.UNCERTAINTY, note, stronger)


def _policy_blocks(policy: Policy, incumbent: str, newcomer: str) -> str:
    """Why `newcomer` may not change `incumbent`'s fact, or "" when it may."""
    if incumbent in policy.curated:
        return f"{incumbent or 'unknown'} is a curated source"
    if policy.mode == PolicyMode.REVIEW:
        return "REVIEW policy: cross-source change needs a person"
    if policy.mode == PolicyMode.AUTHORITY and policy.rank(newcomer) <= policy.rank(incumbent):
        return (
            f"AUTHORITY policy: {newcomer or 'unknown'} (rank {policy.rank(newcomer)}) does not "
            f"outrank {incumbent or 'unknown'} (rank {policy.rank(incumbent)})"
        )
    return ""


def _policy_gate(eff: _Effect, policy: Policy, ctx: Context) -> _Gate | None:
    """Rule 10: cross-source changes follow the space's policy; self-corrections never block."""
    if eff.action not in _CHANGES:
        return None
    blocked = [
        (x, _policy_blocks(policy, x.source, ctx.source))
        for x in eff.incumbents
        if x.source != ctx.source
    ]
    blocked = [(x, why) for x, why in blocked if why]
    if not blocked:
        return None
    return _Gate(ConflictKind.POLICY, blocked[0][1], tuple(x for x, _ in blocked))


def _gate(f: _Frame, eff: _Effect, policy: Policy, ctx: Context) -> _Gate | None:
    return (
        _confirm_gate(f, eff, ctx)
        or _floor_gate(eff, f.p.effective_confidence, ctx)
        or _same_source_gate(eff, f.p.effective_confidence, ctx)
        or _policy_gate(eff, policy, ctx)
    )


# ---------------------------------------------------------------------------------------------
# Rule 11 and the flagged outcome


def _flagged(f: _Frame, eff: _Effect, gate: _Gate) -> Decision:
    """The proposed value is stored FLAGGED_CONFLICT; the current value stands."""
    value = f.p.value or ", ".join(x.value for x in eff.incumbents)
    return f.decision(
        Action.FLAG,
        gate.note,
        value=value,
        status=Status.FLAGGED_CONFLICT,
        fact_id=f.new_id,
        conflict_kind=gate.kind,
        conflict_with=tuple(x.id for x in gate.involves),
        proposed_action=eff.action,
    )


def _applied(f: _Frame, eff: _Effect) -> Decision:
    if eff.action == Action.RETRACT:
        retired = ", ".join(x.value for x in eff.incumbents)
        return f.decision(
            Action.RETRACT,
            value=tombstone(retired),
            status=Status.HISTORICAL,
            fact_id=f.new_id,
            retracts=eff.ids,
        )
    if eff.action == Action.REFINE:
        return f.decision(Action.REFINE, refines=eff.ids[0])
    return f.decision(eff.action, status=Status.ACTIVE, fact_id=f.new_id, supersedes=eff.ids)


def _newer(f: _Frame, eff: _Effect) -> tuple[Fact, ...]:
    """The incumbents a backdated proposal meets that began to hold after it did."""
    since = f.p.since
    if since is None:
        return ()
    return tuple(x for x in eff.incumbents if x.valid_from is not None and x.valid_from > since)


def _backdated(f: _Frame, eff: _Effect) -> Decision | None:
    """The valid-time gate for a backfill: a value older than the one it would replace is
    history (valid until the newer value began), never a replacement; a removal older than
    the value it names removes nothing."""
    newer = _newer(f, eff)
    if not newer:
        return None
    if eff.action == Action.RETRACT:
        return f.skip(NOTHING_TO_RETRACT)
    until = min(x.valid_from for x in newer if x.valid_from is not None)
    return f.decision(Action.ARCHIVE, "backdated: older than the current value",
                      status=Status.HISTORICAL, fact_id=f.new_id, valid_to=until)


def _decide(f: _Frame, policy: Policy, ctx: Context) -> Decision:
    """Rules 5-11 for a current-tense (or retracting) proposal."""
    eff = _opening(f)
    if isinstance(eff, Decision):
        return eff
    older = _backdated(f, eff)
    if older is not None:
        return older
    if ctx.ambiguous or f.p.action == Action.FLAG:
        why = "ambiguous: nothing says which value is newer"
        return _flagged(f, eff, _Gate(ConflictKind.AMBIGUITY, why, f.slot_values))
    gate = _gate(f, eff, policy, ctx)
    return _flagged(f, eff, gate) if gate is not None else _applied(f, eff)


# ---------------------------------------------------------------------------------------------
# Public API


def reconcile(
    p: Proposal,
    state: SlotState,
    spec: SlotSpec | None,
    policy: Policy,
    ctx: Context,
    new_id: str,
) -> Decision:
    """Decide deterministically what one proposal does to its slot (the rules, in order)."""
    f = _Frame(p, state, spec, new_id, _is_list(p, state, spec))
    if _nothing_to_store(p):
        return f.skip("hypothetical, sarcasm or nothing to store")
    f = _events_never_replace(f)
    text = ctx.text or p.raw
    if f.p.time_ref == TimeRef.PAST and f.p.action != Action.RETRACT and _gated_by_time(f):
        if not _removes_active(f, text):
            return _archive(f)
        f = f.relabel(Action.RETRACT)
    elif f.p.time_ref == TimeRef.FUTURE:
        return _future(f)
    elif _retract_upgrade_applies(f, text):
        f = f.relabel(Action.RETRACT)
    return _decide(f, policy, ctx)


def _gated_by_time(f: _Frame) -> bool:
    """Events (and events turned into state changes) are naturally past: exempt."""
    return f.p.kind == Kind.STATE and not f.was_event


def _retract_upgrade_applies(f: _Frame, text: str) -> bool:
    """Rule 4: a mislabelled ADD/SUPERSEDE of the active value with removal language."""
    upgradable = f.p.action in (Action.ADD, Action.SUPERSEDE) and _gated_by_time(f)
    return upgradable and _removes_active(f, text)


def apply_to_state(state: SlotState, d: Decision, p: Proposal, info: WriteInfo) -> SlotState:
    """The slot's hot set after `d`, so a batch can reconcile fact after fact in memory; the
    facts are built as the write stores them (`new_fact`)."""
    retired = set(d.supersedes) | set(d.retracts)
    facts = [x for x in state.facts if x.id not in retired]
    if d.refines is not None:
        facts = [refined(x, d, p, info) if x.id == d.refines else x for x in facts]
    if d.fact_id is not None and d.status in (Status.ACTIVE, Status.FLAGGED_CONFLICT):
        facts.append(new_fact(p, d, info))
    archived = state.archived_values
    if d.action == Action.ARCHIVE:
        archived = archived | {_norm(d.value)}
    return SlotState(facts=tuple(facts), archived_values=archived, elsewhere=state.elsewhere)


def detect_ambiguity(
    proposals: Sequence[Proposal], specs: Mapping[str, SlotSpec] | None = None
) -> set[int]:
    """Indexes of proposals that put two different current values on one single-valued slot
    with nothing (no SUPERSEDE/RETRACT/... label) saying which is newer."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, p in enumerate(proposals):
        if _ambiguity_candidate(p, specs or {}):
            groups.setdefault((_norm(p.subject), _norm(p.scope)), []).append(i)
    ambiguous: set[int] = set()
    for idx in groups.values():
        group = [proposals[i] for i in idx]
        if any(p.action not in _UNDISTINGUISHED for p in group):
            continue
        if len({_norm(p.value) for p in group}) > 1:
            ambiguous.update(idx)
    return ambiguous


def _ambiguity_candidate(p: Proposal, specs: Mapping[str, SlotSpec]) -> bool:
    spec = specs.get(p.subject)
    is_list = spec.multi if spec is not None else p.cardinality == Cardinality.MANY
    return (
        p.kind == Kind.STATE
        and p.time_ref in (TimeRef.CURRENT, TimeRef.UNKNOWN)
        and p.action != Action.SKIP
        and bool(p.value.strip())
        and not is_list
        and not p.backdated  # their times say which value is newer
    )
