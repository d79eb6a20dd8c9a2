"""Auditing at the service boundary: one row per public operation, never memory content.

Each public operation of `GraphMem` runs through `Auditor.run`, which hands the operation an
`AuditCall` explicitly. A call that commits graph changes passes it to the write, so the row
is committed with the call's outbox entries (durable with the write; one row per entry, with
the event id and counts) and only a marker of its place is queued; any other call (reads,
denials, errors) queues its own row. Rows are queued, not written, in the caller's path (see
`graphmem.mirror.mirror.Mirror`); whatever reads the chain flushes the queue first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from graphmem.errors import AccessDenied
from graphmem.mirror.audit import AuditEntry, reason
from graphmem.model import Space
from graphmem.model.audit import AuditCall
from graphmem.runtime import Runtime

T = TypeVar("T")
P = ParamSpec("P")


def summary(result: Any) -> dict[str, Any]:
    """What an audit row says about a result: counts and ids, never content."""
    if isinstance(result, dict) and isinstance(result.get("receipt"), dict):
        body = result["receipt"]
        return {k: body[k] for k in ("id", "kind", "scope", "facts") if k in body}
    if isinstance(result, list | tuple):
        return {"count": len(result)}
    if hasattr(result, "ok") and isinstance(result.ok, bool):
        return {"ok": result.ok}
    return {}


class Auditor:
    """Runs one space's operations with their audit rows."""

    def __init__(self, runtime: Runtime, space: Space, caller: str) -> None:
        self.runtime = runtime
        self.space = space
        self.caller = caller

    def run(self, operation: str, work: Callable[[AuditCall], T]) -> T:
        call = AuditCall(self.caller, operation, self.space.tenant)
        mirror = self.runtime.mirror
        mirror.touch(self.space.key)
        try:
            result = work(call)
        except AccessDenied as e:
            self.record(operation, "denied", {"reason": reason(str(e))})
            raise
        except Exception as e:
            mirror.mark(call.events)  # what did commit carries its own row
            self.record(operation, "error", {"error": type(e).__name__})
            raise
        if call.events:
            mirror.mark(call.events)  # the rows are in the committed outbox entries
        else:
            self.record(operation, "ok", summary(result))
        return result

    def record(self, operation: str, outcome: str, detail: dict[str, Any]) -> None:
        self.runtime.mirror.audit(AuditEntry(self.space.key, self.caller, operation, outcome,
                                             detail))


class Audited(Protocol):
    """A service class whose public methods are audited operations."""

    auditor: Auditor


S = TypeVar("S", bound=Audited)


def audited(operation: str) -> Callable[[Callable[Concatenate[S, AuditCall, P], T]],
                                        Callable[Concatenate[S, P], T]]:
    """The method as one public operation with its audit row, under `operation` (the name
    GraphQL and MCP audit it under too): the caller does not pass the `AuditCall`, the
    auditor hands it in."""
    def wrap(method: Callable[Concatenate[S, AuditCall, P], T]) -> Callable[Concatenate[S, P], T]:
        @functools.wraps(method)
        def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
            return self.auditor.run(operation, lambda call: method(self, call, *args, **kwargs))

        return run

    return wrap
