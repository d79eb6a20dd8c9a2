"""What a failed call tells the client: the error's own line when its class says it may be
shown, else a reference the server log holds the detail under. Never a stack trace.

The codes and the policy are the error classes' own (`code`, `shown` and `kind` in
graphmem.errors), so MCP and GraphQL report the same code for every error.
"""

from __future__ import annotations

import logging

from graphmem.errors import GraphMemError, Outage, masked_kind, public
from graphmem.mcp.host import new_request_id
from graphmem.outage_log import OUTAGES

log = logging.getLogger("graphmem.mcp")


def outcome(error: BaseException) -> str:
    """The public code of a failed call (the metrics outcome)."""
    return public(error)[0]


def message(error: BaseException, operation: str, request_id: str | None = None) -> str:
    """The one line the client reads."""
    _, shown = public(error)
    if shown:
        return str(error)
    if isinstance(error, Outage):  # logged once per outage, not per call
        OUTAGES.note(error, operation)
        return f"graphmem couldn't complete {operation}: {error.retry_hint()}"
    known = isinstance(error, GraphMemError) and type(error).kind != GraphMemError.kind
    ref = _logged(error, operation, request_id, trace=not known)
    if known:
        return f"graphmem couldn't complete {operation}: {masked_kind(error)} (ref {ref})"
    return f"graphmem couldn't complete {operation} (ref {ref})"


def _logged(error: BaseException, operation: str, request_id: str | None,
            trace: bool = False) -> str:
    ref = new_request_id()[:12]
    log.error("%s failed (ref %s, rid=%s): %s: %s", operation, ref, request_id or "-",
              type(error).__name__, error, exc_info=error if trace else None)
    return ref
