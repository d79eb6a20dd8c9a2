"""graphmem in LlamaIndex: a long-term memory block and a retriever.

`GraphMemMemoryBlock` is a `BaseMemoryBlock` for LlamaIndex's `Memory`: the chat messages
that leave the short-term memory are written to graphmem (`remember`: one extraction call to
graphmem's model, then reconciliation, so a changed fact supersedes the old one), and before
each turn the facts of the space that best match the latest user message are put into the
agent's context, one `subject: value` line each. `GraphMemRetriever` is a `BaseRetriever`:
the facts recall ranks best for a query, as `NodeWithScore`s (score by rank, 1.0 for the
best), their metadata the LangChain documents' (graphmem.integrations.facts).

    from llama_index.core.memory import Memory
    from graphmem import GraphMem
    from graphmem.integrations.llamaindex import GraphMemMemoryBlock

    memory = Memory.from_defaults(session_id="alice",
                                  memory_blocks=[GraphMemMemoryBlock(memory=GraphMem("alice"))])
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import BaseMemoryBlock
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from pydantic import ConfigDict, Field

from graphmem.integrations.facts import fact_metadata, rank_score
from graphmem.model.recall import RecalledFact
from graphmem.service.memory import GraphMem

SOURCE = "llamaindex"
DEFAULT_K = 10
WRITTEN = (MessageRole.USER, MessageRole.ASSISTANT)  # what a chat says; tool chatter is not


class GraphMemMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory in one graphmem space."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: GraphMem
    name: str = "graphmem"
    description: str | None = "Facts remembered from earlier conversations"
    k: int = Field(DEFAULT_K, ge=1, le=1000)

    async def _aget(self, messages: list[ChatMessage] | None = None,
                    **block_kwargs: Any) -> str:
        question = _latest_user_text(messages or [])
        if not question:
            return ""
        found = await asyncio.to_thread(self.memory.recall, question, answer=False)
        return "\n".join(f"{r.fact.subject}: {r.fact.value}" for r in found.facts[:self.k])

    async def _aput(self, messages: list[ChatMessage]) -> None:
        text = "\n".join(f"{m.role.value}: {m.content}" for m in messages
                         if m.role in WRITTEN and m.content)
        if text:
            await asyncio.to_thread(self.memory.remember, text, source=SOURCE)


class GraphMemRetriever(BaseRetriever):
    """The `k` facts of a space that best match the query."""

    def __init__(self, memory: GraphMem, k: int = DEFAULT_K, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.memory = memory
        self.k = k

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = self.memory.recall(query_bundle.query_str, answer=False)
        return [NodeWithScore(node=node(r), score=rank_score(rank))
                for rank, r in enumerate(found.facts[:self.k])]


def node(recalled: RecalledFact) -> TextNode:
    f = recalled.fact
    return TextNode(id_=f.id, text=f"{f.subject}: {f.value}", metadata=fact_metadata(recalled))


def _latest_user_text(messages: list[ChatMessage]) -> str:
    for message in reversed(messages):
        if message.role == MessageRole.USER and message.content:
            return str(message.content)
    return ""
