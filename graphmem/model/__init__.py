"""Plain data shared by every stage: no I/O, no driver types.

The reconcile step, the graph store and the service all speak these types, so the rules can
be tested without a database and the stores can change without touching the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from graphmem.errors import InvalidInput

DEFAULT_PART = "default"
DEFAULT_SCOPE = "global"
MISSING_CONFIDENCE = 0.5


class Action(StrEnum):
    ADD = "ADD"
    SUPERSEDE = "SUPERSEDE"
    RETRACT = "RETRACT"
    REFINE = "REFINE"
    DEDUP = "DEDUP"
    COEXIST = "COEXIST"
    FLAG = "FLAG"
    SKIP = "SKIP"
    ARCHIVE = "ARCHIVE"


class Status(StrEnum):
    ACTIVE = "ACTIVE"
    FLAGGED_CONFLICT = "FLAGGED_CONFLICT"
    SUPERSEDED = "SUPERSEDED"
    HISTORICAL = "HISTORICAL"


HOT_STATUSES: tuple[str, ...] = (Status.ACTIVE.value, Status.FLAGGED_CONFLICT.value)


class Kind(StrEnum):
    STATE = "state"
    EVENT = "event"


class TimeRef(StrEnum):
    CURRENT = "current"
    PAST = "past"
    FUTURE = "future"
    UNKNOWN = "unknown"


class ConflictKind(StrEnum):
    AMBIGUITY = "ambiguity"
    LOW_CONFIDENCE = "low_confidence"
    FUTURE = "future"
    POLICY = "policy"
    PENDING = "pending"
    UNCERTAINTY = "uncertainty"


class ConflictStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"


class PolicyMode(StrEnum):
    RECENCY = "RECENCY"
    AUTHORITY = "AUTHORITY"
    REVIEW = "REVIEW"


CLAIMED = "claimed:"


def claimed(source: str) -> str:
    """How a fact records a source its writer is not bound to (graphmem.auth.sources): it
    never equals the source itself, so it is never curated, trusted or ranked as it."""
    return CLAIMED + source


def is_claimed(source: str) -> bool:
    return source.startswith(CLAIMED)


class Cardinality(StrEnum):
    ONE = "one"
    MANY = "many"


def value_key(value: str) -> str:
    """Case-folded, whitespace-collapsed: the equality reconcile uses for values."""
    return " ".join(value.casefold().split())


_SPACE_PART = re.compile(r"^[A-Za-z0-9_.@:\-]{1,128}$")


@dataclass(frozen=True)
class Space:
    """A memory space: every node, edge and row carries its key, every query filters on it."""

    tenant: str = DEFAULT_PART
    user: str = DEFAULT_PART
    agent: str = DEFAULT_PART
    run: str = DEFAULT_PART

    def __post_init__(self) -> None:
        for name in ("tenant", "user", "agent", "run"):
            part = getattr(self, name)
            if not isinstance(part, str) or not _SPACE_PART.match(part):
                raise ValueError(
                    f"space {name} {part!r} is invalid: use 1-128 letters, digits or _ . @ : -"
                )

    @property
    def key(self) -> str:
        return "/".join((self.tenant, self.user, self.agent, self.run))

    @classmethod
    def parse(cls, value: str | Space | None) -> Space:
        """Accept a Space, a key `tenant/user/agent/run` (missing parts default) or None."""
        if isinstance(value, Space):
            return value
        if value is None or value == "":
            return cls()
        parts = [p if p else DEFAULT_PART for p in str(value).split("/")]
        if len(parts) > 4:
            raise ValueError(f"space {value!r} has more than four parts (tenant/user/agent/run)")
        return cls(*parts)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Proposal:
    """One extracted (or pipeline-supplied) fact with the extractor's proposed action."""

    subject: str
    value: str
    scope: str = DEFAULT_SCOPE
    kind: Kind = Kind.STATE
    time_ref: TimeRef = TimeRef.CURRENT
    action: Action = Action.ADD
    confidence: float | None = None
    head: str | None = None
    relation: str | None = None
    tail: str | None = None
    head_type: str | None = None
    tail_type: str | None = None
    cardinality: Cardinality | None = None
    reason: str | None = None
    target_id: str | None = None
    category: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    raw: str = ""
    recorded_at: datetime | None = None
    source: str | None = None
    source_ref: str | None = None
    metadata: dict[str, Any] | None = None

    @property
    def effective_confidence(self) -> float:
        return MISSING_CONFIDENCE if self.confidence is None else self.confidence

    @property
    def backdated(self) -> bool:
        """Carries its own time (a backfill): when memory learnt it, or since when it held."""
        return self.recorded_at is not None or self.valid_from is not None

    @property
    def since(self) -> datetime | None:
        """When the proposal says its value began to hold: its valid_from, else its
        recorded_at (None for an ordinary write, which holds from the write's instant)."""
        return self.valid_from or self.recorded_at

    def with_changes(self, **changes: Any) -> Proposal:
        return replace(self, **changes)


@dataclass(frozen=True)
class Fact:
    """A stored fact as the graph holds it."""

    id: str
    space: str
    subject: str
    value: str
    scope: str = DEFAULT_SCOPE
    kind: Kind = Kind.STATE
    time_ref: TimeRef = TimeRef.CURRENT
    status: Status = Status.ACTIVE
    confidence: float | None = None
    source: str = ""
    source_ref: str = ""
    raw: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    category: str | None = None
    head: str | None = None
    relation: str | None = None
    tail: str | None = None
    cardinality: Cardinality = Cardinality.ONE
    proposed_action: Action | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    retired_at: datetime | None = None
    supersedes: tuple[str, ...] = ()
    retracts: tuple[str, ...] = ()
    revisions: tuple[dict[str, Any], ...] = ()
    # where it came from, not what it says: equal facts may differ in these
    event: str | None = field(default=None, compare=False)  # the event that recorded it
    undone_by: str | None = field(default=None, compare=False)  # the undo that voided it

    @property
    def effective_confidence(self) -> float:
        return MISSING_CONFIDENCE if self.confidence is None else self.confidence

    @property
    def is_hot(self) -> bool:
        return self.status in (Status.ACTIVE, Status.FLAGGED_CONFLICT)


