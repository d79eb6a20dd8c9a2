"""Every GraphQL error leaves with `extensions.code`; unexpected ones are masked.

Errors raised before execution (syntax, validation, variable coercion) are the caller's
input: BAD_USER_INPUT with the message. During execution the error class decides (its
`code` and `shown`, graphmem.errors). An INTERNAL error gets a reference id; its detail is
logged under the same id and never sent. A store outage says what is down and to retry
(with `Retry-After` on HTTP), and is logged once per outage (graphmem.outage_log).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.types import ExecutionContext

from graphmem.errors import BAD_USER_INPUT, GraphMemError, Outage, public
from graphmem.outage_log import OUTAGES
from graphmem.resolvers.context import RequestContext

log = logging.getLogger("graphmem.api.errors")


def classify(error: GraphQLError) -> tuple[str, bool]:
    """(code, whether the message may be shown)."""
    original = error.original_error
    if error.path is None and (original is None or isinstance(
            original, ValueError | TypeError | GraphQLError)):
        return BAD_USER_INPUT, True
    if error.path is None and not isinstance(original, GraphMemError):
        return public(None)
    return public(original)


def apply_code(error: GraphQLError, context: Any) -> str:
    """Set extensions.code (once) and mask what must not be shown."""
    extensions = dict(error.extensions or {})
    if "code" in extensions:
        return str(extensions["code"])
    code, shown = classify(error)
    extensions["code"] = code
    original = error.original_error
    if isinstance(original, Outage):  # logged once per outage, not per request
        OUTAGES.note(original, ".".join(str(p) for p in error.path or ()) or "a request")
        error.message = original.retry_hint()
        if isinstance(context, RequestContext):
            context.retry_after = max(context.retry_after or 0, original.retry_after)
    elif not shown:
        ref = uuid.uuid4().hex[:12]
        rid = context.request_id if isinstance(context, RequestContext) else "-"
        log.error("ref=%s rid=%s %s: %s", ref, rid, code, error.message,
                  exc_info=error.original_error)
        error.message = f"graphmem couldn't complete that (ref {ref})"
        extensions["ref"] = ref
    error.extensions = extensions
    return code


class GraphMemSchema(strawberry.Schema):
    """The Strawberry schema with coded, masked errors and per-code metrics."""

    def process_errors(self, errors: list[GraphQLError],
                       execution_context: ExecutionContext | None = None) -> None:
        context = execution_context.context if execution_context else None
        for error in errors:
            already = bool(error.extensions and "code" in error.extensions)
            code = apply_code(error, context)
            if not already and isinstance(context, RequestContext):
                context.metrics.error(code)
