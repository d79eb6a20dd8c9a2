"""The entity graph: entities (listed, searched, one entity's view and an attribute's
timeline), neighbourhoods, multi-hop recall, the vocabulary, and fsck."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.graph.entities import Entity, Vocabulary
from graphmem.graph.entity_listings import EntityFilter
from graphmem.graph.entity_reads import EntityView
from graphmem.graph.fsck import Report
from graphmem.graph.paging import Page
from graphmem.graph.reads import HistoryEntry
from graphmem.model import NOW, When
from graphmem.recall.related import Related, StartSpec
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("entities", "read")
def entities(call: Call, where: EntityFilter, when: When = NOW, first: int | None = None,
             after: str | None = None, last: int | None = None, before: str | None = None,
             count: bool = True) -> Page[Entity]:
    return call.mem().list_entities(where, when, first=first, after=after, last=last,
                                    before=before, count=count)


@operation("searchEntities", "read")
def search_entities(call: Call, where: EntityFilter, when: When = NOW,
                    first: int | None = None, after: str | None = None,
                    last: int | None = None, before: str | None = None,
                    count: bool = True) -> Page[Entity]:
    """Entities by a part of their name, or of a spelling facts used for them."""
    return call.mem().list_entities(where, when, first=first, after=after, last=last,
                                    before=before, count=count)


@operation("entity", "read")
def entity(call: Call, type: str, name: str, when: When = NOW) -> EntityView:
    return call.mem().entity(type, name, as_of=when.as_of, valid_at=when.valid_at)


@operation("entityHistory", "read")
def entity_history(call: Call, type: str, name: str, attribute: str, scope: str | None = None,
                   when: When = NOW, first: int | None = None, after: str | None = None,
                   last: int | None = None, before: str | None = None,
                   count: bool = True) -> Page[HistoryEntry]:
    return call.mem().entity_history_page(type, name, attribute, scope, when, first=first,
                                          after=after, last=last, before=before, count=count)


@operation("neighbourhood", "read")
def neighbourhood(call: Call, type: str, name: str, hops: int = 1, when: When = NOW,
                  limit: int = 50) -> Related:
    return call.mem().neighbourhood(type, name, hops=hops, as_of=when.as_of,
                                    valid_at=when.valid_at, limit=limit)


@operation("recallRelated", "read")
def recall_related(call: Call, question: str | None = None,
                   entities: Sequence[StartSpec] | None = None, hops: int | None = None,
                   when: When = NOW, limit: int = 50, answer: bool = True) -> Related:
    return call.mem().recall_related(question, entities=list(entities) if entities else None,
                                     hops=hops, as_of=when.as_of, valid_at=when.valid_at,
                                     limit=limit, answer=answer)


@operation("vocabulary", "read")
def vocabulary(call: Call, limit: int = 200, when: When = NOW) -> Vocabulary:
    return call.mem().graph_vocabulary(limit, when)


@operation("fsck", "admin")
def fsck(call: Call, strict: bool = False) -> Report:
    """The graph's invariants, near-duplicate entities and the mirror, for one space."""
    return call.mem().fsck(strict)


@operation("createEntity", "write")
def create_entity(call: Call, type: str, name: str) -> Entity:
    return call.mem().create_entity(type, name)
