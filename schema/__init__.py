"""The GraphQL schema: Strawberry types and the exported SDL (schema.graphql).

Installed as `graphmem.schema` so it never shadows a PyPI package named `schema`.
Imports go schema → resolvers → graphmem, never back.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from strawberry.schema.config import StrawberryConfig

from graphmem.schema.audit_types import AuditEntry
from graphmem.schema.errors import GraphMemSchema
from graphmem.schema.execution import LeafExecutionContext, mark_leaves
from graphmem.schema.graph_types import Entity
from graphmem.schema.limits import extensions
from graphmem.schema.mutation import Mutation
from graphmem.schema.query import Query
from graphmem.schema.receipt_types import AttestationReceipt, DecisionReceipt, ErasureReceipt
from graphmem.schema.scalars import SCALARS
from graphmem.schema.space_types import Space
from graphmem.schema.subscription import Subscription
from graphmem.schema.types import Conflict, Fact
from graphmem.service.model_budget import ModelBudget
from graphmem.settings import Settings, load_settings

SDL_PATH = Path(__file__).with_name("schema.graphql")
# Types reached only through an interface (Node, Receipt) are listed so the SDL holds them.
TYPES: list[type] = [Fact, Conflict, Entity, AuditEntry, Space, DecisionReceipt,
                     AttestationReceipt, ErasureReceipt]


def _schema(**extra: Any) -> GraphMemSchema:
    schema = GraphMemSchema(query=Query, mutation=Mutation, subscription=Subscription,
                            config=StrawberryConfig(scalar_map=SCALARS), types=TYPES,
                            execution_context_class=LeafExecutionContext, **extra)
    mark_leaves(schema._schema)
    return schema


def build_schema(settings: Settings | None = None,
                 budget: ModelBudget | None = None) -> GraphMemSchema:
    """The schema with the validation limits of `settings` (they never change the SDL), its
    model calls paid from `budget` (the process's, shared with MCP)."""
    settings = settings or load_settings()
    return _schema(extensions=extensions(settings, _paged(), budget))


@functools.cache
def _paged() -> frozenset[str]:
    """The paged fields of the schema the code declares: the same for every build."""
    return paged_fields(_schema())


def paged_fields(schema: GraphMemSchema) -> frozenset[str]:
    """`Type.field` for each field that takes a `first` argument (for the complexity
    estimate: `Query.facts` is a page, `Conflict.facts` is not)."""
    return frozenset(f"{t.name}.{name}" for t in schema._schema.type_map.values()
                     for name, f in getattr(t, "fields", {}).items()
                     if "first" in getattr(f, "args", {}))


def sdl() -> str:
    """The schema's SDL, as exported to schema.graphql."""
    return _schema().as_str() + "\n"


__all__ = ["SDL_PATH", "GraphMemSchema", "build_schema", "sdl"]
