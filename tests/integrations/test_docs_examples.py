"""The examples of the frameworks page run as written (on a tenant of the test's own)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support import isolation

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "frameworks.md"
MARK = "<!-- executed by tests/integrations/test_docs_examples.py -->"
BLOCK = re.compile(re.escape(MARK) + r"\n```python\n(.*?)\n```", re.S)


def examples() -> list[str]:
    return BLOCK.findall(PAGE.read_text())


def test_the_page_marks_its_runnable_examples() -> None:
    assert len(examples()) == 2


@pytest.mark.parametrize("number", range(2))
def test_an_example_runs_as_written(number: int, runtime: object) -> None:
    code = examples()[number].replace('"acme', f'"{isolation.tenant()}')
    exec(compile(code, f"{PAGE.name} example {number + 1}", "exec"), {})  # noqa: S102
