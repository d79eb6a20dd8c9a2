"""recall(question): pool → (rank) → critical facts → one answer call.

Small pools (≤ GRAPHMEM_RECALL_CONTEXT facts) go to the model whole and no query vector is
computed; larger ones are ranked and cut to the top `context`. Facts in critical categories
always go in, and past the budget the call fails instead of dropping any. Only the pool is
ever loaded: a retired value cannot come back as current, because an ordinary recall never
reads it, and with `include_history` it comes back tagged `(history)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.errors import InvalidInput
from graphmem.graph import recall as graph_recall
from graphmem.graph.facts import as_time, row_to_fact
from graphmem.graph.reads import value_at
from graphmem.model import HOT_STATUSES
from graphmem.model.recall import ConflictFact, OpenConflict, Recall, RecalledFact
from graphmem.recall.answer import write_answer
from graphmem.recall.retrieve import FUSED, Pool, Ranker, Strategy, pool_for

if TYPE_CHECKING:  # openai is imported only when a model is used
    from graphmem.llm import LLM


@dataclass(frozen=True)
class RecallRequest:
    question: str
    explain: bool = False
    include_history: bool = False
    as_of: datetime | None = None
    critical_categories: tuple[str, ...] = ()
    strategy: Strategy = FUSED
    valid_at: datetime | None = None
    ranked: bool = False  # rank even a pool small enough to be given whole (a search)


@dataclass(frozen=True)
class Retrieved:
    """The facts for the model's context, best first, and how they were chosen."""

    facts: tuple[RecalledFact, ...]
    method: str
    note: str = ""

    @property
    def ids(self) -> list[str]:
        return [f.fact.id for f in self.facts]


def check_question(question: str) -> str:
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("the question is empty: ask something")
    if len(question) > 10_000:
        raise InvalidInput(f"the question is {len(question)} characters; the limit is 10000")
    return question.strip()


def _as_of(at: datetime | None, name: str = "as_of") -> datetime | None:
    if at is not None and at.tzinfo is None:
        raise InvalidInput(f"{name} must carry a timezone (e.g. 2026-03-01T00:00:00+00:00)")
    return at


def _recalled(row: dict[str, Any], pool: Pool) -> RecalledFact:
    fact = row_to_fact(row)
    if pool.at is None:
        return RecalledFact(fact, history=row["status"] not in HOT_STATUSES)
    held_from, retired = as_time(row.get("held_from")), as_time(row.get("retired_at"))
    held = held_from is not None and held_from <= pool.at and (
        retired is None or retired > pool.at)
    return RecalledFact(value_at(fact, pool.at), history=not held)


def retrieve(ranker: Ranker, space: str, question: str, pool: Pool, strategy: Strategy,
             context: int, categories: Sequence[str] = (), budget: int = 200,
             ranked: bool = False) -> Retrieved:
    """The context facts for a question: the whole pool when small (unless `ranked`), else
    critical + ranked. Every read runs in one transaction."""
    return ranker.within(lambda bound: _retrieve(bound, space, question, pool, strategy,
                                                 context, categories, budget, ranked))


def _retrieve(ranker: Ranker, space: str, question: str, pool: Pool, strategy: Strategy,
              context: int, categories: Sequence[str], budget: int,
              ranked: bool = False) -> Retrieved:
    critical = ranker.critical(space, pool, categories, budget)
    if not ranked and ranker.pool_size(space, pool, context + 1) <= context:
        rows = ranker.pool(space, pool, context)
        return Retrieved(tuple(_recalled(r, pool) for r in rows), "all")
    ranking = ranker.rank(space, question, pool, strategy, context)
    ids = list(dict.fromkeys([*critical, *ranking.ids]))
    facts = tuple(_recalled(r, pool) for r in ranker.load(space, ids))
    return Retrieved(facts, ranking.method, ranking.note)


def open_conflicts(ranker: Ranker, space: str, ids: Sequence[str]) -> tuple[OpenConflict, ...]:
    if not ids:
        return ()
    rows = ranker.run(graph_recall.open_conflicts, space, list(ids))
    return tuple(
        OpenConflict(r["conflict"]["id"], r["conflict"]["kind"], tuple(
            ConflictFact(f["id"], f["subject"], f.get("scope") or "global", f["value"],
                         f["status"])
            for f in sorted(r["facts"], key=lambda f: (as_time(f.get("recorded_at")), f["id"]))))
        for r in rows)


def recall(ranker: Ranker, llm: LLM | None, space: str, req: RecallRequest, context: int,
           budget: int) -> Recall:
    """Retrieve, find open conflicts, and (with a model, when there are facts) answer once."""
    question = check_question(req.question)
    pool = pool_for(req.include_history, _as_of(req.as_of), _as_of(req.valid_at, "valid_at"))

    def read(bound: Ranker) -> tuple[Retrieved, tuple[OpenConflict, ...]]:
        got = retrieve(bound, space, question, pool, req.strategy, context,
                       req.critical_categories, budget, req.ranked)
        current = pool.at is None and pool.valid_at is None
        return got, open_conflicts(bound, space, got.ids) if current else ()

    got, conflicts = ranker.within(read)  # one read transaction; the model call after it
    answer = None
    if llm is not None and got.facts:
        answer = write_answer(llm, question, got.facts, conflicts)
    return Recall(question, answer, got.facts, conflicts, req.explain, got.method, got.note)
