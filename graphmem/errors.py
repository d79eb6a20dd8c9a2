"""One exception root; vendor errors are wrapped with `raise ... from e`.

Every message is one line that says what is wrong and what to do about it, because it
reaches people through the CLI, the API and the server log alike.

Each class carries what every transport tells a client about it, as Starlette's
`HTTPException` carries its status: `code` (the public code GraphQL puts in
`extensions.code` and MCP in its error results) and `shown` (whether the message may reach
the client). A masked error's client gets `kind`, a short description, and a reference id
under which the server log holds the message. An exception that is not a `GraphMemError` is
`INTERNAL` and masked.
"""

from __future__ import annotations

from typing import ClassVar

UNAUTHENTICATED = "UNAUTHENTICATED"
FORBIDDEN = "FORBIDDEN"
BAD_USER_INPUT = "BAD_USER_INPUT"
ALREADY_SETTLED = "ALREADY_SETTLED"
NOT_FOUND = "NOT_FOUND"
RATE_LIMITED = "RATE_LIMITED"
UNAVAILABLE = "UNAVAILABLE"
INTERNAL = "INTERNAL"


class GraphMemError(Exception):
    """Root of every error graphmem raises on purpose."""

    code: ClassVar[str] = INTERNAL
    shown: ClassVar[bool] = False
    kind: ClassVar[str] = "an internal error"


def public(error: BaseException | None) -> tuple[str, bool]:
    """(code, whether the message may be shown) for any exception a call ended with."""
    if isinstance(error, GraphMemError):
        return error.code, error.shown
    return INTERNAL, False


def masked_kind(error: BaseException) -> str:
    """What a client whose error is masked is told of it."""
    return error.kind if isinstance(error, GraphMemError) else GraphMemError.kind


class ConfigError(GraphMemError):
    """A setting or a slot schema is malformed."""


class Outage(GraphMemError):
    """A store the call needs cannot be reached: the call may work when retried. The client
    reads `retry_hint` (what is down, and that a retry will work), never the message, which
    names addresses for the operator; the server logs an outage once, then a summary
    (graphmem.outage_log), never a traceback per request."""

    code = UNAVAILABLE
    retry_after: ClassVar[int] = 5  # seconds, the HTTP Retry-After a client is sent

    @classmethod
    def retry_hint(cls) -> str:
        return f"{cls.kind}; retry in a few seconds"


class Neo4jUnavailable(Outage):
    """Neo4j is down, unreachable or refuses our credentials."""

    kind = "the graph store (Neo4j) is unreachable"


class StoreUnavailable(Outage):
    """The relational store (SQLite or Postgres) cannot be reached or opened."""

    kind = "the relational store is unreachable"


class SchemaOutdated(GraphMemError):
    """A schema (graph or relational) is behind the code: run `graphmem migrate up`."""


class ManagedNeo4jError(GraphMemError):
    """The managed local Neo4j could not be installed, started or stopped."""


class InvalidInput(GraphMemError):
    """Input a caller sent is malformed: the message says which field and why."""

    code = BAD_USER_INPUT
    shown = True


class AlreadySettled(InvalidInput):
    """The conflict or pending change was closed by someone else first (a lost race): the
    message says how it was settled; nothing was changed."""

    code = ALREADY_SETTLED


class UndoBlocked(AlreadySettled):
    """An undo would overturn what was written since: the message names the blocking facts;
    nothing was changed (an approver may pass `force`)."""

    code = "UNDO_BLOCKED"


class NotFound(GraphMemError):
    """The id or name asked for does not exist in this space."""

    code = NOT_FOUND
    shown = True


class Unauthenticated(GraphMemError):
    """No credential, or one that is unknown or revoked: send `Authorization: Bearer gm_sk_…`.
    Distinct from AccessDenied, which means 'known, but not allowed'."""

    code = UNAUTHENTICATED
    shown = True


class AccessDenied(GraphMemError):
    """The caller lacks the capability or the scope for this operation."""

    code = FORBIDDEN
    shown = True

    def __init__(self, reason: str) -> None:
        super().__init__(f"Access denied: {reason}")


class RateLimited(GraphMemError):
    """A budget of the caller's ran out (requests, model calls): the message says which and
    when to retry."""

    code = RATE_LIMITED
    shown = True


class LLMUnavailable(GraphMemError):
    """No model is configured: the message says what to configure, or what works without
    one."""

    code = UNAVAILABLE
    shown = True


class LLMCallFailed(LLMUnavailable):
    """The configured endpoint failed or answered nothing usable. The message names the
    endpoint and quotes it, for the operator: the API logs it and answers a reference."""

    shown = False
    kind = "the configured model endpoint failed"


class BudgetExceeded(GraphMemError):
    """A hard budget (critical facts, traversal) would be exceeded; we fail, never truncate."""

    code = BAD_USER_INPUT
    shown = True
