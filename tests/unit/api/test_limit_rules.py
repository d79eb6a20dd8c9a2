"""The pure parts of the API limits: the rate limiter, the complexity estimate."""

from __future__ import annotations

import pytest
from graphql import parse

from graphmem.http.limits import RateLimiter
from graphmem.schema.limits import Limits, _cost, _Walk, check


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
