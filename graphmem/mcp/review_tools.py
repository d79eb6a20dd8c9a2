"""The review tools: pending confirm-gate proposals, conflicts, the reconcile policy."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from graphmem.mcp.args import AgentId, Identifier, Note, RunId, UserId
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.registry import tool
from graphmem.model import Policy

D = "default"


@tool("approve", title="Confirm a change")
async def confirm_change(ctx: Context[Any, Any], fact_id: Identifier, user_id: UserId = D,
                         agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Apply a pending proposal; answers what it applied (`Stored: [SUPERSEDE] …`).
    E.g. {"fact_id": "f_3k2"}."""
    return await call(ctx, "confirm_change", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.confirm(fact_id))


@tool("approve", title="Reject a change")
async def reject_change(ctx: Context[Any, Any], fact_id: Identifier, user_id: UserId = D,
                        agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Retire a pending proposal as history (`Rejected: [SUPERSEDE] …`); the current value
    stands. E.g. {"fact_id": "f_3k2"}."""
    return await call(ctx, "reject_change", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.reject(fact_id))


@tool("approve", title="Resolve a conflict")
async def resolve_conflict(ctx: Context[Any, Any], conflict_id: Identifier,
                           winner: Annotated[str, Field(min_length=1, max_length=200,
                                                        description="The winning fact id.")],
                           note: Note = "", user_id: UserId = D, agent_id: AgentId = D,
                           run_id: RunId = D) -> CallToolResult:
    """One claim wins; every other held claim of the conflict is superseded by it.
    E.g. {"conflict_id": "c_9x1", "winner": "f_3k2"}."""
    return await call(ctx, "resolve_conflict", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.resolve_conflict(conflict_id, winner, note))


@tool("approve", title="Dismiss a conflict")
async def dismiss_conflict(ctx: Context[Any, Any], conflict_id: Identifier, note: Note = "",
                           user_id: UserId = D, agent_id: AgentId = D,
                           run_id: RunId = D) -> CallToolResult:
    """Both claims hold (different contexts): the held facts become active beside the rest.
    E.g. {"conflict_id": "c_9x1", "note": "both hold"}."""
    return await call(ctx, "dismiss_conflict", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.dismiss_conflict(conflict_id, note))


@tool("read", title="Reconcile policy", read_only=True)
async def get_reconcile_policy(ctx: Context[Any, Any], user_id: UserId = D,
                               agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """How cross-source conflicts resolve in this space (RECENCY, AUTHORITY or REVIEW)."""
    return await call(ctx, "get_reconcile_policy", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.get_reconcile_policy(), describe_current)


def describe_current(policy: Policy) -> str:
    return policy.describe().replace(" set to ", " is ")


@tool("admin", title="Set the reconcile policy", idempotent=True)
async def set_reconcile_policy(ctx: Context[Any, Any],
                               mode: Literal["RECENCY", "AUTHORITY", "REVIEW"],
                               authority: Annotated[dict[str, int] | None,
                                                    Field(max_length=1000)] = None,
                               curated: Annotated[list[str] | None,
                                                  Field(max_length=1000)] = None,
                               user_id: UserId = D, agent_id: AgentId = D,
                               run_id: RunId = D) -> CallToolResult:
    """RECENCY: a newer source supersedes; AUTHORITY: only a higher-ranked source
    supersedes, others are flagged; REVIEW: every cross-source change is flagged.
    E.g. {"mode": "AUTHORITY", "authority": {"crm": 2, "bot": 1}}."""
    return await call(ctx, "set_reconcile_policy", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.set_reconcile_policy(mode, authority, curated or ()))


@tool("write", title="Undo an event", destructive=True)
async def undo_event(ctx: Context[Any, Any], event_id: Identifier, force: bool = False,
                     user_id: UserId = D, agent_id: AgentId = D,
                     run_id: RunId = D) -> CallToolResult:
    """Revert what one event did (a write's `event_id`, a settlement's, an undo's): what it
    made current is retired, what it retired returns, its flags are withdrawn. Answers each
    change and the undo's own event id (undo that to redo). Refused, naming the blocking
    facts, when later writes built on it (an approver may pass force). A writer may undo its
    own writes for a while; anything else needs approve. E.g. {"event_id": "e3f2a1b4c5d6"}."""
    return await call(ctx, "undo_event", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.undo(event_id, force))
