"""Query fields over the entity graph: entities (listed and searched), one entity and an
attribute's timeline, neighbourhoods, multi-hop recall, the vocabulary, fsck."""

from __future__ import annotations

import strawberry

from graphmem.model.listings import EntityFilter
from graphmem.model.paths import PathStep, StartSpec
from graphmem.schema.fields import (
    After,
    AsOf,
    Before,
    First,
    GraphInfo,
    Last,
    SpaceArg,
    ValidAt,
    ValidDuring,
    field,
    run,
    when,
)
from graphmem.schema.fields import (
    space_key as _space,
)
from graphmem.schema.graph_types import (
    Entity,
    EntityView,
    FsckReport,
    RelatedResult,
    Relation,
    RelationSchema,
    Vocabulary,
)
from graphmem.schema.inputs import EntityRefInput, PathDirection, PathStepInput
from graphmem.schema.relay import Connection, connection, wants
from graphmem.schema.types import History


@strawberry.type
class GraphQueries:
    @field("Entities of the space in key order, optionally of one type or matching `search`"
           " (a part of the name, or of a spelling facts used for it).")
    async def entities(self, info: GraphInfo, space: SpaceArg, type: str | None = None,
                       search: str | None = None, as_of: AsOf = None, valid_at: ValidAt = None,
                       valid_during: ValidDuring = None, first: First = None,
                       after: After = None, last: Last = None,
                       before: Before = None) -> Connection[Entity]:
        page = await run(info, space, where=EntityFilter(type, search),
                         when=when(as_of, valid_at, valid_during), first=first, after=after,
                         last=last, before=before, count=wants(info, "totalCount"))
        key = _space(info, space)
        return connection(page, lambda e: Entity.from_model(e, key))

    @field("Entities whose name, or a spelling facts used for them, contains `query` (case"
           " and spacing ignored); names match exactly on the write path, never fuzzily.")
    async def search_entities(self, info: GraphInfo, space: SpaceArg, query: str,
                              type: str | None = None, as_of: AsOf = None,
                              valid_at: ValidAt = None, valid_during: ValidDuring = None,
                              first: First = None, after: After = None, last: Last = None,
                              before: Before = None) -> Connection[Entity]:
        page = await run(info, space, where=EntityFilter(type, query),
                         when=when(as_of, valid_at, valid_during), first=first, after=after,
                         last=last, before=before, count=wants(info, "totalCount"))
        key = _space(info, space)
        return connection(page, lambda e: Entity.from_model(e, key))

    @field("One entity with its attributes and edges (current, or held at `asOf`, or true"
           " at `validAt`).")
    async def entity(self, info: GraphInfo, space: SpaceArg, type: str, name: str,
                     as_of: AsOf = None, valid_at: ValidAt = None) -> EntityView:
        found = await run(info, space, type=type, name=name, when=when(as_of, valid_at))
        return EntityView.from_model(found, _space(info, space), as_of)

    @field("One attribute (a relation or a subject) of an entity through time, oldest to"
           " newest.")
    async def entity_history(self, info: GraphInfo, space: SpaceArg, type: str, name: str,
                             attribute: str, scope: str | None = None, as_of: AsOf = None,
                             valid_at: ValidAt = None, valid_during: ValidDuring = None,
                             first: First = None, after: After = None, last: Last = None,
                             before: Before = None) -> History:
        page = await run(info, space, type=type, name=name, attribute=attribute, scope=scope,
                         when=when(as_of, valid_at, valid_during), first=first, after=after,
                         last=last, before=before, count=wants(info, "totalCount"))
        return History.from_page(f"{name}.{attribute}", page, as_of)

    @field("Paths of up to `hops` edges around one entity.")
    async def neighbourhood(self, info: GraphInfo, space: SpaceArg, type: str, name: str,
                            hops: int = 1, as_of: AsOf = None, valid_at: ValidAt = None,
                            limit: int = 50) -> RelatedResult:
        found = await run(info, space, type=type, name=name, hops=hops,
                          when=when(as_of, valid_at), limit=limit)
        return RelatedResult.from_model(found, _space(info, space), as_of)

    @field("Multi-hop recall from the question's (or the given) entities. With a question the"
           " paths are searched and ranked by it, best first, up to `hops` edges (4 when not"
           " given), and `answers` names the entities the best paths end at when the best"
           " path explains every word of the question (`unexplained` and `guessed` say which"
           " it did not); without one the neighbourhood is walked `hops` deep (2 when not"
           " given). A `path` pattern follows exactly those relations, a page (`limit`) after"
           " `after` at a time. Answered by the model when one is configured.")
    async def recall_related(self, info: GraphInfo, space: SpaceArg,
                             question: str | None = None,
                             entities: list[EntityRefInput] | None = None,
                             hops: int | None = None, as_of: AsOf = None,
                             valid_at: ValidAt = None, limit: int = 50,
                             answer: bool = True,
                             path: list[PathStepInput] | None = None,
                             after: str | None = None) -> RelatedResult:
        given: list[StartSpec] | None = (
            [e.name if e.type is None else (e.type, e.name) for e in entities]
            if entities else None)
        steps = [PathStep(s.relation, s.direction == PathDirection.OUT) for s in path or ()]
        found = await run(info, space, question=question, entities=given, hops=hops,
                          when=when(as_of, valid_at), limit=limit,
                          answer=answer, path=steps or None, after=after)
        return RelatedResult.from_model(found, _space(info, space), as_of)

    @field("Each relation type of the space and what reads it: its labels, the types of its"
           " ends, and its readings with their sources (declared, model, text, lexicon,"
           " label), as multi-hop questions see them.")
    async def relations(self, info: GraphInfo, space: SpaceArg) -> list[Relation]:
        return [Relation.from_model(r) for r in await run(info, space)]

    @field("The space's declared relation schema, with its version.")
    async def relation_schema(self, info: GraphInfo, space: SpaceArg) -> RelationSchema:
        return RelationSchema.from_model(await run(info, space))

    @field("Known entities (seeded first) and the relation labels in use: what the extractor"
           " is shown so later mentions reuse them.")
    async def vocabulary(self, info: GraphInfo, space: SpaceArg, limit: int = 200,
                         as_of: AsOf = None, valid_at: ValidAt = None,
                         valid_during: ValidDuring = None) -> Vocabulary:
        found = await run(info, space, limit=limit,
                          when=when(as_of, valid_at, valid_during))
        return Vocabulary.from_model(found, _space(info, space))

    @field("Check the space: its graph invariants, near-duplicate entities and the mirror"
           " (admin capability; `strict`: duplicates fail too).")
    async def fsck(self, info: GraphInfo, space: SpaceArg, strict: bool = False) -> FsckReport:
        return FsckReport.from_model(await run(info, space, strict=strict))
