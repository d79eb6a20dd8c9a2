"""Query root: reads of one space (named by `space`, in the caller's tenant)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem import model
from graphmem.schema.audit_types import AuditEntry, AuditReport, ReceiptVerdict
from graphmem.schema.enums import ConflictStatus, Status
from graphmem.schema.fields import GraphInfo, SpaceArg, page, run, settings
from graphmem.schema.graph_types import (
    ActCheckResult,
    Entity,
    EntityView,
    RecallResult,
    RelatedResult,
)
from graphmem.schema.inputs import EntityRefInput
from graphmem.schema.limits import check_hops, check_limit
from graphmem.schema.pagination import Connection
from graphmem.schema.scalars import JSON
from graphmem.schema.types import Conflict, Fact, History, Policy, SpaceStats


@strawberry.type
class Query:
    @strawberry.field(description="Facts of a space: current ones by default, or those held"
                                  " at `asOf` / true in the world at `validAt`.")
    async def facts(self, info: GraphInfo, space: SpaceArg, subject: str | None = None,
                    scope: str | None = None, status: Status = Status.ACTIVE,
                    as_of: datetime | None = None, valid_at: datetime | None = None,
                    first: int | None = None, after: str | None = None) -> Connection[Fact]:
        window = page(info, first, after)
        found = await run(info, space, subject=subject, scope=scope,
                          status=model.Status(status.value), as_of=as_of, valid_at=valid_at)
        return window.cut(found, Fact.from_model)

    @strawberry.field(description="One fact by id.")
    async def fact(self, info: GraphInfo, space: SpaceArg, id: strawberry.ID) -> Fact:
        return Fact.from_model(await run(info, space, id=str(id)))

    @strawberry.field(description="A subject's supersession chain, oldest to newest.")
    async def history(self, info: GraphInfo, space: SpaceArg, subject: str,
                      scope: str | None = None, as_of: datetime | None = None) -> History:
        return History.from_model(await run(info, space, subject=subject, scope=scope,
                                            as_of=as_of))

    @strawberry.field(description="Conflicts of a space; all of them when status is null.")
    async def conflicts(self, info: GraphInfo, space: SpaceArg,
                        status: ConflictStatus | None = ConflictStatus.OPEN,
                        first: int | None = None,
                        after: str | None = None) -> Connection[Conflict]:
        window = page(info, first, after)
        found = await run(info, space, status=status.value if status else None)
        return window.cut(found, Conflict.from_model)

    @strawberry.field(description="Confirm-gate proposals waiting for the approve capability.")
    async def pending_changes(self, info: GraphInfo, space: SpaceArg, first: int | None = None,
                              after: str | None = None) -> Connection[Fact]:
        window = page(info, first, after)
        return window.cut(await run(info, space), Fact.from_model)

    @strawberry.field(description="The space's source policy.")
    async def reconcile_policy(self, info: GraphInfo, space: SpaceArg) -> Policy:
        return Policy.from_model(await run(info, space))

    @strawberry.field(description="An answer from the space's current facts (one model call"
                                  " when a model is configured; the fact list otherwise).")
    async def recall(self, info: GraphInfo, space: SpaceArg, question: str,
                     explain: bool = False, include_history: bool = False,
                     as_of: datetime | None = None,
                     critical_categories: list[str] | None = None) -> RecallResult:
        return RecallResult.from_model(await run(
            info, space, question=question, explain=explain, include_history=include_history,
            as_of=as_of, critical_categories=critical_categories))

    @strawberry.field(description="Refuses, with reasons, when a fact an action depends on is"
                                  " flagged, pending, stale or recently changed.")
    async def check_before_act(self, info: GraphInfo, space: SpaceArg, subjects: list[str],
                               max_age_seconds: float | None = None) -> ActCheckResult:
        return ActCheckResult.from_model(await run(info, space, subjects=subjects,
                                                   max_age_seconds=max_age_seconds))

    @strawberry.field(description="Entities of the space, optionally of one type.")
    async def entities(self, info: GraphInfo, space: SpaceArg, type: str | None = None,
                       as_of: datetime | None = None, first: int | None = None,
                       after: str | None = None) -> Connection[Entity]:
        window = page(info, first, after)
        found = await run(info, space, type=type, as_of=as_of)
        return window.cut(found, Entity.from_model)

    @strawberry.field(description="One entity with its attributes and edges.")
    async def entity(self, info: GraphInfo, space: SpaceArg, type: str, name: str,
                     as_of: datetime | None = None,
                     valid_at: datetime | None = None) -> EntityView:
        return EntityView.from_model(await run(info, space, type=type, name=name, as_of=as_of,
                                               valid_at=valid_at))

    @strawberry.field(description="Paths of up to `hops` edges around one entity.")
    async def neighbourhood(self, info: GraphInfo, space: SpaceArg, type: str, name: str,
                            hops: int = 1, as_of: datetime | None = None,
                            valid_at: datetime | None = None,
                            limit: int = 50) -> RelatedResult:
        check_hops(hops, settings(info))
        return RelatedResult.from_model(await run(
            info, space, type=type, name=name, hops=hops, as_of=as_of, valid_at=valid_at,
            limit=check_limit(limit, settings(info))))

    @strawberry.field(description="Multi-hop recall from the question's (or the given)"
                                  " entities; answered by the model when one is configured.")
    async def recall_related(self, info: GraphInfo, space: SpaceArg,
                             question: str | None = None,
                             entities: list[EntityRefInput] | None = None, hops: int = 2,
                             as_of: datetime | None = None, valid_at: datetime | None = None,
                             limit: int = 50, answer: bool = True) -> RelatedResult:
        check_hops(hops, settings(info))
        given = [(e.type, e.name) for e in entities] if entities else None
        return RelatedResult.from_model(await run(
            info, space, question=question, entities=given, hops=hops, as_of=as_of,
            valid_at=valid_at, limit=check_limit(limit, settings(info)), answer=answer))

    @strawberry.field(description="Your tenant's audit rows, newest first (verify capability;"
                                  " a key for the whole tenant).")
    async def audit_log(self, info: GraphInfo, limit: int = 50, before: int | None = None,
                        operation: str | None = None) -> list[AuditEntry]:
        rows = await run(info, None, limit=check_limit(limit, settings(info)), before=before,
                         operation=operation)
        return [AuditEntry.from_model(r) for r in rows]

    @strawberry.field(description="Check the audit chain (verify capability; `deep` checks the"
                                  " signatures of this tenant's rows too; `receipt`: fail when"
                                  " the chain no longer holds the head that receipt saw).")
    async def verify_audit(self, info: GraphInfo, deep: bool = False,
                           receipt: JSON | None = None) -> AuditReport:
        return AuditReport.from_model(await run(info, None, deep=deep, receipt=receipt))

    @strawberry.field(description="Counts of active, flagged and retired facts and conflicts.")
    async def stats(self, info: GraphInfo, space: SpaceArg) -> SpaceStats:
        return SpaceStats.from_model(await run(info, space))

    @strawberry.field(description="The current signing public key (PEM): all a third party"
                                  " needs to check a receipt (read capability; a key for the"
                                  " whole tenant).")
    async def export_public_key(self, info: GraphInfo) -> str:
        return str(await run(info, None))

    @strawberry.field(description="Check a receipt's signature, and the facts given with it:"
                                  " against `publicKey` alone when given (PEM, base64 or hex),"
                                  " else against this deployment's keys, retired ones included"
                                  " (verify capability; a key for the whole tenant).")
    async def verify_receipt(self, info: GraphInfo, receipt: JSON,
                             public_key: str | None = None) -> ReceiptVerdict:
        return ReceiptVerdict.from_model(await run(info, None, receipt=receipt,
                                                   public_key=public_key))

    @strawberry.field(description="A receipt issued earlier in your tenant, by its id (a key"
                                  " for the whole tenant).")
    async def receipt(self, info: GraphInfo, id: strawberry.ID) -> JSON:
        return JSON(await run(info, None, id=str(id)))
