"""The entity graph: entities, one entity's view, neighbourhoods and multi-hop recall."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graphmem.graph.entities import Entity
from graphmem.graph.entity_reads import EntityView
from graphmem.recall.related import Related
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("entities", "read")
def entities(call: Call, type: str | None = None, as_of: datetime | None = None) -> list[Entity]:
    return call.mem().entities(type, as_of)


@operation("entity", "read")
def entity(call: Call, type: str, name: str, as_of: datetime | None = None,
           valid_at: datetime | None = None) -> EntityView:
    return call.mem().entity(type, name, as_of=as_of, valid_at=valid_at)


@operation("neighbourhood", "read")
def neighbourhood(call: Call, type: str, name: str, hops: int = 1,
                  as_of: datetime | None = None, valid_at: datetime | None = None,
                  limit: int = 50) -> Related:
    return call.mem().neighbourhood(type, name, hops=hops, as_of=as_of, valid_at=valid_at,
                                    limit=limit)


@operation("recallRelated", "read")
def recall_related(call: Call, question: str | None = None,
                   entities: Sequence[tuple[str, str]] | None = None, hops: int = 2,
                   as_of: datetime | None = None, valid_at: datetime | None = None,
                   limit: int = 50, answer: bool = True) -> Related:
    return call.mem().recall_related(question, entities=list(entities) if entities else None,
                                     hops=hops, as_of=as_of, valid_at=valid_at, limit=limit,
                                     answer=answer)


@operation("createEntity", "write")
def create_entity(call: Call, type: str, name: str) -> Entity:
    return call.mem().create_entity(type, name)
