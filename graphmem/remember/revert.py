"""What undoing one event does, decided without I/O: the inverse of its batches, as a batch of
the write path's own rows, or the facts that block it.

An event made some facts current (new facts written ACTIVE, proposals it confirmed), retired
others (the facts it superseded or retracted, or settled away), flagged proposals, refined
values in place and wrote history (tombstones, archives, rejected proposals). Undoing it:

- a fact it made current is retired; a proposal it flagged is withdrawn (and its conflict
  closed once nothing in it is held); its history rows are marked undone. Each of these is
  marked with the undo's event and loses its validity (it was never true, as memory now
  knows), so neither clock shows it any more;
- a fact it retired returns as a copy that RESTORES it: current from the undo on, valid from
  where the original's validity was cut (or as the original was). The original keeps its
  row and its history, so every earlier instant of either clock still reads as it did;
- a value it refined in place is refined back, as a new revision.

The undo is itself an event of the same shape, so undoing it applies these rules again.
It is refused, with the blocking facts named, when a later write built on what it would
change: a fact it made current was retired or refined since, a value it refined was refined
again, or a slot it would restore holds a value written since. `force` undoes anyway, and
retires those later values too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.model import Cardinality, Status, value_key
from graphmem.recall.text import fact_text
from graphmem.remember.new_fact import revision

RETIRED = (Status.SUPERSEDED.value, Status.HISTORICAL.value)
UNDOABLE = frozenset({"remember", "settle", "undo"})
# Properties a restoring copy does not take from the fact it restores.
_NOT_COPIED = frozenset({"id", "status", "recorded_at", "held_from", "retired_at",
                         "valid_from", "valid_to", "valid_to_at", "refined_at", "event",
                         "held_event", "retired_event", "refined_event", "undone_by",
                         "undone_at", "action", "proposed_action", "coexist"})


@dataclass(frozen=True)
class Touched:
    """What one event did, read from its batches: the facts it made current, flagged,
    retired and wrote as history, its refinements (fact id -> the value before and after)
    and the conflicts it opened or joined."""

    current: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()
    retired: tuple[str, ...] = ()
    history: tuple[str, ...] = ()
    refined: dict[str, tuple[str, str]] = field(default_factory=dict)
    conflicts: tuple[dict[str, Any], ...] = ()
    withdrawn: tuple[dict[str, Any], ...] = ()  # flags an undo withdrew, with their kind
    confirmed: tuple[str, ...] = ()  # proposals a settlement made current
    kind: str | None = None  # the kind of conflict a settlement closed
    validity: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # before an undo
    marked: tuple[str, ...] = ()  # history an undo marked undone

    @property
    def empty(self) -> bool:
        return not (self.current or self.flagged or self.retired or self.history
                    or self.refined or self.marked)

    def ids(self) -> list[str]:
        return list(dict.fromkeys([*self.current, *self.flagged, *self.retired,
                                   *self.history, *self.refined, *self.marked]))


def touched(kind: str, payload: dict[str, Any], batches: list[dict[str, Any]]) -> Touched:
    """What an event's batches did (`batches`: as graph.outbox.batches reads them)."""
    current: list[str] = []
    flagged: list[str] = []
    retired: list[str] = []
    history: list[str] = []
    refined: dict[str, tuple[str, str]] = {}
    conflicts: list[dict[str, Any]] = []
    confirmed: list[str] = []
    for batch in batches:
        for row in batch.get("facts", []):
            status = row.get("status")
            target = (current if status == Status.ACTIVE.value else
                      flagged if status == Status.FLAGGED_CONFLICT.value else history)
            target.append(str(row["id"]))
        for row in batch.get("statuses", []):
            if row.get("status") == Status.ACTIVE.value:
                current.append(str(row["id"]))
                confirmed.append(str(row["id"]))
            elif row.get("status") in RETIRED:
                retired.append(str(row["id"]))
        for key in ("supersedes", "retracts"):
            retired += [str(edge["old"]) for edge in batch.get(key, [])]
        for row in batch.get("refines", []):
            former = json.loads(row["revision"]) if isinstance(row.get("revision"), str) \
                else dict(row.get("revision") or {})
            before = former.get("value")
            if before is not None and str(row["id"]) not in refined:
                refined[str(row["id"])] = (str(before), str(row["value"]))
            elif str(row["id"]) in refined:
                refined[str(row["id"])] = (refined[str(row["id"])][0], str(row["value"]))
        conflicts += [c for c in batch.get("conflicts", []) if isinstance(c, dict)]
    made = set(current) | set(flagged)
    undo = kind == "undo"
    validity = {str(u["id"]): (u.get("valid_from"), u.get("valid_to"))
                for u in payload.get("undone", []) if undo and isinstance(u, dict)}
    marked = tuple(str(m) for m in payload.get("marked", [])) if undo else ()
    retired = [r for r in dict.fromkeys(retired) if r not in made and r not in marked]
    # a fact the event both made current and retired (a later decision of one batch) was
    # never current once the event was done
    current = [c for c in dict.fromkeys(current) if c not in retired]
    withdrawn = tuple(w for w in payload.get("withdrawn", []) if isinstance(w, dict)) \
        if kind == "undo" else ()
    kind_closed = payload.get("kind") if kind == "settle" else None
    return Touched(tuple(current), tuple(dict.fromkeys(flagged)), tuple(retired),
                   tuple(dict.fromkeys(history)), refined, tuple(conflicts), withdrawn,
                   tuple(c for c in dict.fromkeys(confirmed) if c in current),
                   str(kind_closed) if kind_closed else None, validity, marked)


