"""Query root: reads of one space (named by `space`, in the caller's tenant), of the tenant,
and of any object by its global id.

The fields are grouped by what they read (query_facts, query_graph, query_viewer); this
module adds the
audit chain, receipts and Relay's `node`/`nodes`, and holds the time-travel rules once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graphmem.errors import NotFound
from graphmem.model import Conflict as ModelConflict
from graphmem.model import Fact as ModelFact
from graphmem.model.audit import AuditRow
from graphmem.model.entities import Entity as ModelEntity
from graphmem.model.stats import SpaceInfo
from graphmem.resolvers import execute
from graphmem.schema.audit_types import AuditEntry, AuditReport, ReceiptVerdict
from graphmem.schema.fields import After, First, GraphInfo, SpaceArg, field, run, settings
from graphmem.schema.graph_types import Entity
from graphmem.schema.limits import check_limit
from graphmem.schema.query_facts import FactQueries
from graphmem.schema.query_graph import GraphQueries
from graphmem.schema.query_viewer import ViewerQueries
from graphmem.schema.receipt_types import Receipt, receipt
from graphmem.schema.relay import Connection, GlobalId, Node, connection, parse_global_id, wants
from graphmem.schema.scalars import JSON
from graphmem.schema.space_types import Space
from graphmem.schema.transfer_types import MemoryExport
from graphmem.schema.types import Conflict, Fact

TIME_TRAVEL = """Reads of graphmem's memory. Time travel, the same on every read that takes it:
`asOf` is record time: memory as it stood at that instant (what was stored, each fact with the
status it had and a refined value as it read then); default: now. `validAt` is world time:
only what was true in the world at that instant (valid_from <= t < valid_to); default: no
world-time filter. `validDuring: {from, to}` (facts, timelines, conflicts, entities, stats,
vocabulary) keeps what was true at some point of [from, to); either end may be open. Under a
world-time filter, fact listings default to every fact memory held or archived (superseded ones
included: they were true then), never tombstones or unconfirmed proposals. Both clocks
combine: `asOf` decides what memory held, `validAt` what of it was true then (a fact retired
after `asOf` counts as open-ended then). Every time needs a timezone."""


@strawberry.type(description=TIME_TRAVEL)
class Query(FactQueries, GraphQueries, ViewerQueries):
    @field("Any object by its global id (Fact, Conflict, Entity, AuditEntry, Space): null when"
           " it is gone; the id's space passes the guard like any other.")
    async def node(self, info: GraphInfo, id: strawberry.ID) -> Node | None:
        found = parse_global_id(str(id))
        return await _node(info, info.field_name, found)

    @field("Several objects by global id, in the order given; null for one that is gone"
           " (an id out of your scope is an error at its index).")
    async def nodes(self, info: GraphInfo, ids: list[strawberry.ID]) -> list[Node | None]:
        if ids:
            check_limit(len(ids), settings(info))
        return [await _node(info, info.field_name, parse_global_id(str(i))) for i in ids]

    @field("Your tenant's audit rows, newest first, as a list (verify capability; a key for"
           " the whole tenant); auditEntries pages them.")
    async def audit_log(self, info: GraphInfo, limit: int = 50, before: int | None = None,
                        operation: str | None = None) -> list[AuditEntry]:
        rows = await run(info, None, limit=limit, before=before,
                         operation=operation)
        return [AuditEntry.from_model(r) for r in rows]

    @field("Your tenant's audit rows, newest first, a page at a time (verify capability; a"
           " key for the whole tenant).")
    async def audit_entries(self, info: GraphInfo, first: First = None, after: After = None,
                            operation: str | None = None) -> Connection[AuditEntry]:
        page = await run(info, None, first=first, after=after, operation=operation,
                         count=wants(info, "totalCount"))
        return connection(page, AuditEntry.from_model)

    @field("Check the audit chain (verify capability; `deep` checks the signatures of this"
           " tenant's rows too; `receipt`: fail when the chain no longer holds the head that"
           " receipt saw).")
    async def verify_audit(self, info: GraphInfo, deep: bool = False,
                           receipt: JSON | None = None) -> AuditReport:
        return AuditReport.from_model(await run(info, None, deep=deep, receipt=receipt))

    @field("The current signing public key (PEM): all a third party needs to check a"
           " receipt (read capability; a key for the whole tenant).")
    async def export_public_key(self, info: GraphInfo) -> str:
        return str(await run(info, None))

    @field("Check a receipt's signature, and the facts given with it: against `publicKey`"
           " alone when given (PEM, base64 or hex), else against this deployment's keys,"
           " retired ones included (verify capability; a key for the whole tenant).")
    async def verify_receipt(self, info: GraphInfo, receipt: JSON,
                             public_key: str | None = None) -> ReceiptVerdict:
        return ReceiptVerdict.from_model(await run(info, None, receipt=receipt,
                                                   public_key=public_key))

    @field("A receipt issued earlier in your tenant, by its id (a key for the whole tenant).")
    async def receipt(self, info: GraphInfo, id: strawberry.ID) -> Receipt:
        return receipt(await run(info, None, id=str(id)))


    @field("The space's whole memory as a signed JSON Lines export (as memory held it at"
           " `asOf` when given); inline up to GRAPHMEM_EXPORT_INLINE_MAX, else `graphmem"
           " export`.")
    async def export_memory(self, info: GraphInfo, space: SpaceArg,
                            as_of: datetime | None = None) -> MemoryExport:
        return MemoryExport.from_result(*await run(info, space, as_of=as_of))


async def _node(info: GraphInfo, name: str, ident: GlobalId) -> Node | None:
    try:
        found = await execute(info.context, name, ident.space, type=ident.type,
                              local=ident.local)
    except NotFound:
        return None
    return _typed(found, ident)


def _typed(found: Any, ident: GlobalId) -> Node:
    if isinstance(found, ModelFact):
        return Fact.from_model(found)
    if isinstance(found, ModelConflict):
        return Conflict.from_model(found)
    if isinstance(found, ModelEntity):
        return Entity.from_model(found, ident.space)
    if isinstance(found, AuditRow):
        return AuditEntry.from_model(found)
    if isinstance(found, SpaceInfo):
        return Space.from_model(found)
    raise TypeError(f"no GraphQL type for {type(found).__name__}")
