"""Hostile strings are stored and returned intact, or rejected with a clear error; nothing
is ever interpolated into Cypher."""

from __future__ import annotations

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput

HOSTILE_VALUES = [
    "Robert'); MATCH (n) DETACH DELETE n; //",
    'quote " and \' and `backtick`',
    "back\\slash \\\\ and \\n not a newline",
    "}) RETURN 1 UNION MATCH (x) RETURN x //",
    "$param {.*} :Label [:REL] ->",
    "ünïcødé 🚀 نص عربي 中文 \u202e reversed",
    "line one\nline two\ttabbed",
]


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_hostile_values_round_trip_intact(mem: GraphMem, value: str) -> None:
    (result,) = mem.remember_facts([{"subject": "payload", "value": value}],
                                   source=value[:50], text=value)
    assert result.value == value
    (stored,) = mem.active("payload")
    assert stored.value == value and stored.raw == value
    assert mem.records.fact(stored.id).source == value[:50]


@pytest.mark.parametrize("subject", ["x}) DETACH DELETE n //", "db'; DROP", "MATCH (n) RETURN n"])
def test_hostile_subjects_are_normalised_not_executed(make_mem, subject: str) -> None:  # type: ignore[no-untyped-def]
    bystander = make_mem()
    bystander.remember_facts([{"subject": "db", "value": "Postgres"}])
    mem = make_mem()
    (result,) = mem.remember_facts([{"subject": subject, "value": "v"}])
    assert result.subject.replace("_", "").isalnum()
    assert [f.value for f in mem.active(subject)] == ["v"]
    assert [f.value for f in bystander.active()] == ["Postgres"]


def test_hundred_kilobyte_value_is_stored_intact(mem: GraphMem) -> None:
    big = "x" * 50_000 + "✓" * 50_000 + "'\"\\"
    mem.remember_facts([{"subject": "blob", "value": big}])
    assert mem.active("blob")[0].value == big


def test_hundred_kilobyte_subject_is_rejected_clearly(mem: GraphMem) -> None:
    with pytest.raises(InvalidInput, match="subject"):
        mem.remember_facts([{"subject": "s" * 100_000, "value": "v"}])
    assert mem.active() == []


@pytest.mark.parametrize("bad, message", [
    ({"subject": "db"}, "value"),
    ({"subject": "db", "value": 3}, "must be a string"),
    ({"subject": "db", "value": "x", "confidence": 2}, "between 0 and 1"),
    ({"subject": "db", "value": "x", "confidence": "high"}, "must be a number"),
    ({"subject": "db", "value": "x", "action": "DESTROY"}, "action"),
    ({"subject": "db", "value": "x", "kind": "rumour"}, "kind"),
    ({"subject": "db", "value": "x", "surprise": 1}, "unknown fact field"),
    ({"subject": "db", "value": "nul\x00byte"}, "NUL"),
    ({"subject": "!!!", "value": "x"}, "subject"),
    ({"subject": "db", "value": "x", "valid_from": "yesterday"}, "ISO 8601"),
])
def test_malformed_facts_are_rejected_and_nothing_is_stored(mem: GraphMem, bad: dict[str, object],
                                                          message: str) -> None:
    good = {"subject": "cache", "value": "Redis"}
    with pytest.raises(InvalidInput, match=message):
        mem.remember_facts([good, bad])
    assert mem.active() == []


def test_wrong_space_shapes_are_rejected(make_mem) -> None:  # type: ignore[no-untyped-def]
    for space in ("a/b/c/d/e", "tenant with spaces", "x" * 200, "t/'; DROP"):
        with pytest.raises(InvalidInput, match="space"):
            make_mem(space=space)


def test_spaces_are_isolated(make_mem) -> None:  # type: ignore[no-untyped-def]
    a, b = make_mem(), make_mem()
    a.remember_facts([{"subject": "db", "value": "MySQL"}])
    b.remember_facts([{"subject": "db", "value": "Postgres"}])
    assert [f.value for f in a.active()] == ["MySQL"]
    assert [f.value for f in b.active()] == ["Postgres"]
    with pytest.raises(Exception, match="no fact"):
        b.records.fact(a.active()[0].id)
