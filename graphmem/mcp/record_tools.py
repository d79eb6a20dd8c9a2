"""Decisions, attestations, receipts, the audit chain and erasure."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from graphmem.mcp.args import (
    AgentId,
    Identifier,
    Instant,
    RunId,
    Subject,
    Subjects,
    UserId,
)
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.pages import LIMIT, Cursor, Limit, listed, page_text
from graphmem.mcp.registry import tool
from graphmem.model.audit import AuditRow
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
    signed decision receipt.
    E.g. {"action": "sent the renewal quote", "subjects": ["plan"]}."""
    return await call(ctx, "record_decision", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.record_decision(action, subjects), receipt_text)


@tool("read", title="Attest", read_only=True)
async def attest(ctx: Context[Any, Any],
                 subjects: Annotated[list[Subject] | None, Field(max_length=500)] = None,
                 user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """A signed statement of what memory holds now (the space's current facts, or some
    subjects') and where the audit chain stands. E.g. {"subjects": ["plan"]}."""
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
    party holds), else against this deployment's keys, retired ones included.
    E.g. {"receipt": <a receipt as returned>}."""
    return await call(ctx, "verify_receipt", None,
                      lambda mem: mem.records.verify_receipt(receipt, public_key), verdict_text)


@tool("verify", reach="tenant", title="Verify the audit chain", read_only=True)
async def verify_audit(ctx: Context[Any, Any], deep: bool = False) -> CallToolResult:
    """Check the audit chain: hashes, links and the signed head (`deep`: every row's
    signature too). E.g. {"deep": true}."""
    return await call(ctx, "verify_audit", None, lambda mem: mem.records.verify_audit(deep))


@tool("delete", title="Delete", destructive=True, idempotent=True)
async def delete(ctx: Context[Any, Any], fact_id: Identifier | None = None,
                 subject: Subject | None = None, user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """Erase one fact (with the tombstones naming it) or every fact of a subject for good:
    graph, mirror, embeddings and caches. Returns a signed erasure receipt.
    E.g. {"subject": "home_address"}."""
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
    period: the one given, else the space's, else GRAPHMEM_RETENTION_DAYS.
    E.g. {"retention_days": 365}."""
    return await call(ctx, "purge_expired", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.erasure.purge_expired(retention_days), receipt_text)


@tool("verify", reach="tenant", title="Audit log", read_only=True)
async def audit_log(ctx: Context[Any, Any],
                    operation: Annotated[str | None, Field(max_length=100)] = None,
                    cursor: Cursor = None, limit: Limit = LIMIT) -> CallToolResult:
    """Your tenant's audit rows, newest first, paged: who called what on which space and
    how it ended, each row hash-chained and signed. E.g. {"operation": "forget",
    "limit": 20}."""
    def line(row: AuditRow) -> str:
        return (f"{row.seq} {row.at} {row.caller} {row.operation} {row.space}"
                f" {row.outcome}")

    return await call(ctx, "audit_log", None,
                      lambda mem: listed(mem.records.audit_page(
                          first=limit, after=cursor, operation=operation, count=False)),
                      page_text(line, "No audit rows."))


@tool("read", title="Export a space", read_only=True)
async def export_space(ctx: Context[Any, Any], as_of: Instant = None, user_id: UserId = D,
                       agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """The space's whole memory as signed JSON Lines (facts with their links, entities,
    conflicts, decisions), as it stands or `as_of` an instant; refused past the server's
    inline bound (GRAPHMEM_EXPORT_INLINE_MAX), where `graphmem export` writes a file.
    E.g. {"user_id": "alice"}."""
    def text(found: tuple[str, Any]) -> str:
        return found[0]

    return await call(ctx, "export_space", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.transfer.export_inline(as_of=as_of), text)


@tool("admin", title="Set the retention period", idempotent=True)
async def set_retention(ctx: Context[Any, Any],
                        days: Annotated[float | None, Field(gt=0, le=36_500)] = None,
                        user_id: UserId = D, agent_id: AgentId = D,
                        run_id: RunId = D) -> CallToolResult:
    """How long retired history is kept before purge_expired erases it, for this space;
    leave `days` out to go back to the server's default. E.g. {"days": 90}."""
    return await call(ctx, "set_retention", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.erasure.set_retention(days))


@tool("delete", reach="user", title="Erase a user", destructive=True, idempotent=True)
async def erase_user(ctx: Context[Any, Any], user_id: UserId) -> CallToolResult:
    """Erase every space of one user, from every store, for good (a right-to-erasure
    request); returns a signed erasure receipt. E.g. {"user_id": "alice"}."""
    return await call(ctx, "erase_user", user_id,
                      lambda mem: mem.erasure.erase_subtree("user"), receipt_text)


@tool("delete", reach="tenant", title="Erase the tenant", destructive=True, idempotent=True)
async def erase_tenant(ctx: Context[Any, Any]) -> CallToolResult:
    """Erase every space of your tenant, from every store, for good; needs a key for the
    whole tenant with the delete capability. Returns a signed erasure receipt."""
    return await call(ctx, "erase_tenant", None,
                      lambda mem: mem.erasure.erase_subtree("tenant"), receipt_text)


@tool("read", reach="tenant", title="Get a receipt", read_only=True)
async def get_receipt(ctx: Context[Any, Any], receipt_id: Identifier) -> CallToolResult:
    """A receipt issued earlier in your tenant (a decision, attestation or erasure), by
    its id, to show or to verify again. E.g. {"receipt_id": "r_5fa"}."""
    return await call(ctx, "get_receipt", None,
                      lambda mem: mem.records.receipt(receipt_id), receipt_text)


@tool("backfill", title="Import into a space")
async def import_space(ctx: Context[Any, Any],
                       data: Annotated[str, Field(min_length=1, max_length=1_000_000)],
                       mode: Annotated[str, Field(max_length=20, description=(
                           "auto, restore or replay"))] = "auto",
                       format: Annotated[str, Field(max_length=20, description=(
                           "auto, graphmem, vayl, mem0, csv or jsonl"))] = "auto",
                       public_key: Annotated[str | None, Field(max_length=10_000)] = None,
                       user_id: UserId = D, agent_id: AgentId = D,
                       run_id: RunId = D) -> CallToolResult:
    """Load an export's content (graphmem's signed JSON Lines, or another memory's export)
    into the space: restored as it was, or replayed through reconciliation. Needs the
    backfill capability. E.g. {"data": "<the export>", "mode": "replay"}."""
    return await call(ctx, "import_space", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.transfer.import_text(data, mode=mode, format=format,
                                                           public_key=public_key))


@tool("admin", title="Check the graph", read_only=True)
async def fsck(ctx: Context[Any, Any], strict: bool = False, user_id: UserId = D,
               agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """Check the space's graph against its invariants (one active value per slot, every
    link and vector where it belongs) and report each problem found. E.g. {}."""
    return await call(ctx, "fsck", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.fsck(strict))
