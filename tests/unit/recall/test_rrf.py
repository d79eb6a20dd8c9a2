"""Reciprocal-rank fusion and the named strategies, without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import HOT_STATUSES
from graphmem.recall.retrieve import (
    ALL_STATUSES,
    FUSED,
    LEXICAL,
    RRF_K,
    STRATEGIES,
    VECTOR,
    Pool,
    pool_for,
    rrf,
)


def test_rrf_scores_are_the_sum_of_reciprocal_ranks_with_k_60() -> None:
    # a: 1/61 + 1/63; b: 1/62 + 1/61; c: 1/63 + 1/62  → b > a > c
    assert rrf([["a", "b", "c"], ["b", "c", "a"]]) == ["b", "a", "c"]
    assert RRF_K == 60


def test_an_item_both_rankers_found_beats_one_only_one_ranked_first() -> None:
    vector = ["x", "shared"]
    lexical = ["shared", "y"]
    assert rrf([vector, lexical])[0] == "shared"


def test_ties_break_on_the_better_single_rank_then_the_id() -> None:
    assert rrf([["b", "a"], ["a", "b"]]) == ["a", "b"]
    assert rrf([["z"], ["y"]]) == ["y", "z"]


def test_a_single_list_keeps_its_order_and_empty_lists_fuse_to_nothing() -> None:
    assert rrf([["c", "a", "b"]]) == ["c", "a", "b"]
    assert rrf([]) == [] and rrf([[], []]) == []


def test_k_changes_how_much_the_top_ranks_dominate() -> None:
    lists = [["a", "b", "c", "d"], ["d", "c", "b", "a"], ["a", "x", "y", "z"]]
    assert rrf(lists, k=1)[0] == "a"
    assert set(rrf(lists, k=1000)) == {"a", "b", "c", "d", "x", "y", "z"}


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8), max_size=4))
def test_rrf_returns_each_item_once(lists: list[list[str]]) -> None:
    fused = rrf(lists)
    assert sorted(fused) == sorted({i for ranked in lists for i in ranked})


def test_strategies_are_named_configuration_objects() -> None:
    assert STRATEGIES == {"fused": FUSED, "vector": VECTOR, "lexical": LEXICAL}
    assert (FUSED.vector, FUSED.lexical) == (True, True)
    assert (VECTOR.vector, VECTOR.lexical) == (True, False)
    assert (LEXICAL.vector, LEXICAL.lexical) == (False, True)
    with pytest.raises(AttributeError):
        FUSED.rrf_k = 1  # type: ignore[misc]


def test_pools_for_recall_options() -> None:
    assert pool_for() == Pool(HOT_STATUSES)
    assert pool_for(include_history=True) == Pool(ALL_STATUSES, None, True)
    from datetime import UTC, datetime

    at = datetime(2026, 3, 1, tzinfo=UTC)
    assert pool_for(as_of=at) == Pool(ALL_STATUSES, at, False)
    assert pool_for(True, at).params() == {"statuses": list(ALL_STATUSES), "at": at,
                                            "history": True}
