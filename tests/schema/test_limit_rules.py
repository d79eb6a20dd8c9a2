"""The pure parts of the API limits: the rate limiter, the complexity estimate."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from graphql import FieldNode, InlineFragmentNode, parse
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.schema.limits import Limits, check
from graphmem.schema.measure import (
    INTROSPECTION_COST,
    MODEL_CALL_COST,
    WHOLE_SPACE_COST,
    Census,
    CostRules,
    Measurer,
)
from graphmem.schema.pagination import DEFAULT_PAGE
from graphmem.service.rates import RateLimiter, client_bucket


def test_the_rate_limiter_allows_the_budget_then_refills() -> None:
    limiter = RateLimiter(per_minute=3)
    assert [limiter.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.take("a", now=0.0)
    assert wait == pytest.approx(20.0)
    assert limiter.take("b", now=0.0) == 0.0
    assert limiter.take("a", now=20.0) == 0.0


def test_the_rate_limiter_forgets_the_least_recently_used_client_when_full() -> None:
    limiter = RateLimiter(per_minute=60, max_clients=2)
    limiter.take("a", now=0.0)
    limiter.take("b", now=1.0)
    limiter.take("a", now=2.0)
    limiter.take("c", now=3.0)
    assert set(limiter._buckets) == {"a", "c"} and len(limiter) == 2


def test_ipv6_clients_share_their_64_and_mapped_ipv4_is_ipv4() -> None:
    assert client_bucket("2001:db8:1:2:3:4:5:6") == client_bucket("2001:db8:1:2:ffff::1")
    assert client_bucket("2001:db8:1:2::1") != client_bucket("2001:db8:1:3::1")
    assert client_bucket("::ffff:198.51.100.7") == "198.51.100.7" == client_bucket("198.51.100.7")
    assert client_bucket("not-an-address") == "not-an-address"


def cost(query: str, variables: dict[str, object] | None = None) -> int:
    census = Census.of(parse(query))
    measurer = Measurer(census, variables or {}, frozenset({"facts"}), cap=10**9)
    return measurer.selection(census.operations[0].selection_set).cost


def test_the_cost_multiplies_paged_selections() -> None:
    assert cost("{ stats { active } }") == 2
    assert cost("{ facts(first: 10) { edges { node { id } } } }") == 1 + 10 * 3
    assert cost("{ facts { edges { node { id } } } }") == 1 + 50 * 3
    assert cost("query($n: Int) { facts(first: $n) { totalCount } }", {"n": 400}) == 401
    assert cost("{ __schema { types { name } } }") == 1 + INTROSPECTION_COST + 2
    assert cost("{ a: __typename b: __typename }") == 2, "every field counts, aliases too"


def test_aliased_introspection_trees_cost_one_schema_each() -> None:
    tree = "__schema { types { name fields { name } } }"
    trees = " ".join(f"t{i}: {tree}" for i in range(30))
    assert cost(f"{{ {trees} }}") == 30 * (1 + INTROSPECTION_COST + 4)
    assert cost(f"{{ {trees} }}") > 5000, "over the default GRAPHMEM_API_MAX_COMPLEXITY"


def test_a_field_named_like_a_page_on_another_type_is_no_page() -> None:
    def measured(query: str, *extra: str) -> int:
        census = Census.of(parse(query))
        paged = frozenset({"Query.facts", "Query.conflicts", *extra})
        return Measurer(census, {}, paged, cap=10**9).selection(
            census.operations[0].selection_set).cost

    # Conflict.facts takes no `first`: a page of 10 conflicts costs 10 times its selection
    assert measured("{ conflicts(first: 10) { nodes { facts { value } } } }") == 1 + 10 * 3
    assert measured("{ facts { nodes { value } } }") == 1 + 50 * 2
    assert measured("query Q { ...R } fragment R on Query { facts { nodes { value } } }"
                    ) == 1 + 50 * 2
    assert measured("{ conflicts(first: 2) { nodes { ...C } } } fragment C on Conflict"
                    " { facts { value } }") == 1 + 2 * 3
    # a page of that name on a type below the root: a nested selection, whose type the
    # document does not say, counts as that page; a fragment naming another type does not
    assert measured("{ conflicts(first: 2) { nodes { facts { value } } } }",
                    "Space.facts") == 1 + 2 * (1 + 1 + 50)
    assert measured("{ conflicts(first: 2) { nodes { ...C } } } fragment C on Conflict"
                    " { facts { value } }", "Space.facts") == 1 + 2 * 3
RULES = CostRules(limits={"recallRelated": 50, "neighbourhood": 50},
                  hops={"recallRelated": 2, "neighbourhood": 1})


def measured(query: str, variables: dict[str, object] | None = None) -> tuple[int, int]:
    census = Census.of(parse(query))
    measurer = Measurer(census, variables or {}, frozenset({"facts"}), cap=10**9, rules=RULES)
    found = measurer.selection(census.operations[0].selection_set)
    return found.cost, found.calls


def test_limit_multiplies_like_first_given_or_by_default() -> None:
    assert measured("{ neighbourhood(limit: 10) { paths { length } } }")[0] == 1 + 10 * 2
    assert measured("{ neighbourhood { paths { length } } }")[0] == 1 + 50 * 2
    assert measured("query($n: Int) { neighbourhood(limit: $n) { paths { length } } }",
                    {"n": 3})[0] == 1 + 3 * 2


def test_each_hop_past_the_first_doubles_the_paths_walked() -> None:
    one, two, four = (measured(f"{{ neighbourhood(limit: 10, hops: {h})"
                               f" {{ paths {{ length }} }} }}")[0] for h in (1, 2, 4))
    # the page is returned once; the walk to find it costs the page (2^(hops-1) - 1) more
    assert (one, two, four) == (1 + 10 * 2, 1 + 10 * 2 + 10 * 1, 1 + 10 * 2 + 10 * 7)
    deep = measured("{ neighbourhood(limit: 1000, hops: 30) { paths { length } } }")[0]
    assert deep > 5000, "a deep walk over a large page is refused by the default budget"


def test_model_calling_fields_cost_and_count_each_call() -> None:
    assert measured("{ recall(question: \"q\") { answer } }") == (2 + MODEL_CALL_COST, 1)
    aliased = " ".join(f"r{i}: recall(question: \"q\") {{ answer }}" for i in range(30))
    cost, calls = measured(f"{{ {aliased} }}")
    assert calls == 30 and cost > 5000, "30 aliased recalls are 30 model calls: over budget"
    assert measured("{ recallRelated(question: \"q\", answer: false, limit: 1)"
                    " { answer } }")[1] == 0, "no answer asked for, no model call"
    assert measured("mutation { remember(text: \"t\") { action } forget(text: \"t\")"
                    " { action } }")[1] == 2
    limits = Limits(depth=10, aliases=100, cost=5000, paged=frozenset(), fragments=10,
                    spreads=10)
    document = parse(f"{{ {aliased} }}")
    assert any("model-calling fields" in p for p in check(document, {}, limits, RULES))


def test_a_key_s_model_calls_draw_on_its_own_budget() -> None:
    budget = RateLimiter(per_minute=10)
    assert budget.take("key:a", now=0.0, cost=9) == 0.0
    assert budget.take("key:a", now=0.0, cost=2) == pytest.approx(6.0)
    assert budget.take("key:b", now=0.0, cost=2) == 0.0
    assert budget.take("key:c", now=0.0, cost=11) == float("inf")


def test_depth_and_aliases_are_measured_through_fragments() -> None:
    limits = Limits(depth=3, aliases=1, cost=5000, paged=frozenset({"facts"}), fragments=10,
                    spreads=10)
    deep = parse("{ ...F } fragment F on Query { facts { edges { node { id } } } }")
    assert check(deep, {}, limits) == ["query depth 4 exceeds the limit of 3"]
    aliased = parse("{ a: stats { active } b: stats { active } }")
    assert check(aliased, {}, limits) == ["2 aliases exceed the limit of 1"]
    cyclic = parse("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }")
    assert check(cyclic, {}, limits) == ["fragment A spreads itself"]
    assert check(parse("{ __schema { types { fields { type { ofType { name } } } } } }"), {},
                 limits) == []


# ---- the linear measure agrees with expanding every spread ---------------------------------
def _expanded(selection_set: Any, fragments: dict[str, Any], seen: frozenset[str]
              ) -> Iterator[tuple[Any, frozenset[str]]]:
    """The fields of a selection with every spread expanded in place (exponential)."""
    for node in selection_set.selections if selection_set is not None else ():
        if isinstance(node, FieldNode):
            yield node, seen
        elif isinstance(node, InlineFragmentNode):
            yield from _expanded(node.selection_set, fragments, seen)
        elif node.name.value not in seen and node.name.value in fragments:
            yield from _expanded(fragments[node.name.value].selection_set, fragments,
                                 seen | {node.name.value})


def _expanded_cost(selection_set: Any, fragments: dict[str, Any], seen: frozenset[str]) -> int:
    total = 0
    for field, inner in _expanded(selection_set, fragments, seen):
        name = field.name.value
        if name.startswith("__"):
            root = INTROSPECTION_COST if name in ("__schema", "__type") else 0
            total += 1 + root + _expanded_cost(field.selection_set, fragments, inner)
            continue
        first = next((int(a.value.value) for a in field.arguments or () if a.name.value == "first"),
                     DEFAULT_PAGE if name == "facts" else 1)
        total += 1 + first * _expanded_cost(field.selection_set, fragments, inner)
    return total


def _expanded_depth(selection_set: Any, fragments: dict[str, Any], seen: frozenset[str]) -> int:
    return max((1 + _expanded_depth(f.selection_set, fragments, inner)
                for f, inner in _expanded(selection_set, fragments, seen)
                if not f.name.value.startswith("__")), default=0)


@st.composite
def documents(draw: st.DrawFn) -> str:
    """An operation and up to five fragments; fragment i spreads only later ones (no
    cycles), with fields, pages, inline fragments and introspection mixed in."""
    count = draw(st.integers(0, 5))

    def selection(depth: int, after: int) -> str:
        parts = []
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["leaf", "field", "paged", "inline", "spread", "meta"]))
            if kind == "spread" and after < count:
                parts.append(f"...F{draw(st.integers(after, count - 1))}")
            elif kind in ("field", "paged") and depth < 3:
                args = f"(first: {draw(st.integers(1, 9))})" if kind == "paged" else ""
                name = "facts" if kind == "paged" or draw(st.booleans()) else "stats"
                parts.append(f"{name}{args} {{ {selection(depth + 1, after)} }}")
            elif kind == "inline" and depth < 3:
                parts.append(f"... on Query {{ {selection(depth, after)} }}")
            elif kind == "meta":
                parts.append("__typename")
            else:
                parts.append("id")
        return " ".join(parts)

    fragments = [f"fragment F{i} on Query {{ {selection(0, i + 1)} }}" for i in range(count)]
    return " ".join([f"{{ {selection(0, 0)} }}", *fragments])


@settings(max_examples=300, deadline=None)
@given(documents())
def test_the_linear_measure_equals_expanding_every_spread(query: str) -> None:
    census = Census.of(parse(query))
    measure = Measurer(census, {}, frozenset({"facts"}), cap=10**60).selection(
        census.operations[0].selection_set)
    root = census.operations[0].selection_set
    assert measure.cost == _expanded_cost(root, census.fragments, frozenset())
    assert measure.depth == _expanded_depth(root, census.fragments, frozenset())


def test_an_inline_export_costs_a_whole_space() -> None:
    one = 'exportMemory(space: "u") { data }'
    assert cost(f"{{ {one} }}") == 1 + WHOLE_SPACE_COST + 1
    thirty = " ".join(f"e{i}: {one}" for i in range(30))
    assert cost(f"{{ {thirty} }}") > 5000, "over the default GRAPHMEM_API_MAX_COMPLEXITY"