@dataclass(frozen=True)
class Blocker:
    """A fact written since that the undo would overturn, and why."""

    fact_id: str
    reason: str


@dataclass
class Plan:
    """The undo as the write path's rows, and what it means."""

    facts: list[dict[str, Any]] = field(default_factory=list)  # restoring copies
    statuses: list[dict[str, Any]] = field(default_factory=list)
    refines: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)  # flags restored
    undone: list[str] = field(default_factory=list)  # marked undone, validity emptied
    marked: list[str] = field(default_factory=list)  # the history rows among them
    restores: list[dict[str, str]] = field(default_factory=list)  # {new: copy, old}
    withdrawn: list[dict[str, Any]] = field(default_factory=list)  # {fact, conflict}
    close: list[str] = field(default_factory=list)  # conflicts left with nothing held
    blockers: list[Blocker] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Slot:
    """The held facts of one (subject, scope) now: id -> (status, value key)."""

    held: dict[str, tuple[str, str]]


@dataclass(frozen=True)
class OpenConflict:
    """A conflict the event opened or joined, as it is now: its kind and severity, and each
    of its facts' status."""

    kind: str
    severity: str
    members: tuple[tuple[str, str], ...]


def plan(did: Touched, facts: dict[str, dict[str, Any]], slots: dict[tuple[str, str], Slot],
         conflicts: dict[str, OpenConflict], force: bool, now: datetime,
         source: str, new_id: Callable[[str], str]) -> Plan:
    """The undo of an event that did `did`, against the facts as they are now (`facts`: id ->
    properties; `slots`: the held facts of each slot it would restore into; `conflicts`: the
    conflicts it opened or joined)."""
    out = Plan()
    _retire_current(did, facts, now, new_id, out)
    _withdraw_flags(did, facts, conflicts, out)
    _mark_history(did, facts, out)
    _refine_back(did, facts, now, source, out)
    _restore(did, facts, slots, now, new_id, out)
    _remark(did, facts, now, new_id, out)
    if out.blockers and force:
        held = {fid for slot in slots.values() for fid, (status, _) in slot.held.items()
                if status == Status.ACTIVE.value}
        for blocker in out.blockers:
            if blocker.fact_id in held and \
                    blocker.fact_id not in {s["id"] for s in out.statuses}:
                out.statuses.append({"id": blocker.fact_id,
                                     "status": Status.SUPERSEDED.value})
                out.undone.append(blocker.fact_id)
                out.lines.append(f"Retired #{blocker.fact_id}, written since (forced)")
    return out


