"""GraphMemMemoryBlock and GraphMemRetriever in LlamaIndex: the block writes what leaves a
chat's short-term memory to graphmem and puts the matching facts into the agent's context,
in a `Memory` driven by a real `FunctionAgent` whose model is LlamaIndex's OpenAI client
pointed at the suite's scripted server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory
from llama_index.llms.openai import OpenAI

from graphmem import GraphMem
from graphmem.integrations.llamaindex import GraphMemMemoryBlock, GraphMemRetriever

from support.llm_server import LLMServer, Reply

USER, ASSISTANT = MessageRole.USER, MessageRole.ASSISTANT


def test_the_block_writes_a_chats_facts_and_reads_them_back(
        llm: LLMServer, make_llm_mem: Callable[..., GraphMem]) -> None:
    mem = make_llm_mem()
    block = GraphMemMemoryBlock(memory=mem)
    llm.extraction("user: I live in Lisbon\nassistant: Noted.",
                   {"subject": "home_city", "value": "Lisbon", "confidence": 0.95,
                    "action": "ADD"})

    async def go() -> str:
        await block.aput([ChatMessage(role=USER, content="I live in Lisbon"),
                          ChatMessage(role=ASSISTANT, content="Noted."),
                          ChatMessage(role=MessageRole.TOOL, content="(tool output)")])
        return await block.aget([ChatMessage(role=USER, content="where do I live?")])

    assert asyncio.run(go()) == "home_city: Lisbon"
    assert [f.value for f in mem.active("home_city")] == ["Lisbon"]
    assert "(tool output)" not in llm.last("extract").input


def test_an_agent_sees_the_facts_and_its_chat_is_remembered(
        llm: LLMServer, make_llm_mem: Callable[..., GraphMem]) -> None:
    mem = make_llm_mem()
    mem.remember_facts([{"subject": "home_city", "value": "Lisbon", "confidence": 0.95}])
    memory = Memory.from_defaults(session_id="alice", token_limit=60,
                                  chat_history_token_ratio=0.5, token_flush_size=10,
                                  memory_blocks=[GraphMemMemoryBlock(memory=mem)])
    agent = FunctionAgent(llm=OpenAI(model="gpt-4o-mini", api_base=llm.url,
                                     api_key="test-key", max_retries=0), tools=[],
                          streaming=False)  # the scripted server answers whole
    llm.turns(Reply("You live in Lisbon."), Reply("Porto is lovely too."))

    async def go() -> list[str]:
        said = [str(await agent.run("where do I live?", memory=memory))]
        said.append(str(await agent.run("I am thinking of moving to Porto, a city I have"
                                         " always loved for its bridges and its wine",
                                         memory=memory)))
        return said

    assert asyncio.run(go()) == ["You live in Lisbon.", "Porto is lovely too."]
    shown = [r for r in llm.requests if r.kind == "chat"]
    assert "home_city: Lisbon" in str(shown[0].body["messages"]), "the fact was in context"
    flushed = [r.input for r in llm.requests if r.kind == "extract"]
    assert any("where do I live?" in text for text in flushed), (
        "what left the short-term memory went to graphmem's extraction")


def test_the_retriever_ranks_facts_as_nodes(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    mem.remember_facts([{"subject": "home_city", "value": "Lisbon", "confidence": 0.95},
                        {"subject": "pet", "value": "a cat called Miso", "confidence": 0.95}])
    found = GraphMemRetriever(mem, k=1).retrieve("which city is home?")
    assert [(n.node.get_content(), n.score) for n in found] == [("home_city: Lisbon", 1.0)]
    assert found[0].node.metadata["fact_id"] == mem.active("home_city")[0].id
