"""The Cypher registry and the identifier allow-list, checked without a database."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import GraphMemError, InvalidInput
from graphmem.graph import statements as queries
from graphmem.graph.identifiers import RESERVED_TYPES, SAFE_IDENTIFIER, checked, relation_type
from graphmem.graph.migrations import migrations
from graphmem.graph.statements import UnknownQuery, parameters, query, registry, statements

CYPHER_DIR = Path(__file__).resolve().parents[2] / "cypher"
ALL = sorted(registry())


# ---- the registry ----------------------------------------------------------------------------
def test_registry_holds_every_cypher_file() -> None:
    on_disk = sorted(
        str(p.relative_to(CYPHER_DIR).with_suffix("")) for p in CYPHER_DIR.rglob("*.cypher")
    )
    assert ALL == on_disk
    assert {"migrations/001_initial", "migrations/version_get",
            "migrations/version_set"} <= set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_every_statement_loads(name: str) -> None:
    text = query(name)
    assert text == (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8")
    assert statements(name), f"{name} holds only comments"
    for param in parameters(name):
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", param)


@pytest.mark.parametrize("name", [n for n in ALL if not n.startswith("migrations/0")])
def test_single_statements_have_no_stray_semicolons(name: str) -> None:
    assert len(statements(name)) == 1, f"{name} must hold exactly one statement"


def test_parameters_match_what_callers_pass() -> None:
    assert parameters("migrations/version_get") == set()
    assert parameters("migrations/version_set") == {"version", "name"}


def test_parameters_ignore_comments(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {"t/q": "// takes $old no more\nMATCH (n:Fact {id: $id}) // and $gone\nRETURN n"}
    monkeypatch.setattr(queries, "registry", lambda: fake)
    assert parameters("t/q") == {"id"}


@pytest.mark.parametrize("name", ["nope", "schema/version", "schema/version_get.cypher", ""])
def test_unknown_name_fails_fast(name: str) -> None:
    with pytest.raises(UnknownQuery, match=re.escape(repr(name))):
        query(name)
    with pytest.raises(UnknownQuery):
        parameters(name)
    assert issubclass(UnknownQuery, GraphMemError)


def test_migrations_are_numbered_and_idempotent_statements() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    for migration in found:
        for statement in statements(migration.query_name):
            if statement.startswith("DROP "):  # a changed index is dropped and made again
                assert "IF EXISTS" in statement, statement
            elif statement.startswith("CALL "):
                assert statement.startswith("CALL db.awaitIndex"), statement
            else:
                assert statement.startswith("CREATE ")
                assert "IF NOT EXISTS" in statement, statement


def test_no_python_format_fields_in_query_text() -> None:
    for name in ALL:
        code = re.sub(r"`[^`]*`", "", "\n".join(statements(name)))  # no comments, no `names`
        assert "%s" not in code and "{0}" not in code, name
        assert not re.search(r"\{[a-z_]+\}", code), name


# ---- relationship types --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("relation", "expected"),
    [
        ("works at", "WORKS_AT"),
        ("WORKS_AT", "WORKS_AT"),
        ("worksAt", "WORKS_AT"),
        ("reports-to", "REPORTS_TO"),
        ("  owns  ", "OWNS"),
        ("überwacht", "UBERWACHT"),
        ("Café owner", "CAFE_OWNER"),
        ("2nd owner", "R_2ND_OWNER"),
        ("supersedes", "REL_SUPERSEDES"),
        ("ABOUT", "REL_ABOUT"),
    ],
)
def test_relation_type_normalises(relation: str, expected: str) -> None:
    assert relation_type(relation) == expected


@pytest.mark.parametrize(
    "hostile",
    [
        "KNOWS]->(x) DETACH DELETE x//",
        "KNOWS`]->(x) DETACH DELETE x//",
        "`KNOWS`",
        "a`b",
        "`) MATCH (n) DETACH DELETE n //",
        "KNOWS {since: 1}]->()",
        "KNOWS\nMATCH (n) DELETE n",
        "KNOWS\x00DROP",
        "KNOWS' OR 1=1 --",
        "KNOWS|LIKES",
        "KNOWS:LIKES",
        "$param",
        "ＫＮＯＷＳ",  # fullwidth letters fold to ASCII
        "K" * 500,
    ],
)
def test_relation_type_neutralises_injection(hostile: str) -> None:
    name = relation_type(hostile)
    assert SAFE_IDENTIFIER.match(name)
    assert set(name) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    assert len(name) <= 64
    assert checked(name) == name


@pytest.mark.parametrize("empty", ["", "   ", "``", "!!!", "_", "→", "日本語", "😀", "\x00", "-_-"])
def test_relation_type_without_letters_is_invalid_input(empty: str) -> None:
    with pytest.raises(InvalidInput) as info:
        relation_type(empty)
    assert "\n" not in str(info.value)


@given(st.text(max_size=200))
def test_relation_type_is_always_safe_or_refused(text: str) -> None:
    try:
        name = relation_type(text)
    except InvalidInput:
        return
    assert SAFE_IDENTIFIER.match(name)
    assert name not in RESERVED_TYPES


@pytest.mark.parametrize("unsafe", ["", "knows", "KNOWS`", "A-B", "A B", "KNOWS]->(x)", "1ST"])
def test_checked_refuses_unsafe_identifiers(unsafe: str) -> None:
    with pytest.raises(InvalidInput):
        checked(unsafe)


def test_relation_type_is_stable_on_its_own_output() -> None:
    from graphmem.graph.identifiers import relation_type

    for raw in ("R_2ND_OWNER", "b2b", "worksAt", "depends on", "2nd owner", "HTTPServer"):
        once = relation_type(raw)
        assert relation_type(once) == once
