"""GraphMemStore, LangGraph's long-term memory on graphmem: LangGraph's store operations on a
real Neo4j and relational store, each answered from reconciled, versioned facts."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp

from graphmem import GraphMem
from graphmem.integrations.langgraph import GraphMemStore, key_of, subject_of
from graphmem.runtime import Runtime

from support import isolation
from support.memory_fixtures import instant


@pytest.fixture
def store(runtime: Runtime) -> Iterator[GraphMemStore]:
    made = GraphMemStore(runtime, tenant=isolation.tenant())
    yield made
    made.close()


def test_a_put_is_read_back_with_its_times(store: GraphMemStore) -> None:
    store.put(("memories", "alice"), "food", {"likes": "pizza", "since": 2019})
    item = store.get(("memories", "alice"), "food")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (("memories", "alice"), "food",
                                                      {"likes": "pizza", "since": 2019})
    assert item.created_at == item.updated_at
    assert store.get(("memories", "alice"), "nothing") is None
    assert store.get(("memories", "bob"), "food") is None, "another namespace, another space"


def test_a_changed_value_supersedes_and_the_history_keeps_both(store: GraphMemStore) -> None:
    ns = ("memories", "alice")
    store.put(ns, "food", {"likes": "pizza"})
    before = instant()
    store.put(ns, "food", {"likes": "sushi"})
    item = store.get(ns, "food")
    assert item is not None and item.value == {"likes": "sushi"}
    assert item.updated_at > item.created_at
    assert [i.value for i in store.history(ns, "food")] == [{"likes": "pizza"},
                                                            {"likes": "sushi"}]
    then = store.get_as_of(ns, "food", before)
    assert then is not None and then.value == {"likes": "pizza"}


def test_a_delete_retracts_and_leaves_a_tombstone(store: GraphMemStore) -> None:
    ns = ("memories", "alice")
    store.put(ns, "city", {"name": "Paris"})
    store.delete(ns, "city")
    assert store.get(ns, "city") is None
    assert [i.value for i in store.history(ns, "city")][0] == {"name": "Paris"}
    assert len(store.history(ns, "city")) == 2, "the value and its retraction"


def test_search_ranks_by_the_query_and_filters_by_value(store: GraphMemStore) -> None:
    ns = ("memories", "alice")
    store.put(ns, "food", {"text": "Alice loves sushi and ramen", "kind": "taste"})
    store.put(ns, "city", {"text": "Alice lives in Lisbon", "kind": "place"})
    store.put(ns, "pet", {"text": "Alice has a cat called Miso", "kind": "place"})
    found = store.search(("memories",), query="which city does Alice live in", limit=2)
    assert [i.key for i in found][:1] == ["city"]
    assert found[0].score == 1.0 and found[1].score is not None and found[1].score < 1.0
    placed = store.search(ns, filter={"kind": "place"})
    assert sorted(i.key for i in placed) == ["city", "pet"]
    assert [i.key for i in store.search(ns, limit=1, offset=1)] != [i.key for i in
                                                                    store.search(ns, limit=1)]


def test_namespaces_are_the_tenants_spaces(store: GraphMemStore) -> None:
    store.put(("memories", "alice"), "a", {"v": 1})
    store.put(("memories", "bob"), "a", {"v": 1})
    store.put(("notes",), "a", {"v": 1})
    assert store.list_namespaces() == [("memories", "alice"), ("memories", "bob"), ("notes",)]
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "alice"),
                                                          ("memories", "bob")]
    assert store.list_namespaces(max_depth=1) == [("memories",), ("notes",)]


def test_a_batch_writes_a_run_of_puts_at_once(store: GraphMemStore, runtime: Runtime) -> None:
    ns = ("memories", "carol")
    results = store.batch([PutOp(ns, "a", {"v": 1}), PutOp(ns, "b", {"v": 2}),
                           PutOp(ns, "a", {"v": 3}), GetOp(ns, "a"), GetOp(ns, "b")])
    assert results[:3] == [None, None, None]
    assert [r.value for r in results[3:]] == [{"v": 3}, {"v": 2}]  # type: ignore[union-attr]
    space = f"{store._tenant}/memories/carol/default"
    rows = GraphMem(space, runtime=runtime).records.audit_log()
    assert [r.operation for r in rows].count("remember_facts") == 1, "one write for the run"


def test_the_async_batch_answers_as_the_sync_one(store: GraphMemStore) -> None:
    ns = ("memories", "dave")

    async def go() -> object:
        await store.aput(ns, "a", {"v": 1})
        return await store.aget(ns, "a")

    item = asyncio.run(go())
    assert item is not None and item.value == {"v": 1}  # type: ignore[attr-defined]


@pytest.mark.parametrize("namespace", [("a", "b", "c", "d"), ("bad label!",)])
def test_a_namespace_graphmem_cannot_hold_is_refused_clearly(
        store: GraphMemStore, namespace: tuple[str, ...]) -> None:
    with pytest.raises(InvalidNamespaceError, match="namespace|labels"):
        store.put(namespace, "k", {"v": 1})


@pytest.mark.parametrize("key", ["6f1c2d4e-aaaa-bbbb-cccc-0123456789ab", "Home City", "käse",
                                 "key_b32_looks_encoded", "plain_key"])
def test_every_key_reads_back_as_it_was_given(store: GraphMemStore, key: str) -> None:
    ns = ("memories", "erin")
    store.put(ns, key, {"v": key})
    item = store.get(ns, key)
    assert item is not None and (item.key, item.value) == (key, {"v": key})
    assert [i.key for i in store.search(ns)] == [key]
    kept = key in ("plain_key", "käse")  # snake_case already: stored as it is
    assert (subject_of(key) == key) == kept and key_of(subject_of(key)) == key
