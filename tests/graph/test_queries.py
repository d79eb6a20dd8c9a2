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
from graphmem.graph.statements import (
    FRAGMENTS,
    BadInclude,
    UnknownQuery,
    expand,
    fragment,
    parameters,
    query,
    registry,
    statements,
)

CYPHER_DIR = Path(__file__).resolve().parents[2] / "cypher"
ALL = sorted(registry())


# ---- the registry ----------------------------------------------------------------------------
ON_DISK = sorted(
    str(p.relative_to(CYPHER_DIR).with_suffix("")) for p in CYPHER_DIR.rglob("*.cypher")
)
FRAGMENT_FILES = [n for n in ON_DISK if n.startswith(FRAGMENTS)]


def _code(text: str) -> str:
    """Query text without comments, whitespace collapsed: what the planner reads."""
    return " ".join(re.sub(r"//[^\n]*", "", text).split())


def test_registry_holds_every_cypher_file() -> None:
    assert ALL == [n for n in ON_DISK if not n.startswith(FRAGMENTS)]
    assert {"migrations/001_initial", "migrations/version_get",
            "migrations/version_set"} <= set(ALL)
    assert "fragments/fact_columns" in FRAGMENT_FILES


@pytest.mark.parametrize("name", ALL)
def test_every_statement_loads(name: str) -> None:
    """A statement is its file, with each include marker replaced by its fragment."""
    text = query(name)
    source = (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8")
    if "@include(" not in source:
        assert text == source
    else:
        spliced = source
        for fragment_name in FRAGMENT_FILES:
            body = (CYPHER_DIR / f"{fragment_name}.cypher").read_text(encoding="utf-8")
            spliced = spliced.replace(f"@include({fragment_name})", _code(body))
        assert "@include" not in text and _code(text) == _code(spliced)
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


# ---- fragments -------------------------------------------------------------------------------
COLUMNS = {"fragments/cols": ".id, .value,\nvalid_from: toString(f.valid_from)"}


def test_a_fragment_is_spliced_at_the_markers_column() -> None:
    host = "MATCH (f)\nRETURN f {@include(fragments/cols), n: 1} AS fact"
    assert expand("t/q", host, COLUMNS) == (
        "MATCH (f)\nRETURN f {.id, .value,\n"
        "          valid_from: toString(f.valid_from), n: 1} AS fact")


def test_a_fragment_drops_its_comment_lines() -> None:
    text = "// the columns\n  // of a fact\n.id, .value,\n.scope\n\n"
    assert fragment("fragments/x", text) == ".id, .value,\n.scope"


@pytest.mark.parametrize(("text", "match"), [
    ("// only a comment\n", "holds only comments"),
    (".id, .value // the value\n", "lines of their own"),
    (".id, @include(fragments/cols)", "includes another"),
])
def test_a_fragment_that_cannot_be_spliced_is_refused(text: str, match: str) -> None:
    with pytest.raises(BadInclude, match=match):
        fragment("fragments/x", text)


@pytest.mark.parametrize(("host", "match"), [
    ("RETURN f {@include(fragments/nope)}", r"names no fragment .*fragments/cols"),
    ("RETURN f {@include(facts/hot)}", "names no fragment"),
    ("RETURN f {@include fragments/cols}", "malformed include marker"),
    ("RETURN f {@include( fragments/cols )}", "malformed include marker"),
    ("// columns: @include(fragments/cols)\nRETURN f", "inside a comment"),
])
def test_a_bad_include_marker_fails_at_load(host: str, match: str) -> None:
    with pytest.raises(BadInclude, match=match) as info:
        expand("t/q", host, COLUMNS)
    assert "t/q" in str(info.value) and issubclass(BadInclude, GraphMemError)


def test_fragments_are_not_statements() -> None:
    with pytest.raises(UnknownQuery):
        query("fragments/fact_columns")


@pytest.mark.parametrize("name", FRAGMENT_FILES)
def test_every_fragment_is_included_and_its_parameters_are_its_includers(name: str) -> None:
    """A fragment is text, never a value: the parameters it names are taken by every
    statement that includes it (the checks of callers' parameters read statements whole)."""
    body = fragment(name, (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8"))
    users = [n for n in ALL
             if f"@include({name})" in (CYPHER_DIR / f"{n}.cypher").read_text(encoding="utf-8")]
    assert users, f"{name} is included by no statement"
    named = set(re.findall(r"\$(\w+)", body))
    for user in users:
        assert named <= parameters(user), user


def test_migrations_are_numbered_and_idempotent_statements() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    for migration in found:
        for statement in statements(migration.query_name):
            if statement.startswith("DROP "):  # a changed index is dropped and made again
                assert "IF EXISTS" in statement, statement
            elif statement.startswith("CALL "):
                assert statement.startswith("CALL db.awaitIndex"), statement
            elif statement.startswith("MATCH "):  # a data move skips what it moved already
                assert " IS NULL" in statement or "REMOVE " in statement, statement
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
