"""The entity graph: seeded entities, entity views and histories, multi-hop recall_related,
and the projection's maintenance."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime

from graphmem.embeddings import EmbedderUnavailable, Vector
from graphmem.errors import ConfigError
from graphmem.graph import entities, entity_listings, entity_reads, projection, timelines
from graphmem.graph.reads import aware
from graphmem.model import NOW, When
from graphmem.model.audit import AuditCall
from graphmem.model.entities import Entity, EntityView, SweepResult, Vocabulary
from graphmem.model.history import History, HistoryEntry
from graphmem.model.listings import EntityFilter
from graphmem.model.paging import Page, Window
from graphmem.model.paths import Bounds, Related, StartSpec
from graphmem.recall import related, related_answer
from graphmem.service.context import SpaceContext, now


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
                       answer: bool = True) -> Related:
        self.ctx.require("read")
        runtime = self.ctx.runtime
        found = related.recall_related(
            self.ctx.graph, self.ctx.key, question, start, hops, aware(as_of, "as_of"),
            aware(valid_at, "valid_at"), Bounds(paths=limit),
            related.Reader(self._vectors, runtime.lexicon, runtime.relation_knowledge))
        llm = self.ctx.runtime.llm
        if answer and question and llm is not None and found.paths:
            return replace(found, answer=related_answer.answer(llm, question, found))
        return found

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
