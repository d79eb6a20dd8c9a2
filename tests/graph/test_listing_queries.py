"""The paged statements: each page and its count share one filter, and each takes exactly
the parameters its caller passes (no database)."""

from __future__ import annotations

import pytest

from graphmem.graph.entity_listings import filter_params
from graphmem.graph.statements import parameters, query
from graphmem.model import When
from graphmem.model.listings import ConflictFilter, EntityFilter, FactFilter
from graphmem.model.paging import Window

PAGE = set(Window("fact").params())
TIMES = set(When().params())


def block(name: str) -> str:
    text = query(name)
    return text[text.index("// filter\n"):text.index("// end filter\n")]


@pytest.mark.parametrize(("page", "count"), [
    ("facts/page", "facts/count"),
    ("facts/page_back", "facts/count"),
    ("facts/history_page", "facts/history_count"),
    ("entities/history_page", "entities/history_count"),
    ("conflicts/page", "conflicts/count"),
    ("entities/page", "entities/count"),
])
def test_a_page_and_its_count_share_one_filter(page: str, count: str) -> None:
    assert block(page) == block(count)


@pytest.mark.parametrize(("name", "expected"), [
    ("facts/page", {"space", *FactFilter().params(When()), *PAGE}),
    ("facts/page_back", {"space", *FactFilter().params(When()), *PAGE}),
    ("facts/count", {"space", *FactFilter().params(When())}),
    ("facts/history_page", {"space", "subject", "scope", "believed", *TIMES, *PAGE}),
    ("facts/history_count", {"space", "subject", "scope", "believed", *TIMES}),
    ("entities/history_page", {"space", "key", "attribute", "scope", "believed", *TIMES,
                               *PAGE}),
    ("entities/history_count", {"space", "key", "attribute", "scope", "believed", *TIMES}),
    ("conflicts/page", {"space", *ConflictFilter().params(When()), *PAGE}),
    ("conflicts/count", {"space", *ConflictFilter().params(When())}),
    ("entities/page", {"space", *filter_params(EntityFilter(), When()), *PAGE}),
    ("entities/count", {"space", *filter_params(EntityFilter(), When())}),
    ("entities/aliases", {"space", "keys", "limit"}),
    ("entities/vocabulary_at", {"space", "limit", *TIMES}),
    ("spaces/page", {"prefix", *PAGE}),
    ("spaces/count", {"prefix"}),
    ("spaces/stats", {"spaces", *TIMES}),
    ("facts/by_ids", {"space", "ids", "as_of"}),
    ("facts/superseded_by", {"space", "ids", "as_of"}),
])
def test_paged_statements_take_what_their_callers_pass(name: str, expected: set[str]) -> None:
    assert parameters(name) == expected


def test_time_travel_rules_are_the_same_text_everywhere() -> None:
    """The status a fact had at $as_of, and its validity then, read alike in every read."""
    status = ("CASE WHEN $as_of IS NULL OR f.retired_at <= $as_of THEN f.status\n")
    validity = ("AND coalesce(f.valid_to_at, CASE WHEN f.valid_to = f.retired_at THEN"
                " f.retired_at END)")
    for name in ("facts/page", "facts/page_back", "spaces/stats", "recall/check_subjects"):
        assert status in query(name).replace("             WHEN", "          WHEN"), name
    for name in ("facts/page", "facts/page_back", "facts/history_page",
                 "entities/history_page", "spaces/stats"):
        assert validity in query(name), name
