"""graphmem in LangChain: `GraphMemRetriever` and the memory tools.

`GraphMemRetriever` is a `BaseRetriever` over one space: recall ranks the space's facts by
the query (no model call) and each becomes a `Document` whose text is `subject: value` and
whose metadata carry the fact's id, subject, value, scope, status, source and times (valid
from, recorded at; ISO 8601). The tools are `BaseTool`s with typed arguments, for an agent
that manages its own memory: `remember` (facts it states), `recall` (an answer from memory,
or the facts when no model is configured), `recall_related` (how entities are related, over
several hops) and `history` (every value a subject has had).

    from graphmem import GraphMem
    from graphmem.integrations.langchain import GraphMemRetriever, memory_tools

    mem = GraphMem("alice")
    docs = GraphMemRetriever(memory=mem, k=5).invoke("where does Alice live?")
    tools = memory_tools(mem)
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field

from graphmem.integrations.facts import fact_metadata
from graphmem.model.recall import RecalledFact
from graphmem.service.memory import GraphMem

DEFAULT_K = 10


class GraphMemRetriever(BaseRetriever):
    """The `k` facts of a space that best match the query, as Documents."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: GraphMem
    k: int = Field(DEFAULT_K, ge=1, le=1000)
    include_history: bool = False

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun,
                                k: int | None = None) -> list[Document]:
        found = self.memory.recall(query, include_history=self.include_history, answer=False)
        return [document(r) for r in found.facts[:k or self.k]]


def document(recalled: RecalledFact) -> Document:
    f = recalled.fact
    return Document(page_content=f"{f.subject}: {f.value}", id=f.id,
                    metadata=fact_metadata(recalled))


# ---- tools ---------------------------------------------------------------------------------
class FactArgument(BaseModel):
    subject: str = Field(description="What the fact is about, a short slot name such as"
                                     " 'home_city' or 'favourite_food'")
    value: str = Field(description="Its value, e.g. 'Lisbon'")
    confidence: float = Field(0.95, ge=0.0, le=1.0,
                              description="How sure the statement is, 0 to 1")


class RememberArguments(BaseModel):
    facts: list[FactArgument] = Field(min_length=1, max_length=100,
                                      description="The facts to remember")


class QuestionArguments(BaseModel):
    question: str = Field(description="A question in plain words")


class RelatedArguments(BaseModel):
    question: str = Field(description="A question about how things are related, in plain"
                                      " words, e.g. 'who manages the team Alice is on?'")
    hops: int | None = Field(None, ge=1,
                             description="How many relations to follow at most (default 4)")


class HistoryArguments(BaseModel):
    subject: str = Field(description="The subject whose values over time to list")


class _MemoryTool(BaseTool):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: GraphMem


class RememberTool(_MemoryTool):
    name: str = "remember"
    description: str = ("Store facts in long-term memory. A new value for a subject replaces"
                        " the old one (which stays in its history).")
    args_schema: type[BaseModel] = RememberArguments

    def _run(self, facts: list[FactArgument | dict[str, Any]], **_: Any) -> str:
        given = [f.model_dump() if isinstance(f, FactArgument) else dict(f) for f in facts]
        results = self.memory.remember_facts(given, source="langchain")
        return "\n".join(str(r) for r in results)


class RecallTool(_MemoryTool):
    name: str = "recall"
    description: str = "Answer a question from long-term memory, with the facts behind it."
    args_schema: type[BaseModel] = QuestionArguments

    def _run(self, question: str, **_: Any) -> str:
        return str(self.memory.recall(question))


class RecallRelatedTool(_MemoryTool):
    name: str = "recall_related"
    description: str = ("How things in memory are related: paths of relations from the"
                        " entities the question names, over several hops.")
    args_schema: type[BaseModel] = RelatedArguments

    def _run(self, question: str, hops: int | None = None, **_: Any) -> str:
        return str(self.memory.recall_related(question, hops=hops))


class HistoryTool(_MemoryTool):
    name: str = "history"
    description: str = "Every value a subject has had, oldest first, with when it changed."
    args_schema: type[BaseModel] = HistoryArguments

    def _run(self, subject: str, **_: Any) -> str:
        return str(self.memory.history(subject))


def memory_tools(memory: GraphMem) -> list[BaseTool]:
    """The four memory tools over one space."""
    return [RememberTool(memory=memory), RecallTool(memory=memory),
            RecallRelatedTool(memory=memory), HistoryTool(memory=memory)]
