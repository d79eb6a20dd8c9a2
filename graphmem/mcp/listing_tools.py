"""Paged reads of one space: facts of any status, one fact or conflict by id, conflicts,
pending proposals, counts, and the tenant's spaces; each page bounded by `limit`, the next
one named by its cursor."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from graphmem.mcp.args import AgentId, Identifier, Instant, RunId, UserId
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.pages import (
    LIMIT,
    Cursor,
    Limit,
    conflict_line,
    fact_line,
    listed,
    page_text,
)
from graphmem.mcp.registry import tool
from graphmem.model import ConflictKind, ConflictStatus, Kind, Status, When
from graphmem.model.listings import ConflictFilter, FactFilter

D = "default"
StatusName = Literal["ACTIVE", "FLAGGED_CONFLICT", "SUPERSEDED", "HISTORICAL"]
ConflictKindName = Literal["ambiguity", "low_confidence", "future", "policy", "pending",
                           "uncertainty"]
Short = Annotated[str | None, Field(max_length=200)]


@tool("read", title="List facts", read_only=True)
async def list_facts(ctx: Context[Any, Any],
                     statuses: Annotated[list[StatusName] | None, Field(max_length=4)] = None,
                     subject: Annotated[str | None, Field(max_length=10_000)] = None,
                     scope: Short = None, source: Short = None, category: Short = None,
                     kind: Literal["state", "event"] | None = None,
                     text: Annotated[str | None, Field(max_length=1000)] = None,
                     as_of: Instant = None, valid_at: Instant = None,
                     cursor: Cursor = None, limit: Limit = LIMIT, user_id: UserId = D,
                     agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Facts of any status, newest first, filtered and paged: use it to browse or audit
    memory rather than to answer a question. Active ones unless `statuses` says otherwise;
    `text` matches part of a value or subject. E.g. {"statuses": ["SUPERSEDED"],
    "subject": "plan", "limit": 20}."""
    where = FactFilter(subject=subject, scope=scope, source=source, category=category,
                       statuses=tuple(Status(s) for s in statuses) if statuses else None,
                       kind=Kind(kind) if kind else None, text=text)
    when = When(as_of=as_of, valid_at=valid_at)
    return await call(ctx, "list_facts", space_of(user_id, agent_id, run_id),
                      lambda mem: listed(mem.records.page(where, when, first=limit,
                                                          after=cursor, count=False)),
                      page_text(fact_line, "No facts match."))


@tool("read", title="Get a fact", read_only=True)
async def get_fact(ctx: Context[Any, Any], fact_id: Identifier, as_of: Instant = None,
                   user_id: UserId = D, agent_id: AgentId = D,
                   run_id: RunId = D) -> CallToolResult:
    """One fact by its id (as results and listings show it, e.g. {"fact_id": "f_3k2"}),
    with its status, provenance, times and the facts it supersedes or retracts."""
    return await call(ctx, "get_fact", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.fact(fact_id, as_of), fact_line)


@tool("read", title="Get a conflict", read_only=True)
async def get_conflict(ctx: Context[Any, Any], conflict_id: Identifier, user_id: UserId = D,
                       agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """One conflict by its id (e.g. {"conflict_id": "c_9x1"}): its kind, status, note and
    the facts held against each other."""
    return await call(ctx, "get_conflict", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.conflict(conflict_id), conflict_line)


@tool("read", title="List conflicts", read_only=True)
async def list_conflicts(ctx: Context[Any, Any],
                         status: Literal["open", "resolved", "dismissed", "all"] = "open",
                         kinds: Annotated[list[ConflictKindName] | None,
                                          Field(max_length=20)] = None,
                         subject: Annotated[str | None, Field(max_length=10_000)] = None,
                         as_of: Instant = None, valid_at: Instant = None,
                         cursor: Cursor = None, limit: Limit = LIMIT, user_id: UserId = D,
                         agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Conflicts waiting for a person (open ones unless `status` says otherwise), paged:
    id, kind, severity and the facts held against each other. Settle one with
    resolve_conflict or dismiss_conflict. E.g. {"status": "all", "subject": "plan"}."""
    where = ConflictFilter(
        status=None if status == "all" else ConflictStatus(status),
        kinds=tuple(ConflictKind(k) for k in kinds) if kinds else None, subject=subject)
    when = When(as_of=as_of, valid_at=valid_at)
    empty = f"No {'' if status == 'all' else status + ' '}conflicts."
    return await call(ctx, "list_conflicts", space_of(user_id, agent_id, run_id),
                      lambda mem: listed(mem.review.list_conflicts(
                          where, when, first=limit, after=cursor, count=False)),
                      page_text(conflict_line, empty))


@tool("read", title="Pending changes", read_only=True)
async def pending_changes(ctx: Context[Any, Any], as_of: Instant = None,
                          cursor: Cursor = None, limit: Limit = LIMIT, user_id: UserId = D,
                          agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Proposals to confirm-gated slots waiting for someone with the approve capability,
    paged; approve with confirm_change or reject_change by fact id. E.g. {"limit": 10}."""
    def line(f: Any) -> str:
        proposed = f" (proposed {f.proposed_action.value})" if f.proposed_action else ""
        return f"#{f.id} {f.subject} = {f.value}{proposed}"

    return await call(ctx, "pending_changes", space_of(user_id, agent_id, run_id),
                      lambda mem: listed(mem.review.pending_changes(
                          When(as_of=as_of), first=limit, after=cursor, count=False)),
                      page_text(line, "No pending changes."))


@tool("read", title="Space stats", read_only=True)
async def space_stats(ctx: Context[Any, Any], as_of: Instant = None, user_id: UserId = D,
                      agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """How many facts the space holds by status, its open conflicts, pending changes and
    entities, now or `as_of` a past instant. E.g. {"user_id": "alice"}."""
    return await call(ctx, "space_stats", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.stats(When(as_of=as_of)),
                      lambda stats: json.dumps(vars(stats), sort_keys=True))


@tool("read", reach="tenant", title="List spaces", read_only=True)
async def list_spaces(ctx: Context[Any, Any], cursor: Cursor = None,
                      limit: Limit = LIMIT) -> CallToolResult:
    """The memory spaces of your tenant (tenant/user/agent/run), oldest first, paged; needs a
    key for the whole tenant. E.g. {"limit": 100}."""
    def line(info: Any) -> str:
        return f"{info.key} (since {info.created_at:%Y-%m-%d})" if info.created_at else info.key

    return await call(ctx, "list_spaces", None,
                      lambda mem: listed(mem.records.spaces(first=limit, after=cursor,
                                                            count=False)),
                      page_text(line, "No spaces yet."))
