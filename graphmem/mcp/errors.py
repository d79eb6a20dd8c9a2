"""What a failed call tells the client: the error's own line when it is safe to show, else a
reference the server log holds the detail under. Never a stack trace.

A caller's mistake (bad input, an unknown id, a denial, a budget, no model configured) is
shown as it is: graphmem's messages say what is wrong and what to do. A store outage or a
failing model endpoint (whose message names its URL and quotes its answer) is told by kind,
with a reference; anything unexpected gets the reference only.
"""

from __future__ import annotations

import logging

from graphmem.auth import Unauthenticated
from graphmem.errors import (
    AccessDenied,
    BudgetExceeded,
    InvalidInput,
    LLMCallFailed,
    LLMUnavailable,
    Neo4jUnavailable,
    NotFound,
    StoreUnavailable,
)
from graphmem.mcp.host import new_request_id

log = logging.getLogger("graphmem.mcp")

_SHOWN: tuple[tuple[type[Exception], str], ...] = (
    (Unauthenticated, "UNAUTHENTICATED"),
    (AccessDenied, "FORBIDDEN"),
    (InvalidInput, "BAD_USER_INPUT"),
    (BudgetExceeded, "BAD_USER_INPUT"),
    (NotFound, "NOT_FOUND"),
)
_MASKED: tuple[tuple[type[Exception], str, str], ...] = (
    (Neo4jUnavailable, "UNAVAILABLE", "the graph store (Neo4j) is unavailable"),
    (StoreUnavailable, "UNAVAILABLE", "the relational store is unavailable"),
    (LLMCallFailed, "UNAVAILABLE", "the configured model endpoint failed"),
)


def outcome(error: BaseException) -> str:
    """The metrics outcome of a failed call (the same codes GraphQL answers with)."""
    for cls, code, _ in _MASKED:
        if isinstance(error, cls):
            return code
    for cls, code in _SHOWN:
        if isinstance(error, cls):
            return code
    if isinstance(error, LLMUnavailable):
        return "UNAVAILABLE"
    return "INTERNAL"


def message(error: BaseException, operation: str, request_id: str | None = None) -> str:
    """The one line the client reads."""
    for cls, _, kind in _MASKED:
        if isinstance(error, cls):
            ref = _logged(error, operation, request_id)
            return f"graphmem couldn't complete {operation}: {kind} (ref {ref})"
    for cls, _ in _SHOWN:
        if isinstance(error, cls):
            return str(error)
    if isinstance(error, LLMUnavailable):  # no model configured: says what to do instead
        return str(error)
    ref = _logged(error, operation, request_id, trace=True)
    return f"graphmem couldn't complete {operation} (ref {ref})"


def _logged(error: BaseException, operation: str, request_id: str | None,
            trace: bool = False) -> str:
    ref = new_request_id()[:12]
    log.error("%s failed (ref %s, rid=%s): %s: %s", operation, ref, request_id or "-",
              type(error).__name__, error, exc_info=error if trace else None)
    return ref
