"""GraphQL enums mirroring graphmem.model's (a test keeps the members equal)."""

from __future__ import annotations

from enum import Enum

import strawberry


@strawberry.enum(description="What reconciliation did with a proposed fact.")
class Action(Enum):
    ADD = "ADD"
    SUPERSEDE = "SUPERSEDE"
    RETRACT = "RETRACT"
    REFINE = "REFINE"
    DEDUP = "DEDUP"
    COEXIST = "COEXIST"
    FLAG = "FLAG"
    SKIP = "SKIP"
    ARCHIVE = "ARCHIVE"


@strawberry.enum(description="Where a fact stands: only ACTIVE and FLAGGED_CONFLICT are hot.")
class Status(Enum):
    ACTIVE = "ACTIVE"
    FLAGGED_CONFLICT = "FLAGGED_CONFLICT"
    SUPERSEDED = "SUPERSEDED"
    HISTORICAL = "HISTORICAL"


@strawberry.enum(description="A state holds until replaced; an event happened once.")
class Kind(Enum):
    STATE = "state"
    EVENT = "event"


@strawberry.enum(description="The tense the fact was stated in.")
class TimeRef(Enum):
    CURRENT = "current"
    PAST = "past"
    FUTURE = "future"
    UNKNOWN = "unknown"


@strawberry.enum(description="Why a conflict was opened.")
class ConflictKind(Enum):
    AMBIGUITY = "ambiguity"
    LOW_CONFIDENCE = "low_confidence"
    FUTURE = "future"
    POLICY = "policy"
    PENDING = "pending"
    UNCERTAINTY = "uncertainty"


@strawberry.enum(description="A conflict's lifecycle: open, then resolved or dismissed.")
class ConflictStatus(Enum):
    OPEN = "open"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"


@strawberry.enum(description="How cross-source conflicts resolve in a space.")
class PolicyMode(Enum):
    RECENCY = "RECENCY"
    AUTHORITY = "AUTHORITY"
    REVIEW = "REVIEW"
