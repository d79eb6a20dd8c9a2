"""GraphMemStore as the long-term memory of a real LangGraph agent: a `StateGraph` compiled
with `store=`, its model `ChatOpenAI` pointed at the suite's scripted OpenAI-compatible
server, its tools langmem's memory tools. The model's turns are scripted; everything between
them (the graph, the tool node, langmem, the store, graphmem) runs for real."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langmem import create_manage_memory_tool, create_search_memory_tool

from graphmem import GraphMem
from graphmem.integrations.langgraph import GraphMemStore
from graphmem.runtime import Runtime

from support import isolation
from support.llm_server import LLMServer, Reply

NAMESPACE = ("memories", "{user_id}")


@pytest.fixture
def store(runtime: Runtime) -> Iterator[GraphMemStore]:
    made = GraphMemStore(runtime, tenant=isolation.tenant())
    yield made
    made.close()


def agent(llm: LLMServer, store: GraphMemStore) -> Any:
    tools = [create_manage_memory_tool(namespace=NAMESPACE),
             create_search_memory_tool(namespace=NAMESPACE)]
    model = ChatOpenAI(model="test-model", base_url=llm.url, api_key="test-key",
                       max_retries=0).bind_tools(tools)

    def think(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", think)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    graph.add_edge("agent", END)
    return graph.compile(store=store)


def test_an_agent_remembers_searches_updates_and_deletes_through_graphmem(
        llm: LLMServer, store: GraphMemStore, runtime: Runtime) -> None:
    app = agent(llm, store)
    config = {"configurable": {"user_id": "alice"}}
    llm.turns(Reply(tool_calls=(("manage_memory", {"content": "Alice lives in Lisbon",
                                                   "action": "create"}),)),
              Reply("Noted: you live in Lisbon."))
    said = app.invoke({"messages": [("user", "I live in Lisbon")]}, config)
    assert said["messages"][-1].content == "Noted: you live in Lisbon."
    [item] = store.search(("memories", "alice"))
    assert item.value == {"content": "Alice lives in Lisbon"}

    llm.turns(Reply(tool_calls=(("search_memory", {"query": "where does Alice live"}),)),
              Reply("In Lisbon."))
    said = app.invoke({"messages": [("user", "Where do I live?")]}, config)
    found = [m for m in said["messages"] if isinstance(m, ToolMessage)][-1]
    assert "Alice lives in Lisbon" in str(found.content)
    assert said["messages"][-1].content == "In Lisbon."

    llm.turns(Reply(tool_calls=(("manage_memory", {"id": item.key, "action": "update",
                                                   "content": "Alice lives in Porto"}),)),
              Reply("Updated."))
    app.invoke({"messages": [("user", "I moved to Porto")]}, config)
    assert store.get(("memories", "alice"), item.key).value == {  # type: ignore[union-attr]
        "content": "Alice lives in Porto"}
    assert [i.value["content"] for i in store.history(("memories", "alice"), item.key)] == [
        "Alice lives in Lisbon", "Alice lives in Porto"], "graphmem kept the old value"

    llm.turns(Reply(tool_calls=(("manage_memory", {"id": item.key, "action": "delete"}),)),
              Reply("Forgotten."))
    app.invoke({"messages": [("user", "Forget where I live")]}, config)
    assert store.get(("memories", "alice"), item.key) is None
    assert llm.count("chat") == 8, "two model turns a request, each through the real client"
    space = GraphMem(f"{store._tenant}/memories/alice", runtime=runtime)
    assert [f.value for f in space.active()] == [], "the retraction reached the graph"
