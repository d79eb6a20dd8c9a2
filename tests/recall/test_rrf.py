"""Reciprocal-rank fusion (dense ranks for ties) and the named strategies, no database."""

from __future__ import annotations

from datetime import UTC, datetime

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
    dense_ranks,
    pool_for,
    rrf,
)


def scored(*ids: str) -> list[tuple[str, float]]:
    """Distinct, decreasing scores: positions are ranks."""
    return [(i, 1.0 - n / 100) for n, i in enumerate(ids)]


def test_rrf_scores_are_the_sum_of_reciprocal_ranks_with_k_60() -> None:
    # a: 1/61 + 1/63; b: 1/62 + 1/61; c: 1/63 + 1/62  → b > a > c
    assert rrf([scored("a", "b", "c"), scored("b", "c", "a")]) == ["b", "a", "c"]
    assert RRF_K == 60


def test_an_item_both_rankers_found_beats_one_only_one_ranked_first() -> None:
    assert rrf([scored("x", "shared"), scored("shared", "y")])[0] == "shared"


def test_tied_scores_share_a_rank_so_their_arbitrary_order_is_no_evidence() -> None:
    assert dense_ranks([("a", 3.88), ("b", 3.88), ("c", 3.88), ("d", 3.45)]) == [
        ("a", 1), ("b", 1), ("c", 1), ("d", 2)]
    vector = scored("c", "a", "b")
    lexical = [("a", 3.88), ("b", 3.88), ("c", 3.88)]  # the name matched, nothing else
    assert rrf([vector, lexical]) == ["c", "a", "b"]
    assert rrf([vector, scored("a", "b", "c")])[0] == "a"  # a real lexical preference counts


def test_ties_break_on_the_better_single_rank_then_the_id() -> None:
    assert rrf([scored("b", "a"), scored("a", "b")]) == ["a", "b"]
    assert rrf([scored("z"), scored("y")]) == ["y", "z"]


def test_a_single_list_keeps_its_order_and_empty_lists_fuse_to_nothing() -> None:
    assert rrf([scored("c", "a", "b")]) == ["c", "a", "b"]
    assert rrf([]) == [] and rrf([[], []]) == []


def test_k_changes_how_much_the_top_ranks_dominate() -> None:
    lists = [scored("a", "b", "c", "d"), scored("d", "c", "b", "a"), scored("a", "x", "y")]
    assert rrf(lists, k=1)[0] == "a"
    assert set(rrf(lists, k=1000)) == {"a", "b", "c", "d", "x", "y"}


@given(st.lists(st.lists(st.tuples(st.sampled_from("abcdefgh"),
                                   st.floats(0, 10, allow_nan=False)),
                         unique_by=lambda t: t[0], max_size=8), max_size=4))
def test_rrf_returns_each_item_once(lists: list[list[tuple[str, float]]]) -> None:
    ordered = [sorted(items, key=lambda t: -t[1]) for items in lists]
    fused = rrf(ordered)
    assert sorted(fused) == sorted({i for items in lists for i, _ in items})


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
    at = datetime(2026, 3, 1, tzinfo=UTC)
    assert pool_for(as_of=at) == Pool(ALL_STATUSES, at, False)
    assert pool_for(True, at).params() == {"statuses": list(ALL_STATUSES), "at": at,
                                            "history": True, "valid_at": None}
    assert pool_for(valid_at=at) == Pool(ALL_STATUSES, None, True, at)
