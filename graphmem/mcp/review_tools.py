"""The review tools: pending confirm-gate proposals, conflicts, the reconcile policy."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from graphmem.mcp.args import AgentId, Identifier, Note, RunId, UserId
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.registry import tool
from graphmem.model import Conflict, Fact, Policy

D = "default"


def pending_text(facts: list[Fact]) -> str:
    if not facts:
        return "No pending changes."
    return "\n".join(f"#{f.id} {f.subject} = {f.value}" + (
        f" (proposed {f.proposed_action.value})" if f.proposed_action else "") for f in facts)


def conflicts_text(found: list[Conflict], status: str) -> str:
    if not found:
        return f"No {'' if status == 'all' else status + ' '}conflicts."
    lines = []
    for c in found:
        facts = ", ".join(f"#{f}" for f in c.fact_ids)
        note = f" — {c.note}" if c.note else ""
        lines.append(f"{c.id} [{c.status.value}] {c.kind.value} ({c.severity}): {facts}{note}")
    return "\n".join(lines)


@tool("read", title="Pending changes", read_only=True)
async def pending_changes(ctx: Context[Any, Any], user_id: UserId = D, agent_id: AgentId = D,
                          run_id: RunId = D) -> CallToolResult:
    """Proposals to confirm-gated slots waiting for someone with the approve capability
    (confirm_change or reject_change by fact id)."""
    return await call(ctx, "pending_changes", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.pending(), pending_text)


@tool("approve", title="Confirm a change")
async def confirm_change(ctx: Context[Any, Any], fact_id: Identifier, user_id: UserId = D,
                         agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Apply a pending proposal; answers what it applied (`Stored: [SUPERSEDE] …`)."""
    return await call(ctx, "confirm_change", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.confirm(fact_id))


@tool("approve", title="Reject a change")
async def reject_change(ctx: Context[Any, Any], fact_id: Identifier, user_id: UserId = D,
                        agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Retire a pending proposal as history (`Rejected: [SUPERSEDE] …`); the current value
    stands."""
    return await call(ctx, "reject_change", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.reject(fact_id))


@tool("read", title="List conflicts", read_only=True)
async def list_conflicts(ctx: Context[Any, Any],
                         status: Literal["open", "resolved", "dismissed", "all"] = "open",
                         user_id: UserId = D, agent_id: AgentId = D,
                         run_id: RunId = D) -> CallToolResult:
    """The space's conflicts (open ones by default): id, kind, severity and the facts held
    against each other."""
    return await call(ctx, "list_conflicts", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.conflicts(None if status == "all" else status),
                      lambda found: conflicts_text(found, status))


@tool("approve", title="Resolve a conflict")
async def resolve_conflict(ctx: Context[Any, Any], conflict_id: Identifier,
                           winner: Annotated[str, Field(min_length=1, max_length=200,
                                                        description="The winning fact id.")],
                           note: Note = "", user_id: UserId = D, agent_id: AgentId = D,
                           run_id: RunId = D) -> CallToolResult:
    """One claim wins; every other held claim of the conflict is superseded by it."""
    return await call(ctx, "resolve_conflict", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.resolve_conflict(conflict_id, winner, note))


@tool("approve", title="Dismiss a conflict")
async def dismiss_conflict(ctx: Context[Any, Any], conflict_id: Identifier, note: Note = "",
                           user_id: UserId = D, agent_id: AgentId = D,
                           run_id: RunId = D) -> CallToolResult:
    """Both claims hold (different contexts): the held facts become active beside the rest."""
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
    supersedes, others are flagged; REVIEW: every cross-source change is flagged."""
    return await call(ctx, "set_reconcile_policy", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.review.set_reconcile_policy(mode, authority, curated or ()))
