"""`mem.entities`: the entity graph: seeded entities, entity views and histories,
neighbourhoods and multi-hop recall_related, and the projection's maintenance."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

from graphmem.embeddings import EmbedderUnavailable, Vector
from graphmem.errors import ConfigError, InvalidInput, LLMUnavailable
from graphmem.graph import (
    entities,
    entity_listings,
    entity_reads,
    projection,
    spaces,
    timelines,
)
from graphmem.graph.reads import aware
from graphmem.model import NOW, When
from graphmem.model.audit import AuditCall
from graphmem.model.entities import Entity, EntityView, SweepResult, Vocabulary
from graphmem.model.history import History, HistoryEntry
from graphmem.model.listings import EntityFilter
from graphmem.model.paging import Page
from graphmem.model.paths import Bounds, PathStep, Related, StartSpec
from graphmem.model.relations import (
    RelationDeclaration,
    RelationDescription,
    RelationInfo,
    RelationSchema,
)
from graphmem.recall import related, related_answer, relation_description, relation_schema
from graphmem.recall.relation_knowledge import Known
from graphmem.service.audit import Auditor, audited
from graphmem.service.context import SpaceContext, now

log = logging.getLogger(__name__)


class Entities:
    """The entity graph the facts project into: entities, their attributes and edges,
    neighbourhoods and multi-hop recall, and the projection's upkeep."""

    def __init__(self, ctx: SpaceContext, auditor: Auditor) -> None:
        self.ctx = ctx
        self.auditor = auditor

    @audited("create_entity")
    def create(self, call: AuditCall, type: str, name: str) -> Entity:
        """Seed a canonical entity before ingestion so later mentions land on it."""
        self.ctx.require("write")
        return self.ctx.write(call, entities.seed, type, name, now())

    @audited("entities")
    def all(self, call: AuditCall, type: str | None = None,
            as_of: datetime | None = None) -> list[Entity]:
        self.ctx.require("read")
        return entities.listing(self.ctx.graph, self.ctx.key, type, aware(as_of, "as_of"))

    @audited("entity")
    def get(self, call: AuditCall, type: str, name: str, as_of: datetime | None = None,
            valid_at: datetime | None = None) -> EntityView:
        """The entity's active attributes and edges (or those held/valid at an instant)."""
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return entity_reads.view(self.ctx.graph, self.ctx.key, found, aware(as_of, "as_of"),
                                 aware(valid_at, "valid_at"))

    @audited("entity_history")
    def history(self, call: AuditCall, type: str, name: str, key: str) -> History:
        """The supersession chain of one attribute of an entity, oldest → newest."""
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return entity_reads.history(self.ctx.graph, self.ctx.key, found, key)

    @audited("neighbourhood")
    def neighbourhood(self, call: AuditCall, type: str, name: str, hops: int = 1,
                      as_of: datetime | None = None, valid_at: datetime | None = None,
                      limit: int = 50) -> Related:
        return self._related(call, None, [(type, name)], hops, as_of, valid_at, limit,
                             False, None, None)

    @audited("recall_related")
    def recall_related(self, call: AuditCall, question: str | None = None,
                       start: Sequence[StartSpec] | None = None,
                       hops: int | None = None, as_of: datetime | None = None,
                       valid_at: datetime | None = None, limit: int = 50,
                       answer: bool = True, path: Sequence[PathStep] | None = None,
                       after: str | None = None) -> Related:
        return self._related(call, question, start, hops, as_of, valid_at, limit, answer,
                             path, after)

    def _related(self, call: AuditCall, question: str | None,
                 start: Sequence[StartSpec] | None, hops: int | None,
                 as_of: datetime | None, valid_at: datetime | None, limit: int,
                 answer: bool, path: Sequence[PathStep] | None, after: str | None) -> Related:
        self.ctx.require("read")
        self.ctx.limit(limit)
        deepest = self.ctx.settings.api_max_hops
        for what, depth in (("hops", hops), ("a path pattern's steps", len(path or ()) or None)):
            if depth is not None and not 1 <= depth <= deepest:
                raise InvalidInput(f"{what} must be between 1 and {deepest}"
                                   f" (GRAPHMEM_API_MAX_HOPS), got {depth}")
        runtime = self.ctx.runtime
        if (question and not path and runtime.llm is not None
                and self.ctx.settings.describe_relations and self.ctx.caller.can("write")):
            self._describe(call, False)  # once per new relation type, never per question
        found = related.recall_related(
            self.ctx.graph, self.ctx.key, question, start, hops, aware(as_of, "as_of"),
            aware(valid_at, "valid_at"), Bounds(paths=limit, hops=deepest),
            related.Reader(self._vectors, runtime.lexicon, runtime.relation_knowledge),
            path, after)
        llm = self.ctx.runtime.llm
        if answer and question and not path and llm is not None and found.paths:
            return replace(found, answer=related_answer.answer(llm, question, found))
        return found

    # ---- what is known of each relation ------------------------------------------------
    def _known(self) -> Known:
        runtime = self.ctx.runtime
        return runtime.relation_knowledge.read(self.ctx.graph, self.ctx.key, runtime.lexicon)

    @audited("relations")
    def relations(self, call: AuditCall) -> list[RelationInfo]:
        """Each relation type of the space and what reads it: its labels, the types of its
        ends, its readings with the source of each (declared, model, text, lexicon, label)."""
        self.ctx.require("read")
        known = self._known()
        return sorted(known.relations.values(), key=lambda r: r.type)

    @audited("relation_schema")
    def relation_schema(self, call: AuditCall) -> RelationSchema:
        """The space's declared relations, with the schema's version."""
        self.ctx.require("read")
        return self._known().schema

    @audited("declare_relations")
    def declare_relations(self, call: AuditCall,
                          relations: Iterable[Mapping[str, Any] | RelationDeclaration],
                          replace: bool = False) -> RelationSchema:
        """Declare relations (admin): per relation a `label`, a `description`, `forward`
        and `inverse` verb phrases, `head_nouns` and `tail_nouns`, the ends' types and a
        cardinality. A declared relation's readings are trusted first by recall_related.
        `replace` drops the declarations not given; the version goes up by one."""
        self.ctx.require("admin")
        items = [asdict(d) if isinstance(d, RelationDeclaration) else d for d in relations]
        checked = relation_schema.declarations(items)
        at = now()
        schema = relation_schema.merged(self._known().schema, checked, replace,
                                        at.isoformat())
        self.ctx.write(call, spaces.change_relation_schema, relation_schema.schema_to_json(schema),
                       at)
        return schema

    @audited("describe_relations")
    def describe_relations(self, call: AuditCall, force: bool = False
                           ) -> list[RelationDescription]:
        """Have the configured model describe each relation type no declaration or earlier
        description covers (every one with `force`): one call per relation type; each
        description is stored with the model's name and audited with this call."""
        return self._describe(call, force)

    def _describe(self, call: AuditCall, force: bool) -> list[RelationDescription]:
        self.ctx.require("write")
        llm = self.ctx.runtime.llm
        if llm is None:
            raise LLMUnavailable("describing relations needs a model: set GRAPHMEM_LLM_BASE_URL"
                                 " and GRAPHMEM_LLM_MODEL, or declare the relations")
        known = self._known()
        declared = {relation_schema.relation_type_of(d) for d in known.schema.relations}
        wanted = [info for t, info in sorted(known.relations.items())
                  if t not in declared and (force or t not in known.described)]
        if not wanted:
            return []
        described = dict(known.described)
        made = []
        for info in wanted:
            try:
                said = relation_description.describe(llm, info, known.examples(info.type))
            except (InvalidInput, LLMUnavailable) as e:
                # kept as tried, so later questions do not ask again; `force` retries it
                log.warning("the model could not describe %s: %s", info.type, e)
                said = RelationDeclaration(label=info.labels[0] if info.labels
                                           else info.type.lower())
            found = RelationDescription(self.ctx.settings.llm_model or "", now().isoformat(),
                                        said)
            described[info.type] = found
            made.append(found)
        self.ctx.write(call, spaces.change_relation_descriptions,
                       relation_schema.descriptions_to_json(described), now())
        return made

    def _vectors(self, texts: Sequence[str]) -> dict[str, Vector]:
        """The local embedding model's vectors of short texts (question phrases, relation
        labels, roles, entity types), cached by text."""
        try:
            return self.ctx.runtime.embedder.queries(texts)
        except ConfigError as e:
            raise EmbedderUnavailable(str(e)) from e

    @audited("graph_vocabulary")
    def vocabulary(self, call: AuditCall, limit: int = 200, when: When = NOW) -> Vocabulary:
        """Known entity names and relation labels, for the extraction prompt."""
        self.ctx.require("read")
        return entities.vocabulary(self.ctx.graph, self.ctx.key, self.ctx.limit(limit), when)

    # ---- paged reads ------------------------------------------------------------------------
    @audited("list_entities")
    def page(self, call: AuditCall, where: EntityFilter | None = None, when: When = NOW, *,
             first: int | None = None, after: str | None = None, last: int | None = None,
             before: str | None = None, count: bool = True) -> Page[Entity]:
        """Entities by type or by a part of a name they go by, a page at a time."""
        window = self.ctx.window("entity", first, after, last, before, count)
        where = where or EntityFilter()
        self.ctx.require("read")
        return entity_listings.entity_page(self.ctx.graph, self.ctx.key, where, when, window)

    @audited("entity_history_page")
    def history_page(self, call: AuditCall, type: str, name: str, attribute: str,
                     scope: str | None = None, when: When = NOW, *, first: int | None = None,
                     after: str | None = None, last: int | None = None,
                     before: str | None = None, count: bool = True) -> Page[HistoryEntry]:
        window = self.ctx.window("entry", first, after, last, before, count)
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return timelines.entity_history_page(self.ctx.graph, self.ctx.key, found.key,
                                             attribute, scope, when, window)

    @audited("entity_by_key")
    def by_key(self, call: AuditCall, key: str) -> Entity:
        self.ctx.require("read")
        return entities.by_key(self.ctx.graph, self.ctx.key, key)

    @audited("entity_aliases")
    def aliases(self, call: AuditCall, keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """For each entity key, the spellings facts used for it other than its name."""
        self.ctx.require("read")
        return entity_listings.aliases(self.ctx.graph, self.ctx.key, list(keys))

    @audited("rebuild_projection")
    def rebuild_projection(self, call: AuditCall) -> projection.RebuildResult:
        self.ctx.require("admin")
        at = now()
        result = projection.rebuild(self.ctx.graph, self.ctx.key, at)
        self.ctx.write(call, projection.rebuilt, at)
        return result

    @audited("sweep_placeholders")
    def sweep_placeholders(self, call: AuditCall) -> SweepResult:
        self.ctx.require("admin")
        return self.ctx.write(call, entities.sweep, now())
