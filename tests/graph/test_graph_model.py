"""The graph model declared once (graphmem.graph.nodes), checked without a database: the
migrations build exactly the declared constraints and indexes, the statements use only
declared properties, and the schema comparison fsck runs reports what it should."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.graph import nodes
from graphmem.graph.constraints import Declared, Present, declared, problems
from graphmem.graph.facts import fact_to_row
from graphmem.graph.identifiers import RESERVED_TYPES
from graphmem.graph.migrations import migrations
from graphmem.graph.statements import registry, statements
from graphmem.model import Action, Fact, Status

DECLARED = declared(nodes.DECLARED)
IDENT = r"`?([A-Za-z_][A-Za-z0-9_]*)`?"
TARGET = rf"FOR \(\w+:{IDENT}\)"


# ---- the migrations replayed statement by statement --------------------------------------
def _properties(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\w+\.`?(\w+)`?", text))


def _option(text: str, key: str) -> str | None:
    found = re.search(rf"`{re.escape(key)}`\s*:\s*('([^']*)'|\w+)", text)
    if found is None:
        return None
    return found.group(2) if found.group(2) is not None else found.group(1)


def _fulltext(text: str) -> tuple[tuple[str, Any], ...]:
    analyzer = _option(text, "fulltext.analyzer") or "standard-no-stop-words"
    consistent = (_option(text, "fulltext.eventually_consistent") or "false") == "true"
    return (("fulltext.analyzer", analyzer), ("fulltext.eventually_consistent", consistent))


def _vector(text: str) -> tuple[tuple[str, Any], ...]:
    return (("vector.dimensions", int(_option(text, "vector.dimensions") or 0)),
            ("vector.similarity_function", _option(text, "vector.similarity_function")))


PATTERNS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(rf"CREATE CONSTRAINT {IDENT} IF NOT EXISTS {TARGET} REQUIRE (.+) IS UNIQUE$"),
     lambda m: Declared("unique", m[2], _properties(m[3]))),
    (re.compile(rf"CREATE INDEX {IDENT} IF NOT EXISTS {TARGET} ON \((.+)\)$"),
     lambda m: Declared("range", m[2], _properties(m[3]))),
    (re.compile(rf"CREATE FULLTEXT INDEX {IDENT} IF NOT EXISTS {TARGET} ON EACH \[(.+?)\](.*)$"),
     lambda m: Declared("fulltext", m[2], _properties(m[3]), _fulltext(m[4]))),
    (re.compile(rf"CREATE VECTOR INDEX {IDENT} IF NOT EXISTS {TARGET} ON (\w+\.\w+)(.*)$"),
     lambda m: Declared("vector", m[2], _properties(m[3]), _vector(m[4]))),
]
DROP = re.compile(rf"DROP (?:INDEX|CONSTRAINT) {IDENT} IF EXISTS$")
AWAIT = re.compile(r"CALL db\.awaitIndex\(")
DATA = re.compile(r"MATCH ")  # a data move: it builds no schema


def migrated() -> dict[str, Declared]:
    """Name → item after every migration, in order (DROP removes by name)."""
    schema: dict[str, Declared] = {}
    for migration in migrations():
        for statement in statements(migration.query_name):
            text = " ".join(statement.split())
            if (dropped := DROP.match(text)) is not None:
                schema.pop(dropped[1], None)
                continue
            if AWAIT.match(text) or DATA.match(text):
                continue
            made = [(m, build) for pattern, build in PATTERNS if (m := pattern.match(text))]
            assert made, f"{migration.query_name}: a schema statement this test cannot read:" \
                         f" {text[:120]}"
            match, build = made[0]
            schema[match[1]] = build(match)
    return schema


def test_the_migrations_build_exactly_what_the_model_declares() -> None:
    built = set(migrated().values())
    assert built - set(DECLARED) == set(), "migrated but not declared in graphmem.graph.nodes"
    assert set(DECLARED) - built == set(), "declared in graphmem.graph.nodes, no migration"


def test_the_replay_reads_the_migrations_it_claims_to() -> None:
    schema = migrated()
    assert "fact_text" not in schema, "migration 005 drops it"
    assert schema["fact_search"].options == (("fulltext.analyzer", "english"),
                                             ("fulltext.eventually_consistent", True))
    assert schema["entity_key"] == Declared("unique", "Entity", ("space", "key"))
    assert "fact_embedding" not in schema, "migration 010 moves it to FactVector"
    assert schema["fact_vector"].options == (("vector.dimensions", 384),
                                             ("vector.similarity_function", "cosine"))


# ---- declarations and statements agree -----------------------------------------------------
LABELS = {cls.__label__: cls for cls in nodes.DECLARED}


def _declared_properties(cls: type[nodes.GraphNode]) -> set[str]:
    return {p.get_db_property_name(n)
            for n, p in cls.defined_properties(aliases=False, rels=False).items()}


def _bindings(text: str) -> dict[str, str]:
    """Variable → label for the declared labels a statement binds (ambiguous ones left out)."""
    seen: dict[str, set[str]] = {}
    for var, label in re.findall(r"\((\w+):(\w+)", text):
        if label in LABELS:
            seen.setdefault(var, set()).add(label)
    return {var: labels.pop() for var, labels in seen.items() if len(labels) == 1}


def _top_level(block: str) -> str:
    """A map projection's own entries: what nested lists (a pattern comprehension over other
    variables) hold is left out."""
    while True:
        inner = re.sub(r"\[[^\[\]]*\]", "", block)
        if inner == block:
            return block
        block = inner


@pytest.mark.parametrize("name", sorted(n for n in registry() if not n.startswith("migrations/0")))
def test_statements_use_only_declared_properties(name: str) -> None:
    text = re.sub(r"//[^\n]*", "", " ".join(statements(name)))
    for var, label in _bindings(text).items():
        used = set(re.findall(rf"(?<![\w.]){var}\.(\w+)", text))
        used |= {p for block in re.findall(rf"(?<![\w.]){var}\s*\{{([^}}]*)\}}", text)
                 for p in re.findall(r"(?<![\w)])\.(\w+)", _top_level(block))}
        undeclared = used - _declared_properties(LABELS[label])
        assert not undeclared, f"{name}: {label} properties not in graph.nodes: {undeclared}"


def test_every_property_a_fact_row_stores_is_declared() -> None:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    fact = Fact(id="f1", space="s", subject="db", value="Postgres", status=Status.ACTIVE,
                confidence=0.9, source="src", source_ref="ref", raw="raw",
                metadata={"kind": "state"}, category="tech", head="a", relation="uses",
                tail="b", proposed_action=Action.SUPERSEDE, valid_from=now, valid_to=now,
                recorded_at=now, retired_at=now, revisions=({"value": "MySQL"},))
    row = fact_to_row(fact, action="ADD", archived=False, head_type="person",
                      tail_type="service", search_text="db: Postgres", held_from=now,
                      message_key="m")
    assert set(row) - _declared_properties(nodes.FactNode) == set()


def test_the_fixed_relationship_types_are_reserved_for_the_model() -> None:
    fixed = {rel.definition["relation_type"] for cls in nodes.DECLARED
             for rel in cls.defined_properties(aliases=False, properties=False).values()}
    assert fixed == {"SUPERSEDES", "RETRACTS", "RESTORES", "ABOUT", "INVOLVES"}
    assert fixed <= RESERVED_TYPES, "a relation could be projected onto a model type"


def test_projection_edges_copy_the_declared_fact_properties() -> None:
    edge = set(nodes.ProjectionEdge.defined_properties(aliases=False, rels=False))
    for name in ("remember/apply", "projection/project_facts", "projection/sync_facts"):
        copied = re.findall(r"r \+= f \{([^}]*)\}", " ".join(statements(name)))
        assert copied, name
        assert {p.strip().lstrip(".") for p in copied[0].split(",")} == edge - {"fact_id", "space"}


def test_the_status_labels_are_the_declared_optional_labels() -> None:
    assert nodes.FactNode.__optional_labels__ == list(nodes.STATUS_LABELS)
    for name in ("remember/apply", "projection/sync_facts"):
        text = " ".join(statements(name))
        removed = re.search(r"REMOVE f((?::\w+)+)", text)
        assert removed is not None, name
        assert tuple(removed[1].strip(":").split(":")) == nodes.STATUS_LABELS
        set_to = {a or b for a, b in re.findall(r"THEN '(\w+)'|ELSE '(\w+)'", text)}
        assert set_to == set(nodes.STATUS_LABELS), name


# ---- the comparison fsck runs --------------------------------------------------------------
KEY = Declared("unique", "Entity", ("space", "key"))
SLOT = Declared("range", "Fact", ("space", "subject", "scope", "status"))
SEARCH = Declared("fulltext", "Fact", ("search_text",),
                  (("fulltext.analyzer", "english"), ("fulltext.eventually_consistent", True)))


def test_a_database_holding_every_item_has_no_problem() -> None:
    found = [Present("entity_key", "unique", "Entity", ("space", "key"), False),
             Present("fact_slot", "range", "Fact", ("space", "subject", "scope", "status"),
                     False),
             Present("fact_search", "fulltext", "Fact", ("search_text",), False,
                     {"fulltext.analyzer": "english", "fulltext.eventually_consistent": True})]
    assert problems([KEY, SLOT, SEARCH], found) == []


def test_a_missing_item_is_named() -> None:
    assert problems([KEY], []) == ["missing uniqueness constraint on :Entity(space, key)"]


def test_a_composite_index_in_another_order_does_not_count() -> None:
    found = [Present("slot", "range", "Fact", ("space", "scope", "subject", "status"), False)]
    assert problems([SLOT], found) == [f"missing {SLOT}"]


def test_a_node_key_holds_uniqueness() -> None:
    assert problems([KEY], [Present("k", "unique", "Entity", ("space", "key"), False)]) == []


def test_a_failed_index_counts_as_absent() -> None:
    found = [Present("fact_slot", "range", "Fact", SLOT.properties, False, state="FAILED")]
    assert problems([SLOT], found) == [f"{SLOT}: index fact_slot is FAILED"]


def test_an_index_with_other_options_is_reported() -> None:
    found = [Present("fact_search", "fulltext", "Fact", ("search_text",), False,
                     {"fulltext.analyzer": "english", "fulltext.eventually_consistent": False})]
    assert problems([SEARCH], found) == [
        f"{SEARCH}: index fact_search has {{fulltext.analyzer: english,"
        " fulltext.eventually_consistent: false}"]


def test_similarity_names_compare_without_case() -> None:
    vector = Declared("vector", "Fact", ("embedding",), (("vector.dimensions", 384),
                                                        ("vector.similarity_function", "cosine")))
    found = [Present("fact_embedding", "vector", "Fact", ("embedding",), False,
                     {"vector.dimensions": 384, "vector.similarity_function": "COSINE"})]
    assert problems([vector], found) == []
