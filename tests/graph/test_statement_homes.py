"""Every Cypher statement is run by a function of `graphmem.graph`, and every SQL statement
by the relational store's own modules: code elsewhere calls those functions, so a statement
has one home and a reader finds its callers by the function's name.

Read from the source, without a database: a string constant that is a statement's name, or
that opens with an SQL verb, outside its home fails with the file and line."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from graphmem.graph.statements import registry

ROOT = Path(__file__).resolve().parents[2]
CODE = [ROOT / "graphmem", ROOT / "resolvers", ROOT / "schema"]
CYPHER_HOME = ROOT / "graphmem" / "graph"
# The relational store's modules: the mirror, its migrations, and the key store of auth
# (principals, API keys, tenants' sources), which keeps its tables in the same database.
SQL_HOMES = (ROOT / "graphmem" / "mirror", ROOT / "graphmem" / "auth")
SQL = re.compile(r"\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s"
                 r"|(CREATE|ALTER|DROP)\s+(TABLE|INDEX|UNIQUE)\s)")


def _constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def _sources(outside: tuple[Path, ...]) -> list[Path]:
    return sorted(p for root in CODE for p in root.rglob("*.py")
                  if not any(p.is_relative_to(home) for home in outside))


def test_statement_names_appear_only_in_the_graph_package() -> None:
    names = set(registry())
    found = [f"{p.relative_to(ROOT)}:{line}: {value}"
             for p in _sources((CYPHER_HOME,)) for line, value in _constants(p)
             if value in names]
    assert not found, "run these through a function of graphmem/graph:\n" + "\n".join(found)


def test_sql_appears_only_in_the_relational_stores_modules() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}: {value[:60]}"
             for p in _sources(SQL_HOMES) for line, value in _constants(p)
             if SQL.match(value)]
    assert not found, "run these through a function of graphmem/mirror:\n" + "\n".join(found)


def test_the_checks_see_a_statement_out_of_its_home(tmp_path: Path) -> None:
    """The walk reads the constants a call passes, so a moved call cannot hide."""
    stray = tmp_path / "stray.py"
    stray.write_text('graph.read("recall/load", ids=[])\n'
                     'store.query("SELECT id FROM events")\n', encoding="utf-8")
    values = [value for _, value in _constants(stray)]
    assert "recall/load" in set(registry()) and "recall/load" in values
    assert any(SQL.match(v) for v in values)
