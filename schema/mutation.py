"""Mutation root: writes, review actions and administration of one space."""

from __future__ import annotations

from typing import Any

import strawberry

from graphmem.model import Result
from graphmem.model.requests import Write
from graphmem.schema.enums import PolicyMode
from graphmem.schema.fields import GraphInfo, SpaceArg, mutation, run, space_key
from graphmem.schema.graph_types import Entity, RelationDescription, RelationSchema
from graphmem.schema.inputs import FactInput, RelationInput, SourceRankInput
from graphmem.schema.receipt_types import (
    AttestationReceipt,
    Decision,
    ErasureReceipt,
    decision,
    receipt,
)
from graphmem.schema.relay import local_id
from graphmem.schema.scalars import JSON, as_object
from graphmem.schema.transfer_types import ImportResult
from graphmem.schema.types import (
    ChangeResult,
    Policy,
    PolicyResult,
    RememberResult,
    UndoResult,
)


def _results(info: GraphInfo, space: str, results: list[Result]) -> list[RememberResult]:
    key = space_key(info, space)
    return [RememberResult.from_model(r, key) for r in results]


def _erasure(document: dict[str, Any]) -> ErasureReceipt:
    found = receipt(document)
    assert isinstance(found, ErasureReceipt)
    return found


@strawberry.type
class Mutation:
    @mutation("One extraction call by the configured LLM, then"
                                     " reconciliation; DEDUP without a call for a restatement.")
    async def remember(self, info: GraphInfo, space: SpaceArg, text: str, source: str = "",
                       metadata: JSON | None = None,
                       source_ref: str = "") -> list[RememberResult]:
        write = Write(None, text, source, source_ref, as_object(metadata))
        return _results(info, space, await run(info, space, write=write))

    @mutation("Extraction with every action forced to RETRACT.")
    async def forget(self, info: GraphInfo, space: SpaceArg, text: str,
                     source: str = "") -> list[RememberResult]:
        write = Write(None, text, source, retract=True)
        return _results(info, space, await run(info, space, write=write))

    @mutation("Seed a canonical entity so later mentions land on it.")
    async def create_entity(self, info: GraphInfo, space: SpaceArg, type: str,
                            name: str) -> Entity:
        found = await run(info, space, type=type, name=name)
        return Entity.from_model(found, space_key(info, space))

    @mutation("Reconcile pre-extracted facts (no model call).")
    async def remember_facts(self, info: GraphInfo, space: SpaceArg, facts: list[FactInput],
                             text: str = "", source: str = "", source_ref: str = "",
                             metadata: JSON | None = None) -> list[RememberResult]:
        write = Write(tuple(f.to_dict() for f in facts), text, source, source_ref,
                      as_object(metadata))
        return _results(info, space, await run(info, space, write=write))

    @mutation("Retract facts: every action is forced to RETRACT.")
    async def forget_facts(self, info: GraphInfo, space: SpaceArg, facts: list[FactInput],
                           text: str = "", source: str = "",
                           metadata: JSON | None = None) -> list[RememberResult]:
        write = Write(tuple(f.to_dict() for f in facts), text, source, "", as_object(metadata),
                      retract=True)
        return _results(info, space, await run(info, space, write=write))

    @mutation("Revert what one event did (a write's `eventId`, a settlement's, an undo's):"
              " what it made current is retired, what it retired returns, its flags are"
              " withdrawn and its refinements refined back. The undo is an event of its own"
              " (undo it to redo). Refused, naming the blocking facts, when later writes"
              " built on the event, unless an approver passes `force`. A writer may undo its"
              " own writes for GRAPHMEM_UNDO_WINDOW_SECONDS; anything else needs approve.")
    async def undo_event(self, info: GraphInfo, space: SpaceArg, event_id: strawberry.ID,
                         force: bool = False) -> UndoResult:
        return UndoResult.from_model(await run(info, space, event_id=str(event_id),
                                               force=force))

    @mutation("Apply a pending change (approve capability).")
    async def confirm_change(self, info: GraphInfo, space: SpaceArg,
                             fact_id: strawberry.ID) -> RememberResult:
        found = await run(info, space, fact_id=local_id(str(fact_id), "Fact"))
        return RememberResult.from_model(found, space_key(info, space))

    @mutation("Reject a pending change (approve capability); it is kept as history"
              " (`Rejected: …`).")
    async def reject_change(self, info: GraphInfo, space: SpaceArg,
                            fact_id: strawberry.ID) -> RememberResult:
        found = await run(info, space, fact_id=local_id(str(fact_id), "Fact"))
        return RememberResult.from_model(found, space_key(info, space))

    @mutation("One claim wins; the others are superseded by it.")
    async def resolve_conflict(self, info: GraphInfo, space: SpaceArg, conflict_id: strawberry.ID,
                               winner: strawberry.ID, note: str = "") -> RememberResult:
        found = await run(info, space, conflict_id=local_id(str(conflict_id), "Conflict"),
                          winner=local_id(str(winner), "Fact"), note=note)
        return RememberResult.from_model(found, space_key(info, space))

    @mutation("Both claims stay valid (different contexts).")
    async def dismiss_conflict(self, info: GraphInfo, space: SpaceArg, conflict_id: strawberry.ID,
                               note: str = "") -> RememberResult:
        found = await run(info, space, conflict_id=local_id(str(conflict_id), "Conflict"),
                          note=note)
        return RememberResult.from_model(found, space_key(info, space))

    @mutation("Snapshot the ACTIVE facts an action relied on; returns"
                                     " the decision with its signed receipt.")
    async def record_decision(self, info: GraphInfo, space: SpaceArg, action: str,
                              subjects: list[str]) -> Decision:
        return decision(await run(info, space, action=action, subjects=subjects))

    @mutation("Erase one fact (factId) or every fact of a subject from"
                                     " both stores (delete capability); a signed receipt.")
    async def delete(self, info: GraphInfo, space: SpaceArg, fact_id: strawberry.ID | None = None,
                     subject: str | None = None) -> ErasureReceipt:
        return _erasure(await run(info, space, subject=subject, fact_id=local_id(
            str(fact_id), "Fact") if fact_id else None))

    @mutation("Erase every fact, conflict and entity of the space.")
    async def delete_all(self, info: GraphInfo, space: SpaceArg) -> ErasureReceipt:
        return _erasure(await run(info, space))

    @mutation("Erase retired history older than the retention period"
                                     " (days; default: the space's, else the setting).")
    async def purge(self, info: GraphInfo, space: SpaceArg,
                    retention_days: float | None = None) -> ErasureReceipt:
        return _erasure(await run(info, space, retention_days=retention_days))

    @mutation("Set the space's retention period for purge, in days"
                                     " (admin capability); null: back to the default.")
    async def set_retention(self, info: GraphInfo, space: SpaceArg,
                            days: float | None = None) -> ChangeResult:
        return ChangeResult(message=await run(info, space, days=days))

    @mutation("A signed statement of the space's ACTIVE facts (or those"
                                     " of some subjects) and of the audit chain's head.")
    async def attest(self, info: GraphInfo, space: SpaceArg,
                     subjects: list[str] | None = None) -> AttestationReceipt:
        found = receipt(await run(info, space, subjects=subjects))
        assert isinstance(found, AttestationReceipt)
        return found

    @mutation("Erase every space of one user (`user`, or `tenant/user`"
                                     " in your tenant) from both stores; one signed receipt"
                                     " (delete capability, and the key must hold the whole"
                                     " user).")
    async def erase_user(self, info: GraphInfo, user: str) -> ErasureReceipt:
        return _erasure(await run(info, user))

    @mutation("Erase every space of your tenant, named to confirm, from"
                                     " both stores; one signed receipt (delete capability; a"
                                     " key for the whole tenant).")
    async def erase_tenant(self, info: GraphInfo, tenant: str) -> ErasureReceipt:
        return _erasure(await run(info, tenant))

    @mutation("Set the space's source policy (admin capability).")
    async def set_reconcile_policy(self, info: GraphInfo, space: SpaceArg, mode: PolicyMode,
                                   authority: list[SourceRankInput] | None = None,
                                   curated: list[str] | None = None) -> PolicyResult:
        ranks = {a.source: a.rank for a in authority or ()}
        message, policy = await run(info, space, mode=mode.value, authority=ranks,
                                    curated=tuple(curated or ()))
        return PolicyResult(message=message, policy=Policy.from_model(policy))

    @mutation("Declare relations of the space (admin capability): per relation, what it"
              " means and the words that read it each way; the schema's version goes up by"
              " one. `replace` drops the declarations not given.")
    async def declare_relations(self, info: GraphInfo, space: SpaceArg,
                                relations: list[RelationInput],
                                replace: bool = False) -> RelationSchema:
        return RelationSchema.from_model(await run(
            info, space, relations=[r.plain() for r in relations], replace=replace))

    @mutation("Have the configured model describe each relation type no declaration or"
              " earlier description covers (every one with `force`): one model call per"
              " relation type, stored and audited.")
    async def describe_relations(self, info: GraphInfo, space: SpaceArg,
                                 force: bool = False) -> list[RelationDescription]:
        return [RelationDescription.from_model(d) for d in await run(info, space,
                                                                      force=force)]

    @strawberry.mutation(description="Import a file's content (backfill capability): restore a"
                                     " graphmem export into an empty space, or replay values"
                                     " at their times (Vayl, Mem0, CSV, JSON Lines).")
    async def import_memory(self, info: GraphInfo, space: SpaceArg, data: str,
                            mode: str = "auto", format: str = "auto",
                            public_key: str | None = None) -> ImportResult:
        return ImportResult.from_model(await run(info, space, data=data, mode=mode,
                                                 format=format, public_key=public_key))
