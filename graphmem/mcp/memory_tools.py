"""The memory tools: remember, recall and their neighbours, each one call of `GraphMem`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import AwareDatetime, BaseModel, Field

from graphmem.errors import InvalidInput
from graphmem.mcp.args import (
    AgentId,
    EntityRef,
    Facts,
    Instant,
    Question,
    RunId,
    Source,
    Subject,
    Subjects,
    Text,
    UserId,
)
from graphmem.mcp.calls import call, space_of
from graphmem.mcp.pages import (
    LIMIT,
    Cursor,
    Limit,
    Listed,
    change_line,
    listed,
    page_text,
)
from graphmem.mcp.registry import tool
from graphmem.model import Fact, When
from graphmem.model.differences import SlotChange
from graphmem.model.history import History
from graphmem.model.listings import FactFilter
from graphmem.model.paths import PathStep, StartSpec
from graphmem.model.requests import Write
from graphmem.service.memory import GraphMem

D = "default"
VALID_AT_SHOWN = 200  # facts recall lists for valid_at; list_facts pages past them


@tool("write", title="Remember a message")
async def remember(ctx: Context[Any, Any], text: Text, source: Source = "",
                   user_id: UserId = D, agent_id: AgentId = D,
                   run_id: RunId = D) -> CallToolResult:
    """Store what a message says: one model call extracts its facts, then each is reconciled
    with what the space holds (a new value supersedes the old one, a removal retracts it, an
    unsafe change is flagged). One line per fact, e.g. `Stored: [SUPERSEDE] state = Zustand`.
    Needs a model configured on the server; otherwise use remember_facts.
    E.g. {"text": "We moved from MySQL to Postgres last week"}."""
    return await call(ctx, "remember", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.remember(Write(None, text, source)), model_calls=1)


@tool("write", title="Remember extracted facts")
async def remember_facts(ctx: Context[Any, Any], facts: Facts, text: Text = "",
                         source: Source = "",
                         source_ref: Annotated[str, Field(max_length=2000)] = "",
                         metadata: Annotated[dict[str, Any] | None, Field(
                             description="A JSON object kept with every fact.")] = None,
                         user_id: UserId = D, agent_id: AgentId = D,
                         run_id: RunId = D) -> CallToolResult:
    """Reconcile facts you extracted yourself (no model call); same result lines as
    remember. Give each a confidence: a change below 0.7, or without one, is held for
    review. `target_id` names the stored fact a REFINE or RETRACT is about. E.g.
    {"facts": [{"subject": "plan", "value": "Pro", "confidence": 0.9}]}."""
    write = Write(tuple(f.proposal() for f in facts), text, source, source_ref, metadata)
    return await call(ctx, "remember_facts", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.remember_facts(write))


@tool("write", title="Forget")
async def forget(ctx: Context[Any, Any], text: Text = "", facts: Facts | None = None,
                 source: Source = "", user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """Retract what a message says is no longer true ("we dropped Sentry"; one model call),
    or the facts given (subject and value, or target_id; no model call), as you asked: a
    fact without a confidence counts as certain. The value is retired and a tombstone kept.
    E.g. {"facts": [{"subject": "monitoring", "value": "Sentry"}]}."""
    given = tuple(f.proposal() for f in facts) if facts else None
    write = Write(given, text, source, retract=True)

    def work(mem: GraphMem) -> Any:
        if given is None and not text.strip():
            raise InvalidInput("forget needs the text of what to forget, or facts")
        return mem.forget(write)

    return await call(ctx, "forget", space_of(user_id, agent_id, run_id), work,
                      model_calls=0 if given else 1)


@tool("read", title="Recall", read_only=True)
async def recall(ctx: Context[Any, Any], question: Question, explain: bool = False,
                 include_history: bool = False, as_of: Instant = None,
                 valid_at: Instant = None,
                 critical_categories: Annotated[list[str] | None, Field(max_length=50)] = None,
                 user_id: UserId = D, agent_id: AgentId = D,
                 run_id: RunId = D) -> CallToolResult:
    """Answer a question from the space's current facts (one model call; without a model,
    the ranked facts). `explain` lists the facts behind the answer; `as_of` answers from what
    memory held then; `include_history` adds retired facts tagged (history); `valid_at` lists
    the facts that were true in the world at that time (the first 200) instead of answering.
    E.g. {"question": "Which database do we use?", "explain": true}."""
    space = space_of(user_id, agent_id, run_id)
    if valid_at is not None:
        when = When(as_of=as_of, valid_at=valid_at)
        return await call(ctx, "recall", space,
                          lambda mem: listed(mem.records.page(FactFilter(), when,
                                                              first=VALID_AT_SHOWN,
                                                              count=False)),
                          lambda found: _valid_at_text(found, valid_at.isoformat()))
    categories = critical_categories
    return await call(ctx, "recall", space, lambda mem: mem.recall(
        question, explain=explain, include_history=include_history, as_of=as_of,
        critical_categories=categories), model_calls=1)


def _valid_at_text(found: Listed[Fact], at: str) -> str:
    if not found.items:
        return f"No fact was valid at {at}."
    lines = [f"Facts valid at {at}:", *(f"• #{f.id} {f.subject} = {f.value}"
                                       for f in found.items)]
    if found.next_cursor:
        lines.append(f'More: list_facts with valid_at and cursor="{found.next_cursor}".')
    return "\n".join(lines)


class PathStepIn(BaseModel):
    """One step of a path pattern: a relation and the way it is walked."""

    relation: Annotated[str, Field(min_length=1, max_length=200)]
    direction: Literal["OUT", "IN"] = "OUT"


@tool("read", title="Recall related", read_only=True)
async def recall_related(ctx: Context[Any, Any], question: Question | None = None,
                         entities: Annotated[list[EntityRef | str] | None,
                                             Field(max_length=50)] = None,
                         hops: Annotated[int | None, Field(ge=1)] = None,
                         as_of: Instant = None, valid_at: Instant = None,
                         limit: Annotated[int, Field(ge=1)] = 50,
                         path: Annotated[list[PathStepIn] | None, Field(min_length=1)] = None,
                         cursor: Annotated[str | None, Field(max_length=200)] = None,
                         user_id: UserId = D, agent_id: AgentId = D,
                         run_id: RunId = D) -> CallToolResult:
    """Multi-hop: paths from the question's entities (or those given) with the fact behind
    each edge, ranked by the question; the answer is named only when every word of it was
    understood, else the words not understood are listed. `path` follows exact relations
    instead (paged by `cursor`). E.g. {"question": "Where does Ada's manager live?"} or
    {"entities": ["Ada"], "path": [{"relation": "REPORTS_TO"}]}."""
    start: list[StartSpec] | None = None
    if entities:
        start = [e if isinstance(e, str) else (e.type, e.name) for e in entities]
    steps = [PathStep(s.relation, s.direction == "OUT") for s in path] if path else None
    return await call(ctx, "recall_related", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.recall_related(question, entities=start, hops=hops,
                                                     as_of=as_of, valid_at=valid_at,
                                                     limit=limit, path=steps, after=cursor),
                      model_calls=1)


@tool("read", title="History", read_only=True)
async def history(ctx: Context[Any, Any], subject: Subject,
                  scope: Annotated[str | None, Field(max_length=200)] = None,
                  as_of: Instant = None, cursor: Cursor = None, limit: Limit = LIMIT,
                  user_id: UserId = D, agent_id: AgentId = D,
                  run_id: RunId = D) -> CallToolResult:
    """One subject's timeline, oldest to newest, with each value's status (superseded
    values and retraction tombstones included), paged. E.g. {"subject": "plan"}."""
    def work(mem: GraphMem) -> HistoryPage:
        page = mem.records.history_page(subject, scope, When(as_of=as_of), first=limit,
                                        after=cursor, count=False)
        found = listed(page)
        return HistoryPage(History(subject, found.items), found.next_cursor)

    return await call(ctx, "history", space_of(user_id, agent_id, run_id), work)


@tool("read", title="What changed between two times", read_only=True)
async def changes(ctx: Context[Any, Any], from_time: Annotated[AwareDatetime, Field(
                      description="The first instant, ISO 8601 with a timezone.")],
                  to_time: Instant = None,
                  clock: Annotated[Literal["RECORDED", "VALID"], Field(
                      description="RECORDED: what memory held as current; VALID: what was"
                      " true in the world.")] = "RECORDED",
                  subject: Subject | None = None, cursor: Cursor = None, limit: Limit = LIMIT,
                  user_id: UserId = D, agent_id: AgentId = D,
                  run_id: RunId = D) -> CallToolResult:
    """What changed between two instants (`to_time`: now when left out): one line per slot
    whose current values differ, `subject: before → after [ADDED|REMOVED|CHANGED] by
    <events>`, paged by slot. E.g. {"from_time": "2026-03-01T00:00:00+00:00"}."""
    def work(mem: GraphMem) -> Listed[SlotChange]:
        return listed(mem.records.changes(from_time, to_time, clock, subject, first=limit,
                                          after=cursor, count=False))

    return await call(ctx, "changes", space_of(user_id, agent_id, run_id), work,
                      page_text(change_line, "Nothing changed between those times."))


@dataclass(frozen=True)
class HistoryPage:
    history: History
    next_cursor: str | None

    def __str__(self) -> str:
        more = f'\nMore: call again with cursor="{self.next_cursor}".' if self.next_cursor else ""
        return f"{self.history}{more}"


@tool("read", title="List memories", read_only=True)
async def list_memories(ctx: Context[Any, Any], cursor: Cursor = None, limit: Limit = LIMIT,
                        user_id: UserId = D, agent_id: AgentId = D,
                        run_id: RunId = D) -> CallToolResult:
    """Everything current in the space, paged: active facts, flagged ones marked ⚠, and on
    the first page the 20 most recently retired. E.g. {"user_id": "alice"}."""
    return await call(ctx, "list_memories", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.list_memories(first=limit, after=cursor))


@tool("read", title="Check before acting", read_only=True)
async def check_before_act(ctx: Context[Any, Any], subjects: Subjects,
                           max_age_seconds: Annotated[float | None, Field(gt=0)] = None,
                           user_id: UserId = D, agent_id: AgentId = D,
                           run_id: RunId = D) -> CallToolResult:
    """Before an action that relies on some subjects: `OK to act on: …` with the facts, or
    `Refused: …` with every reason (no current value, flagged, pending approval, too old).
    E.g. {"subjects": ["plan", "billing_email"], "max_age_seconds": 86400}."""
    return await call(ctx, "check_before_act", space_of(user_id, agent_id, run_id),
                      lambda mem: mem.records.check_before_act(subjects,
                                                               max_age=max_age_seconds))
