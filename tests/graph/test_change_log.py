"""The durable change log against the real stores: every writer's entries in commit order,
events derived from them, a feed that hears a runtime it does not share (as another process
would be), and the floor pruning and erasure leave for older cursors to read the mirror."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator, Callable

import pytest

from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.runtime import Runtime
from graphmem.service.change_head import head
from graphmem.service.changes import (
    CONFLICT_CLOSED,
    CONFLICT_OPENED,
    END,
    FACT_CHANGED,
    PENDING_CHANGED,
    Change,
)
from graphmem.service.feed import ChangeFeed, ChangeLog

from support import isolation

pytestmark = pytest.mark.races

ALL = frozenset({FACT_CHANGED, CONFLICT_OPENED, CONFLICT_CLOSED, PENDING_CHANGED})


def everything(runtime: Runtime, space: str) -> list[Change]:
    found, _, more = ChangeLog(runtime).after(space, (0, "", END))
    assert not more
    return found


def test_events_come_in_commit_order_with_increasing_keys(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    flagged = mem.remember_facts([{"subject": "db", "value": "MySQL", "action": "SUPERSEDE",
                                   "confidence": 0.3}])[0]
    mem.review.resolve_conflict(flagged.conflict_id or "", flagged.fact_id or "", "checked")
    found = everything(mem.runtime, mem.space.key)
    assert [c.key for c in found] == sorted(c.key for c in found)
    assert len({c.key for c in found}) == len(found)
    assert [(c.channel, c.change) for c in found] == [
        (FACT_CHANGED, "remembered"), (FACT_CHANGED, "remembered"),
        (CONFLICT_OPENED, "opened"), (FACT_CHANGED, "resolved"), (FACT_CHANGED, "resolved"),
        (CONFLICT_CLOSED, "resolved")]
    assert found[2].conflict_id == flagged.conflict_id
    assert found[5].winner == flagged.fact_id
    mem.erasure.delete(subject="db")  # rewrites the log without the erased facts
    after = everything(mem.runtime, mem.space.key)
    assert [(c.channel, c.change) for c in after] == [
        (CONFLICT_CLOSED, "resolved"), (FACT_CHANGED, "erased"), (CONFLICT_CLOSED, "erased"),
        (PENDING_CHANGED, "erased")]
    assert set(after[1].fact_ids) >= {flagged.fact_id}
    assert not {"Postgres", "MySQL"} & {c.value for c in after}


def test_a_cursor_inside_an_entry_resumes_at_its_next_event(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": f"s{i}", "value": "v"} for i in range(3)])
    found = everything(mem.runtime, mem.space.key)
    assert len(found) == 3 and len({c.key[:2] for c in found}) == 1  # one entry, three events
    rest, reached, _ = ChangeLog(mem.runtime).after(mem.space.key, found[0].key)
    assert [c.key for c in rest] == [found[1].key, found[2].key]
    assert reached == (*found[0].key[:2], END)


def test_old_cursors_read_the_mirror_once_the_graph_let_the_entries_go(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem()
    for i in range(3):
        mem.remember_facts([{"subject": f"s{i}", "value": f"v{i}"}])
    before = everything(mem.runtime, mem.space.key)
    mem.records.drain()
    mem.runtime.mirror.mark_applied()
    assert outbox.prune(mem.runtime.graph, 0, 100_000, spaces=[mem.space.key]) >= 3
    floor, left = outbox.since(mem.runtime.graph, mem.space.key, 0, "", 100)
    assert left == [] and floor == before[-1].key[0]
    after = everything(mem.runtime, mem.space.key)
    assert [(c.key, c.value) for c in after] == [(c.key, c.value) for c in before]


async def take(events: AsyncGenerator[Change, None], count: int) -> list[Change]:
    found: list[Change] = []
    async for change in events:
        found.append(change)
        if len(found) == count:
            return found
    return found


def test_a_feed_hears_writes_of_a_runtime_it_does_not_share(
        runtime: Runtime, make_runtime: Callable[..., Runtime]) -> None:
    """Another Runtime stands for another process: its commits never wake this feed, the
    feed finds them by following the log."""
    space = isolation.space("feed")
    other = make_runtime(embedding_base_url="http://127.0.0.1:9/v1", llm_max_retries=0)
    writer = GraphMem(space, runtime=other)

    async def scenario() -> list[Change]:
        feed = ChangeFeed(runtime, interval=0.05)
        try:
            events = feed.subscribe(space, frozenset({FACT_CHANGED}))
            pending = asyncio.ensure_future(take(events, 2))
            await asyncio.sleep(0)  # the subscription is made; writes from now on count
            await asyncio.to_thread(writer.remember_facts, [{"subject": "a", "value": "1"}])
            await asyncio.to_thread(writer.remember_facts, [{"subject": "b", "value": "2"}])
            found = await asyncio.wait_for(pending, 30)
            await events.aclose()
            return found
        finally:
            await feed.close()

    found = asyncio.run(scenario())
    assert [(c.subject, c.value) for c in found] == [("a", "1"), ("b", "2")]
    assert found[0].key < found[1].key


def test_pending_proposals_and_their_settlement_are_events(
        make_mem: Callable[..., GraphMem]) -> None:
    mem = make_mem(slot_schema="preset:clinical")
    mem.remember_facts([{"subject": "active_medication", "value": "Warfarin 5mg",
                         "confidence": 0.95}])
    proposal = mem.remember_facts([{"subject": "active_medication", "value": "Warfarin 7mg",
                                    "action": "SUPERSEDE", "confidence": 0.95}])[0]
    mem.review.reject(proposal.fact_id or "")
    pending = [c for c in everything(mem.runtime, mem.space.key) if c.channel == PENDING_CHANGED]
    assert [(c.change, c.conflict_id) for c in pending] == [
        ("proposed", proposal.conflict_id), ("rejected", proposal.conflict_id)]
    assert pending[0].value == "Warfarin 7mg" and pending[1].fact_id == proposal.fact_id


@pytest.mark.slow  # two hundred subscriptions against a streaming writer: a load test
def test_a_tail_placed_while_a_write_commits_skips_none_of_its_events(
        runtime: Runtime, make_runtime: Callable[..., Runtime]) -> None:
    """A writer streams to one space while a feed of another runtime (another process) is
    joined after the space's head and left again, over and over, so that tails are placed
    while writes commit. Neo4j applies a committing transaction's property updates before
    its index updates, so a head or a tail placed by the Space node's write counter would,
    for a moment, name a write whose outbox entry the index does not find yet, and skip that
    write's events (about one subscription in thirty on two loaded cores). The first event
    each subscription hears must be the log's first after its cursor."""
    space = isolation.space("placed")
    writer = GraphMem(space, runtime=make_runtime())  # the real model embeds beside it
    writer.remember_facts([{"subject": "s", "value": "0"}])
    key = writer.space.key
    stop = threading.Event()

    def stream() -> None:
        count = 0
        while not stop.is_set():
            count += 1
            writer.remember_facts([{"subject": f"s{count % 20}", "value": str(count)}])

    async def scenario() -> list[str]:
        feed, log, skipped = ChangeFeed(runtime, interval=0.05), ChangeLog(runtime), []
        try:
            for _ in range(200):
                cursor = await asyncio.to_thread(head, runtime, key)
                events = feed.subscribe(key, frozenset({FACT_CHANGED}), after=cursor)
                heard = await asyncio.wait_for(anext(events), 30)
                await events.aclose()
                first, _, _ = await asyncio.to_thread(log.after, key, cursor)
                if first[0].key != heard.key:
                    skipped.append(f"after {cursor}: heard {heard.key}, the log's first is"
                                   f" {first[0].key}")
        finally:
            await feed.close()
        return skipped

    streaming = threading.Thread(target=stream, name="streaming-writer")
    streaming.start()
    try:
        skipped = asyncio.run(scenario())
    finally:
        stop.set()
        streaming.join(60)
    assert skipped == []
