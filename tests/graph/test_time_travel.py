"""Seed 001's COO → CEO → CTO chain read before, between and after each change, on both clocks:
`as_of` (what memory believed at T) and `valid_at` (what was true in the world at T)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.runtime import Runtime

from support import isolation

ROLES = ("COO", "CEO", "CTO")
# When each role began in the world (valid time), distinct from when memory learnt it.
BEGAN = (datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC),
         datetime(2025, 1, 1, tzinfo=UTC))
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Chain:
    mem: GraphMem
    recorded: tuple[datetime, ...]  # an instant before the first write, then after each


def role(value: str, began: datetime) -> dict[str, Any]:
    return {"head": "Alice", "head_type": "person", "relation": "role", "tail": value,
            "tail_type": "job title", "confidence": 0.95, "valid_from": began.isoformat()}


@pytest.fixture(scope="module")
def chain(runtime: Runtime) -> Iterator[Chain]:
    """Built once for the module: every test only reads it."""
    mem = GraphMem(space=isolation.tenant(), runtime=runtime)
    mem.remember_facts([{"head": "Acme", "head_type": "company", "relation": "employs",
                         "tail": "Alice", "tail_type": "person", "confidence": 0.95,
                         "valid_from": BEGAN[0].isoformat()}])
    recorded = [datetime.now(UTC)]
    for value, began in zip(ROLES, BEGAN, strict=True):
        mem.remember_facts([role(value, began)])
        recorded.append(datetime.now(UTC))
    yield Chain(mem, tuple(recorded))
    mem.close()


# (index into Chain.recorded, expected role): before the first write, then after each.
AS_OF = [(0, None), (1, "COO"), (2, "CEO"), (3, "CTO")]
# (instant in the world, expected role): before, between and after each change.
VALID_AT = [(BEGAN[0] - DAY, None), (BEGAN[0] + DAY, "COO"), (BEGAN[1] - DAY, "COO"),
            (BEGAN[1] + DAY, "CEO"), (BEGAN[2] - DAY, "CEO"), (BEGAN[2] + DAY, "CTO"),
            (datetime(2030, 1, 1, tzinfo=UTC), "CTO")]


def hop_roles(result: Any) -> list[str]:
    return sorted(result.entities[p.keys[-1]].name for p in result.paths
                  if result.entities[p.keys[-1]].type == "concept")


def test_current_reads_show_the_head_of_the_chain(chain: Chain) -> None:
    mem = chain.mem
    assert mem.entities.get("person", "alice").value("role") == "CTO"
    assert [f.value for f in mem.active("alice_role")] == ["CTO"]
    assert hop_roles(mem.recall_related(entities=[("person", "Alice")], hops=1)) == ["CTO"]


@pytest.mark.parametrize(("index", "expected"), AS_OF)
def test_as_of_reads_what_memory_believed(chain: Chain, index: int,
                                          expected: str | None) -> None:
    mem, at = chain.mem, chain.recorded[index]
    assert mem.entities.get("person", "Alice", as_of=at).value("role") == expected
    assert [f.value for f in mem.active("alice_role", as_of=at)] == (
        [expected] if expected else [])
    related = mem.recall_related(entities=[("person", "Alice")], hops=1, as_of=at)
    assert hop_roles(related) == ([expected] if expected else [])
    hood = mem.entities.neighbourhood("organisation", "Acme", hops=2, as_of=at)
    assert hop_roles(hood) == ([expected] if expected else [])


@pytest.mark.parametrize(("at", "expected"), VALID_AT)
def test_valid_at_reads_what_was_true_in_the_world(chain: Chain, at: datetime,
                                                   expected: str | None) -> None:
    mem = chain.mem
    assert mem.entities.get("person", "Alice", valid_at=at).value("role") == expected
    assert [f.value for f in mem.active("alice_role", valid_at=at)] == (
        [expected] if expected else [])
    related = mem.recall_related("what was Alice's role?", hops=1, valid_at=at)
    assert hop_roles(related) == ([expected] if expected else [])
    hood = mem.entities.neighbourhood("organisation", "Acme", hops=2, valid_at=at)
    assert hop_roles(hood) == ([expected] if expected else [])


def test_entity_history_walks_the_chain_oldest_first(chain: Chain) -> None:
    history = chain.mem.entities.history("person", "Alice", "role")
    assert [(e.value, e.status) for e in history.entries] == [
        ("COO", "SUPERSEDED"), ("CEO", "SUPERSEDED"), ("CTO", "ACTIVE")]
    facts = [e.fact for e in history.entries]
    assert facts[1].supersedes == (facts[0].id,) and facts[2].supersedes == (facts[1].id,)
    assert [f.valid_to for f in facts] == [BEGAN[1], BEGAN[2], None]
    same = chain.mem.history("alice_role")
    assert [e.value for e in same.entries] == list(ROLES)
    assert str(history).startswith("History for 'Alice.role' (oldest → newest):")


def test_history_is_a_sequence_of_its_entries(chain: Chain) -> None:
    for history in (chain.mem.history("alice_role"),
                    chain.mem.entities.history("person", "Alice", "role")):
        assert [e.value for e in history] == list(ROLES)
        assert len(history) == 3
        assert history[0].value == "COO" and history[-1].value == "CTO"
        assert history[-1].status == "ACTIVE"
        assert [e.value for e in history[1:]] == ["CEO", "CTO"]
        assert history[0] in history and list(reversed(history))[0] is history[-1]
        coo, ceo, cto = history
        assert cto.fact.supersedes == (ceo.fact.id,)
        with pytest.raises(IndexError):
            history[3]
    assert str(chain.mem.history("alice_role")) == (
        "History for 'alice_role' (oldest → newest):\n"
        "  1. COO [SUPERSEDED]\n"
        "  2. CEO [SUPERSEDED]\n"
        "  3. CTO [ACTIVE]")


def test_retired_edges_keep_their_validity_window(chain: Chain) -> None:
    view = chain.mem.entities.get("person", "Alice", valid_at=BEGAN[1] + DAY)
    [link] = [link for link in view.links if link.outgoing]
    assert (link.other.name, link.fact.valid_from, link.fact.valid_to) == (
        "CEO", BEGAN[1], BEGAN[2])
    related = chain.mem.recall_related(entities=[("person", "Alice")], hops=1,
                                       valid_at=BEGAN[1] + DAY)
    [edge] = [e for e in related.edges if e.relation == "role"]
    assert (edge.status, edge.valid_from, edge.valid_to) == ("SUPERSEDED", BEGAN[1], BEGAN[2])


def test_as_of_and_valid_at_need_a_timezone(chain: Chain) -> None:
    from graphmem.errors import InvalidInput

    naive = datetime(2024, 1, 1)
    with pytest.raises(InvalidInput, match="timezone"):
        chain.mem.entities.get("person", "Alice", as_of=naive)
    with pytest.raises(InvalidInput, match="timezone"):
        chain.mem.recall_related(entities=[("person", "Alice")], valid_at=naive)


def test_reads_return_the_stored_instants_as_aware_utc(chain: Chain) -> None:
    """Times travel as text from Cypher; the Facts carry the same instants, in UTC."""
    subject = chain.mem.active()[-1].subject
    reads = [*chain.mem.active(subject), *chain.mem.active(subject, as_of=chain.recorded[2]),
             *chain.mem.active(subject, valid_at=BEGAN[1] + DAY),
             *(e.fact for e in chain.mem.history(subject).entries)]
    stamps = [t for f in reads for t in (f.recorded_at, f.retired_at, f.valid_from, f.valid_to)
              if t is not None]
    assert stamps and all(t.utcoffset() == timedelta(0) for t in stamps)
    assert BEGAN[1] in {f.valid_from for f in reads}
    first = chain.mem.history(subject).entries[0].fact
    assert chain.recorded[0] < first.recorded_at <= chain.recorded[1]  # type: ignore[operator]
    assert chain.mem.records.fact(first.id) == first
