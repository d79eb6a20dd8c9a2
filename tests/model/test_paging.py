"""Keyset pages and Relay global ids without a database: cursors round-trip and refuse
forgeries, a window cuts a statement's rows both ways, ids name their type and space."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.errors import InvalidInput
from graphmem.model.paging import Window, decode, encode
from graphmem.schema.relay import global_id, local_id, parse_global_id

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_cursors_round_trip_and_reject_forgeries() -> None:
    cursor = encode("fact", (AT, "f1"))
    assert decode("fact", cursor) == (AT, "f1")
    for bad in ("", "abc", cursor[:-2], encode("entity", ("person:ada",)),
                encode("fact", (AT,)), "WyJmYWN0IiwxLDJd"):
        with pytest.raises(InvalidInput, match="not one this field issued"):
            decode("fact", bad)


def test_a_forward_window_says_what_follows() -> None:
    rows = [(AT, f"f{i}") for i in range(4)]
    first = Window.of("fact", first=3).page(rows, lambda r: r)
    assert first.items == tuple(rows[:3]) and first.has_next and not first.has_previous
    after = Window.of("fact", first=3, after=first.cursors[-1])
    assert after.after == rows[2]
    assert after.params() == {"after": [AT, "f2"], "before": None, "backward": False,
                              "limit": 4}


def test_a_pages_cursors_are_its_items_keys_in_every_form() -> None:
    rows = [(AT, f"f{i}") for i in range(5)]
    page = Window.of("fact", first=4).page(rows, lambda r: r)
    expected = [encode("fact", r) for r in rows[:4]]
    assert len(page.cursors) == 4 and list(page.cursors) == expected
    assert page.cursors[-1] == expected[-1] and list(page.cursors[1:3]) == expected[1:3]
    assert page.map(lambda r: r[1]).cursors[0] == expected[0]
    assert Window.of("fact", first=0).page(rows, lambda r: r).cursors == type(page.cursors)(
        "fact", ())


def test_a_backward_window_keeps_the_lists_order() -> None:
    read = [(AT, f"f{i}") for i in (9, 8, 7)]  # read newest first
    page = Window.of("fact", last=2).page(read, lambda r: r)
    assert [r[1] for r in page.items] == ["f8", "f9"] and page.has_previous
    assert not page.has_next


def test_windows_check_their_arguments() -> None:
    with pytest.raises(InvalidInput, match="between 0 and 500"):
        Window.of("fact", first=501)
    with pytest.raises(InvalidInput, match="not both"):
        Window.of("fact", first=1, last=1)


def test_global_ids_name_type_space_and_id() -> None:
    ident = global_id("Entity", "t/u/a/r", "person:ada|x")
    found = parse_global_id(str(ident))
    assert (found.type, found.space, found.local) == ("Entity", "t/u/a/r", "person:ada|x")
    assert local_id(str(global_id("Fact", "t/u/a/r", "f1")), "Fact") == "f1"
    assert local_id("f1", "Fact") == "f1"
    with pytest.raises(InvalidInput, match="names a Fact, not a Conflict"):
        local_id(str(global_id("Fact", "t/u/a/r", "f1")), "Conflict")
    with pytest.raises(InvalidInput, match="not a global id"):
        parse_global_id("Zm9vfGJhcg")
