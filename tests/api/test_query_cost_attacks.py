"""Documents built to make checking them expensive, sent to the real server: each is refused
with BAD_USER_INPUT for the reason its shape calls for (a budget, a depth, a limit, the
check's deadline), while a concurrent `/healthz` keeps answering, every poll of it. How long
these take is a benchmark's to measure (`bench.api`); no test here asserts a time.

A fragment chain where each fragment spreads the next twice costs 2ⁿ to expand; the check
measures each fragment once, so the chain is refused as soon as it is read.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest
import websockets

from support import loopback
from support.api_support import Api, codes

pytestmark = pytest.mark.races

STATS = 'stats(space: "u") { active }'


def fragment_chain(levels: int) -> str:
    """F0 spreads F1 twice, F1 spreads F2 twice, ...: 2^levels copies of the last one."""
    chain = [f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)]
    return "{ ...F0 } " + " ".join([*chain, f"fragment F{levels} on Query {{ {STATS} }}"])


def aliases_times_fragments(levels: int) -> str:
    """A fragment of 30 aliased fields, spread through a doubling chain."""
    wide = " ".join(f"a{i}: {STATS}" for i in range(30))
    chain = [f"fragment W{i} on Query {{ ...W{i + 1} ...W{i + 1} }}" for i in range(levels)]
    return "{ ...W0 } " + " ".join([*chain, f"fragment W{levels} on Query {{ {wide} }}"])


def inline_fragment_chain(levels: int) -> str:
    """The doubling chain with every spread wrapped in an inline fragment."""
    chain = [f"fragment I{i} on Query {{ ... on Query {{ ...I{i + 1} }} ... on Query"
             f" {{ ...I{i + 1} }} }}" for i in range(levels)]
    return "{ ... on Query { ...I0 } } " + " ".join(
        [*chain, f"fragment I{levels} on Query {{ {STATS} }}"])


def deep_selection(levels: int) -> str:
    return "{ " + "facts { " * levels + "id" + " }" * levels + " }"


def many_fragments(count: int) -> str:
    fragments = " ".join(f"fragment M{i} on Query {{ {STATS} }}" for i in range(count))
    return "{ " + " ".join(f"...M{i}" for i in range(count)) + " } " + fragments


def many_spreads(count: int) -> str:
    return "{ " + "...S " * count + f"}} fragment S on Query {{ {STATS} }}"


SHAPES = {
    "fragment chain, 30 levels": (fragment_chain(30), "budget"),
    "aliases x fragments": (aliases_times_fragments(20), "budget"),
    "inline fragments": (inline_fragment_chain(30), "budget"),
    "deep selection set": (deep_selection(150), "depth"),
    "selection set nested past the parser's limit": (deep_selection(1000), "nested too deeply"),
    "too many fragments": (many_fragments(101), "fragments exceed the limit"),
    "too many spreads": (many_spreads(501), "spreads exceed the limit"),
    "a fragment spreading itself": ("{ ...A } fragment A on Query { ...B }"
                                    " fragment B on Query { ...A }", "spreads itself"),
    "a flood of __typename": ("{ " + "__typename " * 15_000 + "}",
                              "fields answer to '__typename' in one selection"),
    "the largest flood of __typename the cost allows": (
        "{ " + "__typename " * 4_900 + "}", "fields answer to '__typename' in one selection"),
    "aliased introspection trees": ("{ " + " ".join(
        f"t{i}: __schema {{ types {{ name fields {{ name args {{ name }} }} }} }}"
        for i in range(30)) + " }", "budget"),
    "aliased inline exports": ("{ " + " ".join(f'e{i}: exportMemory(space: "u") {{ hash }}'
                                               for i in range(30)) + " }", "budget"),
}


@contextmanager
def health_watch(api: Api) -> Iterator[list[float]]:
    """Poll /healthz while the block runs; yields the answer times (a miss fails the poll)."""
    times: list[float] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def poll() -> None:
        with loopback.client(timeout=5) as client:
            while not stop.is_set():
                started = time.perf_counter()
                try:
                    assert client.get(f"{api.base}/healthz").status_code == 200
                except BaseException as e:  # noqa: BLE001 - reported below
                    failures.append(e)
                    return
                times.append(time.perf_counter() - started)
                time.sleep(0.02)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    deadline = time.monotonic() + 10
    while not times and not failures and time.monotonic() < deadline:
        time.sleep(0.01)  # the first answer, before the attack starts
    try:
        yield times
    finally:
        stop.set()
        poller.join(10)
    assert not failures, f"/healthz stopped answering: {failures[0]!r}"


@pytest.mark.parametrize("shape", list(SHAPES))
def test_costly_documents_are_refused_while_health_answers(api: Api,
                                                                  shape: str) -> None:
    query, reason = SHAPES[shape]
    token = api.key("reader")
    with health_watch(api) as health:
        response = api.post(query, token=token)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(codes(body)) == {"BAD_USER_INPUT"}, body
    assert reason in body["errors"][0]["message"], body
    assert health, "/healthz was never answered during the attack"


def test_a_flood_of_distinct_chains_leaves_health_answering(api: Api) -> None:
    """Eight clients at once, each with a chain the cache has not seen."""
    token = api.key("reader")
    results: list[httpx.Response] = []

    def attack(levels: int) -> None:
        results.append(api.post(fragment_chain(levels), token=token))

    with health_watch(api) as health:
        attackers = [threading.Thread(target=attack, args=(24 + i,)) for i in range(8)]
        for thread in attackers:
            thread.start()
        for thread in attackers:
            thread.join(30)
    assert len(results) == 8
    for response in results:
        assert set(codes(response.json())) == {"BAD_USER_INPUT"}
    assert health, "/healthz was never answered during the attack"


def test_validation_that_runs_too_long_is_stopped(serve_api: Callable[..., Api]) -> None:
    """A hundred same-named fields with wide selections pass the cost budget and the cap on
    same-named fields, but graphql-core compares every pair of them and their selections
    while validating: the deadline stops that."""
    hurried = serve_api(api_check_seconds=0.05)
    token = hurried.key("reader")
    same_named = "query($s: String!) { " + ("stats(space: $s) { active flagged superseded"
                                            " historical openConflicts pendingChanges"
                                            " entities } ") * 100 + "}"
    with health_watch(hurried) as health:
        response = hurried.post(same_named, token=token)
    body = response.json()
    assert set(codes(body)) == {"BAD_USER_INPUT"}, body
    assert "GRAPHMEM_API_CHECK_SECONDS" in body["errors"][0]["message"]
    assert health, "/healthz was never answered during the attack"
    # an ordinary document on the same server is still checked and answered
    assert "errors" not in hurried.gql(token, '{ stats(space: "u") { active } }')


def test_the_chain_over_a_websocket_is_refused_too(api: Api) -> None:
    token = api.key("reader")

    async def scenario() -> dict[str, object]:
        async with websockets.connect(api.ws_url, subprotocols=["graphql-transport-ws"]) as ws:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"authorization": f"Bearer {token}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                      "payload": {"query": fragment_chain(30)}}))
            reply: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return reply

    reply = asyncio.run(scenario())
    assert reply["type"] == "error", reply
    errors = reply["payload"]
    assert isinstance(errors, list)
    assert [e["extensions"]["code"] for e in errors] == ["BAD_USER_INPUT"]
    assert "budget" in errors[0]["message"], errors
