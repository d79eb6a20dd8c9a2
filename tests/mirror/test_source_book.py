"""A tenant's source mapping in the relational store (SQLite and Postgres): set, list,
remove; and what a write does when the mapping cannot be read (the graph write never fails
because the relational store does)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from graphmem import Caller, GraphMem
from graphmem.auth.sources import SourceBook
from graphmem.errors import InvalidInput, NotFound
from graphmem.mirror.db import RelationalStore
from graphmem.runtime import Runtime


def broken(tmp_path: Path) -> RelationalStore:
    """A store that cannot even be opened (its directory is a file)."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    return RelationalStore(f"sqlite:///{blocker / 'x.db'}")


def test_a_mapping_is_set_listed_and_removed(relational_store: RelationalStore) -> None:
    book = SourceBook(relational_store)
    book.set("acme", "crm", ("crm-sync", "crm-sync", "import"), trusted=True)
    book.set("acme", "wiki", (), curated=True)
    found = book.of("acme")
    assert found.bound == {"crm": frozenset({"crm-sync", "import"}), "wiki": frozenset()}
    assert (found.trusted, found.curated) == (frozenset({"crm"}), frozenset({"wiki"}))
    assert found.speaks_as("import", "crm") and not found.speaks_as("import", "wiki")
    assert book.of("globex").bound == {}, "per tenant"
    book.remove("acme", "wiki")
    assert [r.source for r in book.rows("acme")] == ["crm"]
    with pytest.raises(NotFound):
        book.remove("acme", "wiki")
    for bad in ("", "claimed:crm", "x" * 201, "tab\\there".replace("\\t", "\t")):
        with pytest.raises(InvalidInput):
            book.set("acme", bad)


def test_an_unreadable_mapping_falls_back_to_the_last_one_or_to_review(
        relational_store: RelationalStore, tmp_path: Path) -> None:
    book = SourceBook(relational_store)
    book.set("acme", "wiki", (), curated=True)
    assert book.of("acme").curated == frozenset({"wiki"})
    book.store = broken(tmp_path)
    assert book.of("acme").curated == frozenset({"wiki"}), "the last one read"
    assert book.of("globex").unknown, "never read: unknown, so writes flag cross-source"


def test_a_store_without_the_table_has_no_mapping(tmp_path: Path) -> None:
    store = RelationalStore(f"sqlite:///{tmp_path / 'bare.db'}")
    found = SourceBook(store).of("acme")
    assert (found.bound, found.unknown) == ({}, False)


def test_a_write_flags_cross_source_changes_while_curation_is_unknown(
        make: Callable[..., GraphMem], mirror_runtime: Runtime, tmp_path: Path) -> None:
    mem = make(f"t-{uuid.uuid4().hex[:10]}/u/a/r")
    mem.remember_facts([{"subject": "plan", "value": "Pro"}], source="wiki")
    mirror_runtime._sources = SourceBook(broken(tmp_path))
    bot = GraphMem(mem.space.key, runtime=mirror_runtime,
                   caller=Caller("bot", sources=frozenset({"bot"})))
    out = bot.remember_facts([{"subject": "plan", "value": "Free"}], source="bot")
    assert str(out[0]) == "Stored: [FLAG] plan = Free", "stored, and flagged for a person"
    assert [f.value for f in mem.active("plan")] == ["Pro"]
    again = bot.remember_facts([{"subject": "owner", "value": "ann"}], source="bot")
    assert again[0].action.value == "ADD", "nothing cross-source: applied as usual"
