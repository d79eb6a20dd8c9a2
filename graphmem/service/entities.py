"""The entity graph: seeded entities, entity views and histories, multi-hop recall_related,
and the projection's maintenance."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, replace
from datetime import datetime

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
from graphmem.model.paging import Page, Window
from graphmem.model.paths import Bounds, PathStep, Related, StartSpec
from graphmem.model.relations import (
    RelationDeclaration,
    RelationDescription,
    RelationInfo,
    RelationSchema,
)
from graphmem.recall import related, related_answer, relation_description, relation_schema
from graphmem.recall.relation_knowledge import Known
from graphmem.service.context import SpaceContext, now

log = logging.getLogger(__name__)


class EntityGraph:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def create_entity(self, call: AuditCall, type: str, name: str) -> Entity:
        self.ctx.require("write")
        return self.ctx.write(call, entities.create, type, name, now())

    def entities(self, type: str | None = None,
                 as_of: datetime | None = None) -> list[Entity]:
        self.ctx.require("read")
        return entities.listing(self.ctx.graph, self.ctx.key, type, aware(as_of, "as_of"))

    def entity(self, type: str, name: str, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> EntityView:
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return entity_reads.view(self.ctx.graph, self.ctx.key, found, aware(as_of, "as_of"),
                                 aware(valid_at, "valid_at"))

    def entity_history(self, type: str, name: str, key: str) -> History:
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return entity_reads.history(self.ctx.graph, self.ctx.key, found, key)

    def recall_related(self, question: str | None = None,
                       start: Sequence[StartSpec] | None = None,
                       hops: int | None = None, as_of: datetime | None = None,
                       valid_at: datetime | None = None, limit: int = 50,
                       answer: bool = True, path: Sequence[PathStep] | None = None,
                       after: str | None = None, call: AuditCall | None = None) -> Related:
        self.ctx.require("read")
        deepest = self.ctx.settings.api_max_hops
        for what, depth in (("hops", hops), ("a path pattern's steps", len(path or ()) or None)):
            if depth is not None and not 1 <= depth <= deepest:
                raise InvalidInput(f"{what} must be between 1 and {deepest}"
                                   f" (GRAPHMEM_API_MAX_HOPS), got {depth}")
        runtime = self.ctx.runtime
        if (call is not None and question and not path and runtime.llm is not None
                and self.ctx.settings.describe_relations and self.ctx.caller.can("write")):
            self.describe_relations(call)  # once per new relation type, never per question
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

    def relations(self) -> list[RelationInfo]:
        """Each relation type of the space with its readings by source, as questions see it."""
        self.ctx.require("read")
        known = self._known()
        return sorted(known.relations.values(), key=lambda r: r.type)

    def relation_schema(self) -> RelationSchema:
        self.ctx.require("read")
        return self._known().schema

    def declare_relations(self, call: AuditCall,
                          declared: Sequence[Mapping[str, object] | RelationDeclaration],
                          replace_all: bool = False) -> RelationSchema:
        """Declare (or redeclare) relations: their description, the words that read them
        each way, their ends' types and cardinality; the schema's version goes up by one.
        Needs the admin capability, as the reconcile policy does."""
        self.ctx.require("admin")
        items = [asdict(d) if isinstance(d, RelationDeclaration) else d for d in declared]
        checked = relation_schema.declarations(items)
        at = now()
        schema = relation_schema.merged(self.relation_schema(), checked, replace_all,
                                        at.isoformat())
        self.ctx.write(call, spaces.set_relation_schema, relation_schema.schema_to_json(schema),
                       at)
        return schema

    def describe_relations(self, call: AuditCall, force: bool = False
                           ) -> list[RelationDescription]:
        """Ask the configured model, once per relation type that neither the schema nor an
        earlier description covers (every type with `force`), what its words are; each
        description is stored with the model's name and audited with this call."""
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
        self.ctx.write(call, spaces.set_relation_descriptions,
                       relation_schema.descriptions_to_json(described), now())
        return made

    def _vectors(self, texts: Sequence[str]) -> dict[str, Vector]:
        """The local embedding model's vectors of short texts (question phrases, relation
        labels, roles, entity types), cached by text."""
        try:
            return self.ctx.runtime.embedder.queries(texts)
        except ConfigError as e:
            raise EmbedderUnavailable(str(e)) from e

    def vocabulary(self, limit: int = 200, when: When = NOW) -> Vocabulary:
        self.ctx.require("read")
        return entities.vocabulary(self.ctx.graph, self.ctx.key, limit, when)

    # ---- paged reads ------------------------------------------------------------------------
    def entities_page(self, where: EntityFilter, when: When, window: Window) -> Page[Entity]:
        self.ctx.require("read")
        return entity_listings.entity_page(self.ctx.graph, self.ctx.key, where, when, window)

    def entity_history_page(self, type: str, name: str, attribute: str, scope: str | None,
                            when: When, window: Window) -> Page[HistoryEntry]:
        self.ctx.require("read")
        found = entities.get(self.ctx.graph, self.ctx.key, type, name)
        return timelines.entity_history_page(self.ctx.graph, self.ctx.key, found.key,
                                             attribute, scope, when, window)

    def entity_by_key(self, key: str) -> Entity:
        self.ctx.require("read")
        return entities.by_key(self.ctx.graph, self.ctx.key, key)

    def aliases(self, keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
        self.ctx.require("read")
        return entity_listings.aliases(self.ctx.graph, self.ctx.key, list(keys))

    def rebuild_projection(self, call: AuditCall) -> projection.RebuildResult:
        self.ctx.require("admin")
        at = now()
        result = projection.rebuild(self.ctx.graph, self.ctx.key, at)
        self.ctx.write(call, projection.rebuilt, at)
        return result

    def sweep_placeholders(self, call: AuditCall) -> SweepResult:
        self.ctx.require("admin")
        return self.ctx.write(call, entities.sweep, now())
