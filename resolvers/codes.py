"""Error codes the API answers with, from graphmem's error classes.

A code whose message is safe to show keeps it; for INTERNAL, store outages and a failing
model endpoint (whose message names its URL and quotes its answer) the client gets a
reference id and the server log holds the detail under the same id.
"""

from __future__ import annotations

from graphmem.auth import Unauthenticated
from graphmem.errors import (
    AccessDenied,
    AlreadySettled,
    BudgetExceeded,
    InvalidInput,
    LLMCallFailed,
    LLMUnavailable,
    Neo4jUnavailable,
    NotFound,
    StoreUnavailable,
)

UNAUTHENTICATED = "UNAUTHENTICATED"
FORBIDDEN = "FORBIDDEN"
BAD_USER_INPUT = "BAD_USER_INPUT"
ALREADY_SETTLED = "ALREADY_SETTLED"
NOT_FOUND = "NOT_FOUND"
RATE_LIMITED = "RATE_LIMITED"
UNAVAILABLE = "UNAVAILABLE"
INTERNAL = "INTERNAL"

_SHOWN: tuple[tuple[type[Exception], str], ...] = (
    (Unauthenticated, UNAUTHENTICATED),
    (AccessDenied, FORBIDDEN),
    (AlreadySettled, ALREADY_SETTLED),
    (InvalidInput, BAD_USER_INPUT),
    (BudgetExceeded, BAD_USER_INPUT),
    (NotFound, NOT_FOUND),
    (LLMUnavailable, UNAVAILABLE),
)
_MASKED: tuple[tuple[type[Exception], str], ...] = (
    (Neo4jUnavailable, UNAVAILABLE),
    (StoreUnavailable, UNAVAILABLE),
    (LLMCallFailed, UNAVAILABLE),
)


def code_for(error: BaseException | None) -> tuple[str, bool]:
    """(code, whether the message may be shown to the client); masked classes first, as
    one may refine a shown one, and among shown ones a subclass before its base."""
    if error is not None:
        for cls, code in _MASKED:
            if isinstance(error, cls):
                return code, False
        for cls, code in _SHOWN:
            if isinstance(error, cls):
                return code, True
    return INTERNAL, False
