"""The entity graph: find entities, walk from one, read one attribute's timeline, and see or
declare what reads each relation."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import BaseModel, Field

from graphmem.mcp.args import AgentId, Instant, RunId, UserId
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.pages import LIMIT, Cursor, Limit, listed, page_text
from graphmem.mcp.registry import tool
from graphmem.model import When
from graphmem.model.entities import Entity
from graphmem.model.history import HistoryEntry
from graphmem.model.listings import EntityFilter
from graphmem.model.relations import RelationInfo

D = "default"
EntityType = Annotated[str, Field(min_length=1, max_length=100,
                                  description="The entity's type, e.g. person, organisation.")]
EntityName = Annotated[str, Field(min_length=1, max_length=1000)]


def _entity_line(entity: Entity) -> str:
    return str(entity)


@tool("read", title="Search entities", read_only=True)
async def search_entities(ctx: Context[Any, Any],
                          text: Annotated[str, Field(min_length=1, max_length=1000)],
                          type: Annotated[str | None, Field(max_length=100)] = None,
                          as_of: Instant = None, cursor: Cursor = None, limit: Limit = LIMIT,
                          user_id: UserId = D, agent_id: AgentId = D,
                          run_id: RunId = D) -> CallToolResult:
    """Entities whose name, or a spelling a fact used, contains `text` (case and spacing
    ignored), paged: use it to find the exact type and name the other entity tools take.
    E.g. {"text": "acme", "type": "organisation"}."""
    where = EntityFilter(type=type, search=text)
    return await call(ctx, "search_entities", space_of(user_id, agent_id, run_id),
                      lambda mem: listed(mem.entities.page(where, When(as_of=as_of),
                                                           first=limit, after=cursor,
                                                           count=False)),
                      page_text(_entity_line, "No entity matches."))


@tool("read", title="Entity neighbourhood", read_only=True)
async def entity_neighbourhood(ctx: Context[Any, Any], type: EntityType, name: EntityName,
                               hops: Annotated[int, Field(ge=1)] = 1,
                               as_of: Instant = None, valid_at: Instant = None,
                               limit: Annotated[int, Field(ge=1)] = 50,
                               user_id: UserId = D, agent_id: AgentId = D,
                               run_id: RunId = D) -> CallToolResult:
    """What an entity is connected to, `hops` edges out (at most GRAPHMEM_API_MAX_HOPS, 4
    unless set), with the fact behind each edge; `as_of` / `valid_at` walk the graph as it
    stood or as the world was then. E.g. {"type": "person", "name": "Ada", "hops": 2}."""
    return await call(ctx, "entity_neighbourhood", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.neighbourhood(type, name, hops, as_of,
                                                             valid_at, limit))


@tool("read", title="Entity history", read_only=True)
async def entity_history(ctx: Context[Any, Any], type: EntityType, name: EntityName,
                         attribute: Annotated[str, Field(min_length=1, max_length=10_000)],
                         scope: Annotated[str | None, Field(max_length=200)] = None,
                         cursor: Cursor = None, limit: Limit = LIMIT, user_id: UserId = D,
                         agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """One attribute of an entity through time, oldest first, with each value's status
    (superseded and retracted ones included), paged. E.g. {"type": "person",
    "name": "Ada", "attribute": "employer"}."""
    def line(entry: HistoryEntry) -> str:
        return f"#{entry.fact.id} {entry.value} [{entry.status}]"

    return await call(ctx, "entity_history", space_of(user_id, agent_id, run_id),
                      lambda mem: listed(mem.entities.history_page(
                          type, name, attribute, scope, first=limit, after=cursor,
                          count=False)),
                      page_text(line, f"No history for {attribute!r} of {name}."))


@tool("read", title="Get an entity", read_only=True)
async def get_entity(ctx: Context[Any, Any], type: EntityType, name: EntityName,
                     as_of: Instant = None, valid_at: Instant = None, user_id: UserId = D,
                     agent_id: AgentId = D, run_id: RunId = D) -> CallToolResult:
    """An entity's current attributes and edges (or those held `as_of` / true `valid_at`
    an instant). E.g. {"type": "person", "name": "Ada"}."""
    return await call(ctx, "get_entity", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.get(type, name, as_of, valid_at))


@tool("read", title="Vocabulary", read_only=True)
async def vocabulary(ctx: Context[Any, Any], limit: Annotated[int, Field(ge=1)] = 200,
                     user_id: UserId = D, agent_id: AgentId = D,
                     run_id: RunId = D) -> CallToolResult:
    """The entity names and relation labels the space already uses: read it before you
    extract facts yourself, so yours land on the same names. E.g. {"limit": 100}."""
    return await call(ctx, "vocabulary", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.vocabulary(limit))


@tool("write", title="Create an entity", idempotent=True)
async def create_entity(ctx: Context[Any, Any], type: EntityType, name: EntityName,
                        user_id: UserId = D, agent_id: AgentId = D,
                        run_id: RunId = D) -> CallToolResult:
    """Seed an entity before facts mention it, so later spellings land on it.
    E.g. {"type": "organisation", "name": "Acme Corp"}."""
    return await call(ctx, "create_entity", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.create(type, name))


class RelationIn(BaseModel):
    """A relation to declare, as in the relation schema."""

    label: Annotated[str, Field(min_length=1, max_length=200)]
    description: Annotated[str | None, Field(max_length=500)] = None
    forward: Annotated[list[str] | None, Field(max_length=20)] = None
    inverse: Annotated[list[str] | None, Field(max_length=20)] = None
    head_nouns: Annotated[list[str] | None, Field(max_length=20)] = None
    tail_nouns: Annotated[list[str] | None, Field(max_length=20)] = None
    head_type: Annotated[str | None, Field(max_length=100)] = None
    tail_type: Annotated[str | None, Field(max_length=100)] = None
    cardinality: Literal["one", "many"] | None = None


def _relation_text(found: list[RelationInfo]) -> str:
    if not found:
        return "No relations in this space yet."
    lines = []
    for r in found:
        ends = f"{'/'.join(r.head_types) or '?'} → {'/'.join(r.tail_types) or '?'}"
        lines.append(f"{r.type} ({', '.join(r.labels)}; {ends})"
                     + (f": {r.description}" if r.description else ""))
        by_source: dict[str, list[str]] = {}
        for reading in r.readings:
            by_source.setdefault(reading.source.value, []).append(
                f"{reading.kind.value} {reading.words!r}")
        lines += [f"  {source}: {', '.join(words[:12])}" for source, words in by_source.items()]
    return "\n".join(lines)


@tool("read", title="Relations", read_only=True)
async def relations(ctx: Context[Any, Any], user_id: UserId = D, agent_id: AgentId = D,
                    run_id: RunId = D) -> CallToolResult:
    """The space's relation types and the words that read each (declared, described by a
    model, learned from text, from the lexicon, or the label): what multi-hop questions are
    matched against. Use it to see why recall_related did not understand a word.
    E.g. {"user_id": "ana"}."""
    return await call(ctx, "relations", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.relations(), _relation_text)


@tool("admin", title="Declare relations")
async def declare_relations(ctx: Context[Any, Any],
                            relations: Annotated[list[RelationIn],
                                                 Field(min_length=1, max_length=500)],
                            replace: bool = False, user_id: UserId = D, agent_id: AgentId = D,
                            run_id: RunId = D) -> CallToolResult:
    """Declare what relations mean (admin): per relation its label, a description, verb
    phrases reading it head to tail (`forward`) and tail to head (`inverse`), and nouns for
    its ends; recall_related trusts these first. E.g. {"relations": [{"label": "reports to",
    "inverse": ["manages"], "tail_nouns": ["manager", "boss"]}]}."""
    items = [r.model_dump(exclude_none=True) for r in relations]
    return await call(ctx, "declare_relations", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.declare_relations(items, replace),
                      lambda s: f"Relation schema version {s.version}: "
                                f"{len(s.relations)} relation(s) declared.")


@tool("write", title="Describe relations")
async def describe_relations(ctx: Context[Any, Any], force: bool = False,
                             user_id: UserId = D, agent_id: AgentId = D,
                             run_id: RunId = D) -> CallToolResult:
    """Have the configured model describe each relation no declaration covers yet (one
    model call per relation, stored); `force` describes every one again. E.g. {}."""
    return await call(ctx, "describe_relations", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.entities.describe_relations(force),
                      lambda made: f"Described {len(made)} relation(s).", model_calls=1)