def _retire_current(did: Touched, facts: dict[str, dict[str, Any]], now: datetime,
                    new_id: Callable[[str], str], out: Plan) -> None:
    for fid in did.current:
        fact = facts.get(fid)
        if fact is None:
            continue
        if fact.get("status") != Status.ACTIVE.value:
            out.blockers.append(Blocker(fid, f"{_name(fact)} is {fact.get('status')} since"
                                             f" (event {fact.get('retired_event') or '?'})"))
            continue
        if fid in did.refined and fact.get("value") != did.refined[fid][1]:
            continue  # blocked below, as a refinement
        out.statuses.append({"id": fid, "status": Status.SUPERSEDED.value})
        out.undone.append(fid)
        out.lines.append(f"Retired #{fid} {_name(fact)} = {fact.get('value')}")
        if fid in did.confirmed:  # a confirmed proposal waits for a person again
            _refile(fact, fid, did.kind, now, new_id, out)


def _withdraw_flags(did: Touched, facts: dict[str, dict[str, Any]],
                    conflicts: dict[str, OpenConflict], out: Plan) -> None:
    withdrawn = set()
    for fid in did.flagged:
        fact = facts.get(fid)
        if fact is None:
            continue
        if fact.get("status") != Status.FLAGGED_CONFLICT.value:
            out.blockers.append(Blocker(fid, f"the proposal {_name(fact)} ="
                                             f" {fact.get('value')} was settled since"))
            continue
        out.statuses.append({"id": fid, "status": Status.HISTORICAL.value})
        out.undone.append(fid)
        withdrawn.add(fid)
        out.lines.append(f"Withdrew the flagged #{fid} {_name(fact)} = {fact.get('value')}")
    for conflict_id, conflict in conflicts.items():
        mine = [fid for fid, _ in conflict.members if fid in withdrawn]
        still = [fid for fid, status in conflict.members
                 if status == Status.FLAGGED_CONFLICT.value and fid not in withdrawn]
        for fid in mine:
            out.withdrawn.append({"fact": fid, "conflict": conflict_id,
                                  "kind": conflict.kind, "severity": conflict.severity})
        if mine and not still:
            out.close.append(conflict_id)
            out.lines.append(f"Closed conflict {conflict_id}")


def _mark_history(did: Touched, facts: dict[str, dict[str, Any]], out: Plan) -> None:
    for fid in did.history:
        fact = facts.get(fid)
        if fact is not None and not fact.get("undone_by"):
            out.undone.append(fid)
            out.marked.append(fid)
            out.statuses.append({"id": fid, "status": Status.HISTORICAL.value})
            out.lines.append(f"Marked #{fid} {_name(fact)} = {fact.get('value')} undone")


def _refine_back(did: Touched, facts: dict[str, dict[str, Any]], now: datetime, source: str,
                 out: Plan) -> None:
    for fid, (before, after) in did.refined.items():
        fact = facts.get(fid)
        if fact is None or fid in out.undone:
            continue
        if fact.get("value") != after:
            out.blockers.append(Blocker(fid, f"{_name(fact)} was refined again since (now"
                                             f" {fact.get('value')!r})"))
            continue
        former = revision(str(fact.get("value")), source, now)
        out.refines.append({
            "id": fid, "value": before, "value_key": value_key(before),
            "search_text": fact_text(str(fact["subject"]), before, str(fact["scope"])),
            "confidence": fact.get("confidence"),
            "revision": json.dumps(former, sort_keys=True)})
        out.lines.append(f"Refined #{fid} {_name(fact)} back to {before}")


