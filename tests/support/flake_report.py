"""Under `make test-repeat` (pytest-repeat's `--count N`), the run ends with each test that
failed at least once and how many of its N runs failed, so a flake that failed one time in
ten is named as plainly as one that always fails."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from _pytest.terminal import TerminalReporter


def repeated_test(nodeid: str, count: int) -> str:
    """`mod.py::test[3-10]` → `mod.py::test`; `mod.py::test[a-3-10]` → `mod.py::test[a]`
    (and xdist's `@group` suffix dropped)."""
    nodeid = re.sub(r"@[^\[\]]*$", "", nodeid)
    return re.sub(rf"(\[|-)\d+-{count}\]$", lambda m: "" if m[1] == "[" else "]", nodeid)


def pytest_terminal_summary(terminalreporter: TerminalReporter, config: pytest.Config) -> None:
    count = int(config.getoption("count", 1) or 1)
    if count < 2:
        return
    stats = terminalreporter.stats
    runs = Counter(repeated_test(r.nodeid, count) for kind in ("passed", "failed")
                   for r in stats.get(kind, []) if r.when == "call")
    failures = Counter(repeated_test(r.nodeid, count) for kind in ("failed", "error")
                       for r in stats.get(kind, []))
    write = terminalreporter.write_line
    terminalreporter.section(f"flakes: each test run {count} times")
    write(f"{len(runs)} test(s) run {count} times each;"
          f" {len(failures)} failed at least once")
    for nodeid, failed in failures.most_common():
        write(f"  {failed}/{count} failed  {nodeid}")
