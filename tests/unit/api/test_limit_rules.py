"""The pure parts of the API limits: the rate limiter, cursors, the complexity estimate."""

from __future__ import annotations

import pytest
from graphql import parse

from graphmem.errors import InvalidInput
from graphmem.http.limits import RateLimiter
from graphmem.schema.limits import Limits, _cost, _Walk, check
from graphmem.schema.pagination import Page, decode_cursor, encode_cursor


def test_the_rate_limiter_allows_the_budget_then_refills() -> None:
    limiter = RateLimiter(per_minute=3)
    assert [limiter.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.take("a", now=0.0)
    assert wait == pytest.approx(20.0)
    assert limiter.take("b", now=0.0) == 0.0
    assert limiter.take("a", now=20.0) == 0.0


def test_the_rate_limiter_forgets_idle_clients_when_full() -> None:
    limiter = RateLimiter(per_minute=60, max_clients=2)
    limiter.take("a", now=0.0)
    limiter.take("b", now=0.0)
    limiter.take("c", now=120.0)
    assert set(limiter._buckets) == {"c"}


def test_cursors_round_trip_and_reject_forgeries() -> None:
    assert decode_cursor(encode_cursor(41)) == 41
    for bad in ("", "abc", encode_cursor(0)[:-2], "Z206LTE="):
        with pytest.raises(InvalidInput):
            decode_cursor(bad)


def test_pages_cut_with_cursors() -> None:
    items = list(range(7))
    first = Page.parse(3, None, 500).cut(items, str)
    assert [e.node for e in first.edges] == ["0", "1", "2"] and first.page_info.has_next_page
    rest = Page.parse(10, first.page_info.end_cursor, 500).cut(items, str)
    assert [e.node for e in rest.edges] == ["3", "4", "5", "6"]
    assert not rest.page_info.has_next_page and rest.total_count == 7
    with pytest.raises(InvalidInput):
        Page.parse(501, None, 500)


def cost(query: str, variables: dict[str, object] | None = None) -> int:
    document = parse(query)
    walk = _Walk({}, variables or {}, frozenset({"facts"}))
    return _cost(document.definitions[0].selection_set, walk,  # type: ignore[attr-defined]
                 frozenset())


def test_the_cost_multiplies_paged_selections() -> None:
    assert cost("{ stats { active } }") == 2
    assert cost("{ facts(first: 10) { edges { node { id } } } }") == 1 + 10 * 3
    assert cost("{ facts { edges { node { id } } } }") == 1 + 50 * 3
    assert cost("query($n: Int) { facts(first: $n) { totalCount } }", {"n": 400}) == 401
    assert cost("{ __schema { types { name } } }") == 0


def test_depth_and_aliases_are_measured_through_fragments() -> None:
    limits = Limits(depth=3, aliases=1, cost=1000, paged=frozenset({"facts"}))
    deep = parse("{ ...F } fragment F on Query { facts { edges { node { id } } } }")
    assert check(deep, {}, limits) == ["query depth 4 exceeds the limit of 3"]
    aliased = parse("{ a: stats { active } b: stats { active } }")
    assert check(aliased, {}, limits) == ["2 aliases exceed the limit of 1"]
    cyclic = parse("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }")
    assert check(cyclic, {}, limits) == []
    assert check(parse("{ __schema { types { fields { type { ofType { name } } } } } }"), {},
                 limits) == []
