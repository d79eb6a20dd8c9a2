"""One exception root; vendor errors are wrapped with `raise ... from e`.

Every message is one line that says what is wrong and what to do about it, because it
reaches people through the CLI, the API and the server log alike.
"""

from __future__ import annotations


class GraphMemError(Exception):
    """Root of every error graphmem raises on purpose."""


class ConfigError(GraphMemError):
    """A setting or a slot schema is malformed."""


class Neo4jUnavailable(GraphMemError):
    """Neo4j is down, unreachable or refuses our credentials."""


class StoreUnavailable(GraphMemError):
    """The relational store (SQLite or Postgres) cannot be reached or opened."""


class SchemaOutdated(GraphMemError):
    """A schema (graph or relational) is behind the code: run `graphmem migrate up`."""


class ManagedNeo4jError(GraphMemError):
    """The managed local Neo4j could not be installed, started or stopped."""


class InvalidInput(GraphMemError):
    """Input a caller sent is malformed: the message says which field and why."""


class AlreadySettled(InvalidInput):
    """The conflict or pending change was closed by someone else first (a lost race): the
    message says how it was settled; nothing was changed."""


class NotFound(GraphMemError):
    """The id or name asked for does not exist in this space."""


class AccessDenied(GraphMemError):
    """The caller lacks the capability or the scope for this operation."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"Access denied: {reason}")


class LLMUnavailable(GraphMemError):
    """No model is configured, or the configured endpoint failed."""


class LLMCallFailed(LLMUnavailable):
    """The configured endpoint failed or answered nothing usable. The message names the
    endpoint and quotes it, for the operator: the API logs it and answers a reference."""


class BudgetExceeded(GraphMemError):
    """A hard budget (critical facts, traversal) would be exceeded; we fail, never truncate."""
