"""Decisions, attestations, receipts, the audit chain and erasure."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from graphmem.mcp.args import AgentId, Identifier, RunId, Subject, Subjects, UserId
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.registry import tool
from graphmem.model.receipts import Verdict

D = "default"


def receipt_text(receipt: dict[str, Any]) -> str:
    """A signed receipt as JSON: what verify_receipt (or a third party) takes back."""
    return json.dumps(receipt, indent=2, sort_keys=True, default=str)


def verdict_text(verdict: Verdict) -> str:
    return "Receipt verified." if verdict.ok else f"Receipt NOT verified: {verdict.reason}"


@tool("write", title="Record a decision")
async def record_decision(ctx: Context[Any, Any],
                          action: Annotated[str, Field(min_length=1, max_length=10_000)],
                          subjects: Subjects, user_id: UserId = D, agent_id: AgentId = D,
                          run_id: RunId = D) -> CallToolResult:
    """Snapshot the exact current facts of the subjects an action relied on; returns the
    signed decision receipt."""
    return await call(ctx, "record_decision", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.record_decision(action, subjects), receipt_text)


@tool("read", title="Attest", read_only=True)
async def attest(ctx: Context[Any, Any],
                 subjects: Annotated[list[Subject] | None, Field(max_length=500)] = None,
                 user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """A signed statement of what memory holds now (the space's current facts, or some
    subjects') and where the audit chain stands."""
    return await call(ctx, "attest", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.attest(subjects), receipt_text)


@tool("read", reach="tenant", title="Export the public key", read_only=True)
async def export_public_key(ctx: Context[Any, Any]) -> CallToolResult:
    """The current signing public key (PEM): all a third party needs to verify receipts."""
    return await call(ctx, "export_public_key", None, lambda mem: mem.records.export_public_key())


@tool("verify", reach="tenant", title="Verify a receipt", read_only=True)
async def verify_receipt(ctx: Context[Any, Any],
                         receipt: Annotated[dict[str, Any], Field(max_length=100)],
                         public_key: Annotated[str | None, Field(max_length=10_000)] = None
                         ) -> CallToolResult:
    """Check a receipt's signature: against `public_key` alone when given (what a third
    party holds), else against this deployment's keys, retired ones included."""
    return await call(ctx, "verify_receipt", None,
                      lambda mem: mem.records.verify_receipt(receipt, public_key), verdict_text)


@tool("verify", reach="tenant", title="Verify the audit chain", read_only=True)
async def verify_audit(ctx: Context[Any, Any], deep: bool = False) -> CallToolResult:
    """Check the audit chain: hashes, links and the signed head (`deep`: every row's
    signature too)."""
    return await call(ctx, "verify_audit", None, lambda mem: mem.records.verify_audit(deep))


@tool("delete", title="Delete", destructive=True, idempotent=True)
async def delete(ctx: Context[Any, Any], fact_id: Identifier | None = None,
                 subject: Subject | None = None, user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """Erase one fact (with the tombstones naming it) or every fact of a subject for good:
    graph, mirror, embeddings and caches. Returns a signed erasure receipt."""
    return await call(ctx, "delete", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.erasure.delete(fact_id=fact_id, subject=subject),
                      receipt_text)


@tool("delete", title="Delete everything", destructive=True, idempotent=True)
async def delete_all(ctx: Context[Any, Any], user_id: UserId = D, agent_id: AgentId = D,
                     run_id: RunId = D) -> CallToolResult:
    """Erase every fact, conflict and entity of the space for good; a signed receipt."""
    return await call(ctx, "delete_all", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.erasure.delete_all(), receipt_text)


@tool("delete", title="Purge expired history", destructive=True, idempotent=True)
async def purge_expired(ctx: Context[Any, Any],
                        retention_days: Annotated[float | None, Field(gt=0)] = None,
                        user_id: UserId = D, agent_id: AgentId = D,
                        run_id: RunId = D) -> CallToolResult:
    """Erase retired history (superseded, retracted, historical) older than the retention
    period: the one given, else the space's, else GRAPHMEM_RETENTION_DAYS."""
    return await call(ctx, "purge_expired", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.erasure.purge_expired(retention_days), receipt_text)
