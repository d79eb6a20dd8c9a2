"""The pool that checks new documents is shared fairly: one client checks one document at a
time, so a client sending slow documents holds at most one of the pool's threads while
another client's new document is checked on the other; and a document whose check ran out of
time is remembered, so sending it again costs nothing more."""

from __future__ import annotations

import asyncio
import threading

import pytest

from graphmem.schema import build_schema
from graphmem.schema.lanes import HEAVY_CHARS
from graphmem.schema.limits import (
    INLINE_CHECK_CHARS,
    MAX_REPEATED,
    REFUSED,
    Checked,
    Documents,
    Limits,
    _Lru,
)
from graphmem.settings import load_settings

pytestmark = pytest.mark.races

SCHEMA = build_schema(load_settings())._schema
LIMITS = Limits(depth=10, aliases=30, cost=5000, paged=frozenset({"facts"}), fragments=100,
                spreads=500)
PAD = " " * INLINE_CHECK_CHARS  # long enough to be checked on the pool


def pooled(name: str) -> str:
    return name + PAD


def held_checks() -> tuple[Documents, list[str], threading.Event]:
    """Documents whose checks record their query and hold a `slow` one until released."""
    documents = Documents(LIMITS)
    started: list[str] = []
    release = threading.Event()

    def check_now(schema: object, query: str, ints: object, rules: object) -> Checked:
        started.append(query.strip())
        if query.startswith("slow"):
            assert release.wait(30), "the test never released the slow checks"
        return Checked(None, ())

    documents.check_now = check_now  # type: ignore[method-assign]
    return documents, started, release


def test_one_client_holds_one_checking_thread_at_most() -> None:
    documents, started, release = held_checks()

    async def scenario() -> None:
        first = asyncio.create_task(documents.check(SCHEMA, pooled("slow 1"), {}, (), "key:a"))
        second = asyncio.create_task(documents.check(SCHEMA, pooled("slow 2"), {}, (),
                                                     "key:a"))
        while "slow 1" not in started:
            await asyncio.sleep(0.01)
        await documents.check(SCHEMA, pooled("other client's"), {}, (), "key:b")
        assert started == ["slow 1", "other client's"], "the second slow check waits its turn"
        release.set()
        await asyncio.gather(first, second)
        assert started == ["slow 1", "other client's", "slow 2"]

    asyncio.run(scenario())


def test_a_short_document_is_checked_at_once_never_queued_behind_the_pool() -> None:
    documents, started, release = held_checks()

    async def scenario() -> None:
        busy = [asyncio.create_task(documents.check(SCHEMA, pooled(f"slow {i}"), {}, (),
                                                    f"key:{i}")) for i in range(2)]
        while len(started) < 2:
            await asyncio.sleep(0.01)
        await documents.check(SCHEMA, "{ stats(space: \"u\") { active } }", {}, (), "key:v")
        assert started[-1] == '{ stats(space: "u") { active } }', "both pool threads busy"
        release.set()
        await asyncio.gather(*busy)

    asyncio.run(scenario())


def test_a_check_that_ran_out_of_time_is_remembered() -> None:
    documents = Documents(Limits(depth=10, aliases=30, cost=5000, paged=frozenset(),
                                 fragments=100, spreads=500, seconds=0.02))
    same_named = "query($s: String!) { " + ("stats(space: $s) { active flagged superseded"
                                            " historical openConflicts pendingChanges"
                                            " entities } ") * 100 + "}"
    work = documents._work
    runs: list[str] = []

    def counted(*args: object) -> Checked:
        runs.append("checked")
        return work(*args)  # type: ignore[arg-type]

    documents._work = counted  # type: ignore[method-assign]

    async def twice() -> tuple[Checked, Checked]:
        return (await documents.check(SCHEMA, same_named, {}, ()),
                await documents.check(SCHEMA, same_named, {}, ()))

    first, again = asyncio.run(twice())
    assert "GRAPHMEM_API_CHECK_SECONDS" in first.errors[0].message
    assert again is first and runs == ["checked"]


def test_a_document_refused_for_its_size_keeps_no_syntax_tree() -> None:
    """Its errors are what is remembered: thousands of refused trees in the caches would be
    walked by every full garbage collection, stalling every request."""
    documents = Documents(LIMITS)
    flood = "query { " + "__typename " * (MAX_REPEATED + 1) + "}"
    found = documents.check_now(SCHEMA, flood, (), ())
    assert found.document is REFUSED and "__typename" in found.errors[0].message
    assert documents._parsed.get(flood) is None
    accepted = '{ stats(space: "u") { active } }'
    assert documents.check_now(SCHEMA, accepted, (), ()).document is documents._parsed.get(
        accepted)


def test_parsed_documents_are_kept_up_to_a_total_size() -> None:
    cache: _Lru[str, str] = _Lru(size=100, weight=10)
    for name, weight in (("a", 4), ("b", 4), ("c", 4)):
        cache.put(name, name, weight)
    assert cache.get("a") is None and cache.get("b") == "b" and cache.get("c") == "c"
    cache.put("huge", "huge", 11)  # over the whole budget alone: nothing is kept
    assert [cache.get(k) for k in ("b", "c", "huge")] == [None, None, None]


def test_a_document_long_enough_to_be_heavy_is_checked_in_a_heavy_lane() -> None:
    """Two clients' new heavy documents are checked one after the other; a third client's
    longer-than-inline but not heavy one is checked meanwhile on the pool's other thread."""
    documents, started, release = held_checks()
    heavy = " " * HEAVY_CHARS

    async def scenario() -> None:
        first = asyncio.create_task(documents.check(SCHEMA, "slow 1" + heavy, {}, (), "key:a"))
        while not started:
            await asyncio.sleep(0.01)
        second = asyncio.create_task(documents.check(SCHEMA, "slow 2" + heavy, {}, (),
                                                     "key:b"))
        await documents.check(SCHEMA, pooled("long, not heavy"), {}, (), "key:c")
        assert started == ["slow 1", "long, not heavy"], "the second heavy one waits"
        release.set()
        await asyncio.gather(first, second)
        assert started == ["slow 1", "long, not heavy", "slow 2"]

    asyncio.run(scenario())