@dataclass(frozen=True)
class SlotSpec:
    """A declared slot (see docs/concepts/slots.md)."""

    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    category: str | None = None
    multi: bool = False
    confirm: bool = False
    verbatim: bool = False


@dataclass(frozen=True)
class Policy:
    """How cross-source conflicts resolve in one space (see docs/concepts/sources.md)."""

    mode: PolicyMode = PolicyMode.RECENCY
    authority: dict[str, int] = field(default_factory=dict)
    curated: frozenset[str] = frozenset()

    def rank(self, source: str) -> int:
        """A claimed source (see `claimed`) ranks 0 whatever the table says."""
        return 0 if is_claimed(source) else self.authority.get(source, 0)

    def describe(self) -> str:
        """The confirmation line of set_reconcile_policy (`Reconciliation policy … set to …`)."""
        text = f"Reconciliation policy for this space set to {self.mode.value}."
        if self.authority:
            text += f" authority ranks: {dict(self.authority)!r}"
        return text


@dataclass(frozen=True)
class SlotState:
    """What reconcile may see of one slot: its hot facts, never a retired row.

    `archived_values` holds the casefolded values of HISTORICAL archived facts of the slot
    (an indexed lookup), so a restated past fact can be recognised without loading history.
    `elsewhere` says whether the subject holds active facts in another scope (for COEXIST).
    """

    facts: tuple[Fact, ...] = ()
    archived_values: frozenset[str] = frozenset()
    elsewhere: bool = False

    @property
    def active(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.status == Status.ACTIVE)

    @property
    def flagged(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.status == Status.FLAGGED_CONFLICT)


@dataclass(frozen=True)
class Context:
    """Everything about the write that is not the fact itself."""

    source: str = ""
    text: str = ""
    trusted: bool = False
    ambiguous: bool = False
    confidence_floor: float = 0.7


@dataclass(frozen=True)
class Decision:
    """What reconcile decided for one proposal; the graph store applies it verbatim.

    `status` is the new fact's status, None when nothing is stored (DEDUP, SKIP, REFINE).
    `value` is what the new fact holds (a tombstone holds `(retracted: X)`). `valid_to` ends
    a backdated value's validity where a newer value of the slot begins.
    """

    action: Action
    subject: str
    value: str
    scope: str
    status: Status | None = None
    fact_id: str | None = None
    kind: Kind = Kind.STATE
    supersedes: tuple[str, ...] = ()
    retracts: tuple[str, ...] = ()
    refines: str | None = None
    conflict_kind: ConflictKind | None = None
    conflict_with: tuple[str, ...] = ()
    proposed_action: Action | None = None
    category: str | None = None
    cardinality: Cardinality = Cardinality.ONE
    note: str = ""
    message: str = ""
    valid_to: datetime | None = None

    @property
    def stores_fact(self) -> bool:
        return self.status is not None


@dataclass(frozen=True)
class Result:
    """One line of a remember result; `str()` is its result line (`Stored: [ADD] db = X`)."""

    action: Action
    subject: str
    value: str
    fact_id: str | None = None
    message: str = ""
    conflict_id: str | None = None
    collisions: tuple[dict[str, Any], ...] = ()
    consistency_token: str | None = None  # a read given it back sees this write
    event_id: str | None = None  # the write's event: undo it with mem.review.undo
    redacted: tuple[str, ...] = ()  # kinds of secrets (or personal data) the write lost

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Conflict:
    id: str
    space: str
    kind: ConflictKind
    status: ConflictStatus
    fact_ids: tuple[str, ...]
    severity: str = "medium"
    note: str = ""
    by: str = ""
    winner: str | None = None
    created_at: datetime | None = None
    closed_at: datetime | None = None
    subject: str = ""
    scope: str = ""


def _aware(at: datetime | None, name: str) -> datetime | None:
    if at is not None and at.tzinfo is None:
        raise InvalidInput(f"{name} must carry a timezone (e.g. 2026-03-01T00:00:00+00:00)")
    return at


@dataclass(frozen=True)
class When:
    """The two clocks of a read. Record time: `as_of` reads memory as it stood at that
    instant (None: now). World time: `valid_at` keeps what was true in the world at that
    instant, `valid_start`/`valid_end` what was true at some point of [start, end) (either
    end may be open); None: no world-time filter. Every time carries a timezone."""

    as_of: datetime | None = None
    valid_at: datetime | None = None
    valid_start: datetime | None = None
    valid_end: datetime | None = None

    def __post_init__(self) -> None:
        for name in ("as_of", "valid_at", "valid_start", "valid_end"):
            _aware(getattr(self, name), name)
        if self.valid_at is not None and (self.valid_start or self.valid_end):
            raise InvalidInput("pass valid_at or a validity interval (valid_during), not both")
        if (self.valid_start is not None and self.valid_end is not None
                and self.valid_start >= self.valid_end):
            raise InvalidInput("a validity interval must end after it starts")

    @property
    def world(self) -> bool:
        """Whether a world-time filter applies."""
        return (self.valid_at or self.valid_start or self.valid_end) is not None

    def params(self) -> dict[str, Any]:
        """The parameters every time-travelling statement takes."""
        return {"as_of": self.as_of, "valid_at": self.valid_at,
                "valid_start": self.valid_start, "valid_end": self.valid_end}


NOW = When()