def _restore(did: Touched, facts: dict[str, dict[str, Any]],
             slots: dict[tuple[str, str], Slot], now: datetime, new_id: Callable[[str], str],
             out: Plan) -> None:
    """Each fact the event retired returns as a copy; one that was never current (a
    proposal rejected, or withdrawn by an undo) returns as a proposal waiting again."""
    leaving = {s["id"] for s in out.statuses}
    kinds = {str(w.get("fact")): str(w.get("kind") or "") for w in did.withdrawn}
    for fid in did.retired:
        old = facts.get(fid)
        if old is None:
            continue
        if old.get("status") not in RETIRED:
            out.blockers.append(Blocker(fid, f"{_name(old)} = {old.get('value')} is"
                                             f" {old.get('status')} again since"))
            continue
        if old.get("held_from") is None:
            _refile(old, fid, kinds.get(fid) or did.kind, now, new_id, out)
            continue
        slot = slots.get((str(old["subject"]), str(old["scope"])), Slot({}))
        one = old.get("cardinality", Cardinality.ONE.value) == Cardinality.ONE.value
        for held, (status, key) in slot.held.items():
            if held in leaving or status != Status.ACTIVE.value:
                continue
            if one or key == old.get("value_key"):
                out.blockers.append(Blocker(held, f"{_name(old)} holds a value written since"
                                                  f" (#{held})"))
        copy = _copy(old, new_id("f"), now, False, did.validity.get(fid))
        out.facts.append(copy)
        out.restores.append({"new": copy["id"], "old": fid})
        out.lines.append(f"Restored {_name(old)} = {old.get('value')} as #{copy['id']}")


def _remark(did: Touched, facts: dict[str, dict[str, Any]], now: datetime,
            new_id: Callable[[str], str], out: Plan) -> None:
    """History an undo marked undone (an archive, a tombstone) is written again, as a
    copy with the validity it had."""
    for fid in did.marked:
        old = facts.get(fid)
        if old is None:
            continue
        copy = _copy(old, new_id("f"), now, False, did.validity.get(fid))
        copy.update(status=Status.HISTORICAL.value, retired_at=now)
        copy.pop("held_from", None)
        out.facts.append(copy)
        out.restores.append({"new": copy["id"], "old": fid})
        out.lines.append(f"Wrote {_name(old)} = {old.get('value')} back into history as"
                         f" #{copy['id']}")


def _refile(old: dict[str, Any], fid: str, kind: str | None, now: datetime,
            new_id: Callable[[str], str], out: Plan) -> None:
    """A proposal back where it was: a flagged copy in a conflict of its own kind."""
    copy = _copy(old, new_id("f"), now, True, None)
    out.facts.append(copy)
    out.restores.append({"new": copy["id"], "old": fid})
    chosen = kind or "pending"
    out.conflicts.append({"id": new_id("c"), "subject": copy["subject"],
                          "scope": copy["scope"], "kind": chosen,
                          "severity": "high" if chosen == "pending" else "medium",
                          "note": "waiting again: the change that settled it was undone",
                          "flagged": [copy["id"]], "fact_ids": [copy["id"]]})
    out.lines.append(f"Flagged #{copy['id']} {_name(old)} = {old.get('value')} again")


def _copy(old: dict[str, Any], fid: str, now: datetime, flagged: bool,
          validity: tuple[Any, Any] | None) -> dict[str, Any]:
    """A fact that restores `old`: current (or flagged again) from now on, valid from where
    the retirement cut the original's validity (as the original was, when it had its own
    end; as it was before an undo emptied it, for a fact an undo retired)."""
    row = {k: v for k, v in old.items() if k not in _NOT_COPIED and v is not None}
    cut = old.get("valid_to_at") is not None
    valid_from, valid_to = validity if validity is not None else (
        old.get("valid_to") if cut else old.get("valid_from"),
        None if cut else old.get("valid_to"))
    row.update(id=fid, recorded_at=now, action="ADD",
               status=Status.FLAGGED_CONFLICT.value if flagged else Status.ACTIVE.value,
               valid_from=valid_from, valid_to=valid_to)
    if not flagged:
        row["held_from"] = now
    return {k: v for k, v in row.items() if v is not None}


def _name(fact: dict[str, Any]) -> str:
    scope = fact.get("scope") or "global"
    return str(fact.get("subject")) + ("" if scope == "global" else f" ({scope})")


def slots_of(did: Touched, facts: dict[str, dict[str, Any]]) -> list[dict[str, str]]:
    """The slots the undo would restore values into."""
    seen: dict[tuple[str, str], None] = {}
    for fid in did.retired:
        fact = facts.get(fid)
        if fact is not None:
            seen[(str(fact["subject"]), str(fact["scope"]))] = None
    return [{"subject": s, "scope": sc} for s, sc in seen]
