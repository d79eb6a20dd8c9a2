"""The reconciliation rules page covers the rules the code runs, in the code's order, and every
test named after a reconciliation rule; it cites no test that does not exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "concepts" / "reconciliation-rules.md"
RECONCILE = ROOT / "graphmem" / "remember" / "reconcile.py"
# The suites whose tests are named after the reconciliation rules they prove.
RULE_SUITES = (
    "tests/remember/test_reconcile_rules.py",
    "tests/remember/test_settlement.py",
    "tests/remember/test_reconcile_properties.py",
    "tests/remember/test_reconcile.py",
    "tests/remember/test_backdated.py",
    "tests/remember/test_approve.py",
)
_RULE_HEADING = re.compile(r"^## Rule (\d+): (.+)$", re.M)
_CODE_RULE = re.compile(r"^ ?(\d+)\. (.+)$")
_CITED = re.compile(r"`(test_[a-z0-9_]+)`")


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def rule_tests() -> set[str]:
    return set().union(*(defined_tests(ROOT / suite) for suite in RULE_SUITES))


def code_rules() -> list[int]:
    """The rule numbers of reconcile.py's module docstring, in the order it lists them (one
    line may hold several: `8. confirm gate, 9. confidence ...`)."""
    doc = ast.get_docstring(ast.parse(RECONCILE.read_text())) or ""
    order = doc.split("Rule order", 1)[1]
    return [int(n) for n in re.findall(r"(?:^|,\s*)\s*(\d+)\. ", order, re.M)]


def sections(text: str) -> dict[int, str]:
    found = list(_RULE_HEADING.finditer(text))
    ends = [m.start() for m in found[1:]] + [text.find("\n## ", found[-1].end())]
    return {int(m.group(1)): text[m.end():end] for m, end in zip(found, ends, strict=True)}


def test_the_page_lists_the_rules_in_the_order_the_code_runs_them() -> None:
    numbers = [int(m.group(1)) for m in _RULE_HEADING.finditer(PAGE.read_text())]
    assert numbers == code_rules() == list(range(len(numbers))), (numbers, code_rules())


def test_every_rule_section_has_an_example_and_the_tests_that_prove_it() -> None:
    known = rule_tests()
    for number, body in sections(PAGE.read_text()).items():
        assert "```" in body, f"rule {number} has no example"
        cited = set(_CITED.findall(body))
        assert cited & known, f"rule {number} cites no test of the rule suites"


def test_every_rule_test_is_cited_and_every_cited_test_exists() -> None:
    cited = set(_CITED.findall(PAGE.read_text()))
    known = rule_tests()
    assert sorted(known - cited) == [], "tests of a rule the rules page does not cite"
    everywhere = set().union(*(defined_tests(p) for p in (ROOT / "tests").rglob("test_*.py")))
    assert sorted(cited - everywhere) == [], "the rules page cites tests that do not exist"
