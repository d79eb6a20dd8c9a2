from enum import Enum


class Action(str, Enum):
    ADD = "ADD"
    SUPERSEDE = "SUPERSEDE"
    RETRACT = "RETRACT"
    REFINE = "REFINE"
    DEDUP = "DEDUP"
    COEXIST = "COEXIST"
    FLAG = "FLAG"
    SKIP = "SKIP"
    ARCHIVE = "ARCHIVE"


class Cardinality(str, Enum):
    ONE = "ONE"
    MANY = "MANY"


class Clock(str, Enum):
    RECORDED = "RECORDED"
    VALID = "VALID"


class ConflictKind(str, Enum):
    AMBIGUITY = "AMBIGUITY"
    LOW_CONFIDENCE = "LOW_CONFIDENCE"
    FUTURE = "FUTURE"
    POLICY = "POLICY"
    PENDING = "PENDING"
    UNCERTAINTY = "UNCERTAINTY"


class ConflictStatus(str, Enum):
    OPEN = "OPEN"
    RESOLVED = "RESOLVED"
    DISMISSED = "DISMISSED"


class Kind(str, Enum):
    STATE = "STATE"
    EVENT = "EVENT"


class PathDirection(str, Enum):
    OUT = "OUT"
    IN = "IN"


class PolicyMode(str, Enum):
    RECENCY = "RECENCY"
    AUTHORITY = "AUTHORITY"
    REVIEW = "REVIEW"


class ReadingKind(str, Enum):
    FORWARD = "FORWARD"
    INVERSE = "INVERSE"
    TAIL = "TAIL"
    HEAD = "HEAD"
    ABOUT = "ABOUT"


class ReadingSource(str, Enum):
    DECLARED = "DECLARED"
    MODEL = "MODEL"
    TEXT = "TEXT"
    LEXICON = "LEXICON"
    LABEL = "LABEL"


class SlotChangeKind(str, Enum):
    ADDED = "ADDED"
    REMOVED = "REMOVED"
    CHANGED = "CHANGED"


class Status(str, Enum):
    ACTIVE = "ACTIVE"
    FLAGGED_CONFLICT = "FLAGGED_CONFLICT"
    SUPERSEDED = "SUPERSEDED"
    HISTORICAL = "HISTORICAL"


class Step(str, Enum):
    STARTED = "STARTED"
    STOPPED = "STOPPED"
    REFINED = "REFINED"


class TimeRef(str, Enum):
    CURRENT = "CURRENT"
    PAST = "PAST"
    FUTURE = "FUTURE"
    UNKNOWN = "UNKNOWN"
