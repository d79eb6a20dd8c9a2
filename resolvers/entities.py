"""The entity graph: entities (listed, searched, one entity's view and an attribute's
timeline), neighbourhoods, multi-hop recall and what reads each relation (the relation
schema, the models' descriptions), the vocabulary, and fsck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.model import NOW, When
from graphmem.model.entities import Entity, EntityView, Vocabulary
from graphmem.model.fsck import Report
from graphmem.model.history import HistoryEntry
from graphmem.model.listings import EntityFilter
from graphmem.model.paging import Page
from graphmem.model.paths import PathStep, Related, StartSpec
from graphmem.model.relations import RelationDescription, RelationInfo, RelationSchema
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("entities", "read")
def entities(call: Call, where: EntityFilter, when: When = NOW, first: int | None = None,
             after: str | None = None, last: int | None = None, before: str | None = None,
             count: bool = True) -> Page[Entity]:
    return call.mem().entities.page(where, when, first=first, after=after, last=last,
                                    before=before, count=count)


@operation("searchEntities", "read")
def search_entities(call: Call, where: EntityFilter, when: When = NOW,
                    first: int | None = None, after: str | None = None,
                    last: int | None = None, before: str | None = None,
                    count: bool = True) -> Page[Entity]:
    """Entities by a part of their name, or of a spelling facts used for them."""
    return call.mem().entities.page(where, when, first=first, after=after, last=last,
                                    before=before, count=count)


@operation("entity", "read")
def entity(call: Call, type: str, name: str, when: When = NOW) -> EntityView:
    return call.mem().entities.get(type, name, as_of=when.as_of, valid_at=when.valid_at)


@operation("entityHistory", "read")
def entity_history(call: Call, type: str, name: str, attribute: str, scope: str | None = None,
                   when: When = NOW, first: int | None = None, after: str | None = None,
                   last: int | None = None, before: str | None = None,
                   count: bool = True) -> Page[HistoryEntry]:
    return call.mem().entities.history_page(type, name, attribute, scope, when, first=first,
                                          after=after, last=last, before=before, count=count)


@operation("neighbourhood", "read")
def neighbourhood(call: Call, type: str, name: str, hops: int = 1, when: When = NOW,
                  limit: int = 50) -> Related:
    return call.mem().entities.neighbourhood(type, name, hops=hops, as_of=when.as_of,
                                    valid_at=when.valid_at, limit=limit)


@operation("recallRelated", "read")
def recall_related(call: Call, question: str | None = None,
                   entities: Sequence[StartSpec] | None = None, hops: int | None = None,
                   when: When = NOW, limit: int = 50, answer: bool = True,
                   path: Sequence[PathStep] | None = None, after: str | None = None
                   ) -> Related:
    return call.mem().entities.recall_related(
        question, list(entities) if entities else None, hops, when.as_of, when.valid_at,
        limit, answer, list(path) if path else None, after)


@operation("relations", "read")
def relations(call: Call) -> list[RelationInfo]:
    return call.mem().entities.relations()


@operation("relationSchema", "read")
def relation_schema(call: Call) -> RelationSchema:
    return call.mem().entities.relation_schema()


@operation("declareRelations", "admin")
def declare_relations(call: Call, relations: Sequence[Mapping[str, Any]],
                      replace: bool = False) -> RelationSchema:
    return call.mem().entities.declare_relations(relations, replace)


@operation("describeRelations", "write")
def describe_relations(call: Call, force: bool = False) -> list[RelationDescription]:
    return call.mem().entities.describe_relations(force)


@operation("vocabulary", "read")
def vocabulary(call: Call, limit: int = 200, when: When = NOW) -> Vocabulary:
    return call.mem().entities.vocabulary(limit, when)


@operation("fsck", "admin")
def fsck(call: Call, strict: bool = False) -> Report:
    """The graph's invariants, near-duplicate entities and the mirror, for one space."""
    return call.mem().records.fsck(strict)


@operation("createEntity", "write")
def create_entity(call: Call, type: str, name: str) -> Entity:
    return call.mem().entities.create(type, name)
