"""The GraphQL schema: Strawberry types and the exported SDL (schema.graphql).

Installed as `graphmem.schema` so it never shadows a PyPI package named `schema`.
Imports go schema → resolvers → graphmem, never back.
"""

from __future__ import annotations

from pathlib import Path

from strawberry.schema.config import StrawberryConfig

from graphmem.schema.errors import GraphMemSchema
from graphmem.schema.limits import extensions
from graphmem.schema.mutation import Mutation
from graphmem.schema.query import Query
from graphmem.schema.scalars import SCALARS
from graphmem.schema.subscription import Subscription
from graphmem.settings import Settings, load_settings

SDL_PATH = Path(__file__).with_name("schema.graphql")


def build_schema(settings: Settings | None = None) -> GraphMemSchema:
    """The schema with the validation limits of `settings` (they never change the SDL)."""
    settings = settings or load_settings()
    config = StrawberryConfig(scalar_map=SCALARS)
    bare = GraphMemSchema(query=Query, mutation=Mutation, subscription=Subscription,
                          config=config)
    return GraphMemSchema(query=Query, mutation=Mutation, subscription=Subscription,
                          config=config, extensions=extensions(settings, paged_fields(bare)))


def paged_fields(schema: GraphMemSchema) -> frozenset[str]:
    """Names of the fields that take a `first` argument (for the complexity estimate)."""
    return frozenset(name for t in schema._schema.type_map.values()
                     for name, f in getattr(t, "fields", {}).items()
                     if "first" in getattr(f, "args", {}))


def sdl() -> str:
    """The schema's SDL, as exported to schema.graphql."""
    return GraphMemSchema(query=Query, mutation=Mutation, subscription=Subscription,
                          config=StrawberryConfig(scalar_map=SCALARS)).as_str() + "\n"


__all__ = ["SDL_PATH", "GraphMemSchema", "build_schema", "sdl"]
