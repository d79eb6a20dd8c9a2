"""GraphMemRetriever and the memory tools under LangChain's own standard tests
(`langchain-tests`), over a real space, and what each hands the model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests, ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from graphmem import GraphMem
from graphmem.integrations.langchain import (
    GraphMemRetriever,
    HistoryTool,
    RecallRelatedTool,
    RecallTool,
    RememberTool,
    memory_tools,
)

CITIES = ["Lisbon", "Porto", "Braga", "Faro", "Evora", "Coimbra"]


@pytest.fixture(scope="class")
def seeded(request: pytest.FixtureRequest,
           make_class_mem: Callable[[], GraphMem]) -> Iterator[None]:
    """A space with a fact per city, handed to the standard test class."""
    mem = make_class_mem()
    mem.remember_facts([{"subject": f"office_{c.lower()}", "value": f"an office in {c}",
                         "confidence": 0.95} for c in CITIES])
    request.cls.memory = mem
    yield


@pytest.mark.usefixtures("seeded")
class TestRetrieverStandard(RetrieversIntegrationTests):
    memory: GraphMem

    @property
    def retriever_constructor(self) -> type[GraphMemRetriever]:
        return GraphMemRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"memory": self.memory}

    @property
    def retriever_query_example(self) -> str:
        return "where are the offices?"


class _ToolStandard:
    memory: GraphMem
    tool_class: type

    @property
    def tool_constructor(self) -> type:
        return self.tool_class

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"memory": self.memory}


class _Remember:
    tool_class = RememberTool
    tool_invoke_params_example = {"facts": [{"subject": "home_city", "value": "Lisbon"}]}


@pytest.mark.usefixtures("seeded")
class TestRememberToolUnit(_Remember, _ToolStandard, ToolsUnitTests):
    pass


@pytest.mark.usefixtures("seeded")
class TestRememberToolIntegration(_Remember, _ToolStandard, ToolsIntegrationTests):
    pass


class _Recall:
    tool_class = RecallTool
    tool_invoke_params_example = {"question": "where are the offices?"}


@pytest.mark.usefixtures("seeded")
class TestRecallToolUnit(_Recall, _ToolStandard, ToolsUnitTests):
    pass


@pytest.mark.usefixtures("seeded")
class TestRecallToolIntegration(_Recall, _ToolStandard, ToolsIntegrationTests):
    pass


class _RecallRelated:
    tool_class = RecallRelatedTool
    tool_invoke_params_example = {"question": "what is related to Lisbon?", "hops": 2}


@pytest.mark.usefixtures("seeded")
class TestRecallRelatedToolUnit(_RecallRelated, _ToolStandard, ToolsUnitTests):
    pass


@pytest.mark.usefixtures("seeded")
class TestRecallRelatedToolIntegration(_RecallRelated, _ToolStandard, ToolsIntegrationTests):
    pass


class _History:
    tool_class = HistoryTool
    tool_invoke_params_example = {"subject": "office_lisbon"}


@pytest.mark.usefixtures("seeded")
class TestHistoryToolUnit(_History, _ToolStandard, ToolsUnitTests):
    pass


@pytest.mark.usefixtures("seeded")
class TestHistoryToolIntegration(_History, _ToolStandard, ToolsIntegrationTests):
    pass


def test_documents_carry_the_fact_and_its_times(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    mem.remember_facts([{"subject": "home_city", "value": "Lisbon", "confidence": 0.95},
                        {"subject": "pet", "value": "a cat called Miso", "confidence": 0.95}])
    docs = GraphMemRetriever(memory=mem, k=1).invoke("which city is home?")
    assert [d.page_content for d in docs] == ["home_city: Lisbon"]
    meta = docs[0].metadata
    fact = mem.active("home_city")[0]
    assert isinstance(docs[0], Document) and docs[0].id == fact.id
    assert (meta["fact_id"], meta["subject"], meta["status"]) == (fact.id, "home_city",
                                                                   "ACTIVE")
    assert meta["recorded_at"] == fact.recorded_at.isoformat()  # type: ignore[union-attr]


def test_the_tools_write_and_read_the_same_space(make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    remember, recall, _, history = memory_tools(mem)
    said = remember.invoke({"facts": [{"subject": "home_city", "value": "Lisbon"}]})
    assert "home_city = Lisbon" in said and "ADD" in said
    remember.invoke({"facts": [{"subject": "home_city", "value": "Porto"}]})
    assert [f.value for f in mem.active("home_city")] == ["Porto"]
    assert "Porto" in recall.invoke({"question": "where is home?"})
    timeline = history.invoke({"subject": "home_city"})
    assert timeline.index("Lisbon") < timeline.index("Porto")
    with pytest.raises(ValueError):
        remember.invoke({"facts": []})
