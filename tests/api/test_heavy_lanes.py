"""Heavy requests (a write of many facts, a large page, introspection trees) execute one lane
at a time and away from the server's event loop; small requests never wait for a lane.

A real server in a thread of this process: the service's `remember_facts` is wrapped so a
test can hold a heavy write where it reaches the service, and `FactInput.to_dict` (called
while the mutation's arguments are converted) records the thread GraphQL executes on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from graphmem.schema.inputs import FactInput
from graphmem.schema.lanes import Lanes, list_items
from graphmem.service.memory import GraphMem

from support import loopback
from support.api_support import Api
from support.mirror_support import wait_for

pytestmark = pytest.mark.races

HEAVY_ITEMS = 5
WRITE = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
         " { action } }")
STATS = 'query { stats(space: "lanes") { active } }'


def facts(count: int, tag: str) -> list[dict[str, Any]]:
    return [{"subject": f"{tag}_{i}", "value": f"v{i}", "confidence": 0.9}
            for i in range(count)]


@pytest.fixture
def lanes_api(serve_api: Callable[..., Api]) -> Api:
    return serve_api(own=True, api_heavy_items=HEAVY_ITEMS, api_heavy_lanes=1)


@pytest.fixture
def held_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list[str], threading.Event]]:
    """Writes of HEAVY_ITEMS facts or more wait in the service until released; every write
    records its first subject when it arrives there."""
    arrived: list[str] = []
    release = threading.Event()
    original = GraphMem.remember_facts

    def remember_facts(self: GraphMem, *args: Any, **kwargs: Any) -> Any:
        write = args[0] if args else kwargs.get("facts")
        given = getattr(write, "facts", ())
        arrived.append(str(given[0]["subject"]) if given else "")
        if len(given) >= HEAVY_ITEMS:
            assert release.wait(60), "the test never released the heavy writes"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(GraphMem, "remember_facts", remember_facts)
    yield arrived, release
    release.set()


def heavy_gauge(api: Api, state: str) -> int:
    text = loopback.get(f"{api.base}/metrics", timeout=30).text
    line = next((x for x in text.splitlines()
                 if x.startswith(f'graphmem_heavy_requests{{state="{state}"}}')), None)
    return int(float(line.split()[1])) if line else 0


def test_a_heavy_write_executes_off_the_event_loop_and_a_small_one_on_it(
        lanes_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    original = FactInput.to_dict

    def to_dict(self: FactInput) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return original(self)

    monkeypatch.setattr(FactInput, "to_dict", to_dict)
    token = lanes_api.key("writer")
    lanes_api.ok(token, WRITE, {"s": "lanes", "f": facts(1, "small")})
    small = set(threads)
    threads.clear()
    lanes_api.ok(token, WRITE, {"s": "lanes", "f": facts(HEAVY_ITEMS, "heavy")})
    heavy = set(threads)
    assert len(small) == 1 and len(heavy) == 1
    assert small.isdisjoint(heavy), "the heavy write's arguments were converted on the loop"
    assert next(iter(heavy)).startswith("graphmem-api"), heavy  # one of the loop's workers


def test_heavy_requests_take_turns_and_small_ones_never_wait(
        lanes_api: Api, held_writes: tuple[list[str], threading.Event]) -> None:
    arrived, release = held_writes
    token = lanes_api.key("writer")
    answers: dict[str, dict[str, Any]] = {}

    def send(tag: str) -> None:
        answers[tag] = lanes_api.ok(token, WRITE, {"s": "lanes", "f": facts(HEAVY_ITEMS, tag)})

    first = threading.Thread(target=send, args=("first",))
    first.start()
    wait_for(lambda: "first_0" in arrived, 30)  # the first heavy write reached the service
    second = threading.Thread(target=send, args=("second",))
    second.start()
    wait_for(lambda: heavy_gauge(lanes_api, "waiting") == 1, 30)  # the second waits its turn
    assert heavy_gauge(lanes_api, "running") == 1
    assert lanes_api.ok(token, STATS)["stats"]["active"] >= 0  # a small read: answered
    lanes_api.ok(token, WRITE, {"s": "lanes", "f": facts(1, "small")})  # a small write too
    assert arrived == ["first_0", "small_0"], "the second heavy write waits its turn"
    release.set()
    first.join(60)
    second.join(60)
    assert arrived == ["first_0", "small_0", "second_0"]
    assert [r["action"] for r in answers["second"]["rememberFacts"]] == ["ADD"] * HEAVY_ITEMS
    assert heavy_gauge(lanes_api, "waiting") == heavy_gauge(lanes_api, "running") == 0


def test_an_introspection_tree_is_heavy_and_answered_whole(lanes_api: Api) -> None:
    """Two introspection roots cost more than the heavy threshold: executed on a worker
    thread, the answer is the same as graphql-core's on the loop would be."""
    tree = "__schema { queryType { name } types { name } }"
    data = lanes_api.ok(lanes_api.key("reader"), f"query {{ a: {tree} b: {tree} }}")
    assert data["a"] == data["b"] and data["a"]["queryType"] == {"name": "Query"}
    assert {"Fact", "Conflict", "Query"} <= {t["name"] for t in data["a"]["types"]}


def test_what_makes_a_request_heavy() -> None:
    lanes = Lanes(1, heavy_cost=2000, heavy_items=100)
    assert not lanes.heavy(1999, "{ a }", {"f": [{"x": 1}] * 99})
    assert lanes.heavy(2000, "{ a }", None)
    assert lanes.heavy(1, "{ a }", {"f": [{"tags": []}] * 100})
    assert lanes.heavy(1, "{ a }", {"nested": {"deeper": [[1] * 60, [2] * 60]}})
    assert lanes.heavy(1, "{ a" + " " * 10_000 + "}", None)
    assert list_items({"f": [[1, 2], [3]]}, 1000) == 5
    assert list_items({"f": list(range(10_000))}, 100) == 10_000  # stops at the first list
