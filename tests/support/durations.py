"""The order the xdist groups run in: longest first, from the times a run recorded.

On two workers a long module that starts last runs alone at the end (a 90 s module was the
last minute and a half of a run). Each group's time, summed over its tests, lives in
`tests/durations.json`; a group not recorded there (a new module) counts as the longest, so
that it never ends a run. `make durations` rewrites the file from the JUnit reports of the
last `make test` and `make test-slow`:

    python tests/support/durations.py test-results/suite.xml test-results/slow.xml
"""

from __future__ import annotations

import json
import math
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Protocol

RECORDED = Path(__file__).resolve().parents[1] / "durations.json"


class _Item(Protocol):
    nodeid: str


def recorded(path: Path = RECORDED) -> dict[str, float]:
    """Seconds per group, as last recorded; empty when the file is missing."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text()).items()}
    except FileNotFoundError:
        return {}


def longest_first(items: list[_Item], groups: dict[str, str],
                  seconds: dict[str, float] | None = None) -> None:
    """Reorder `items` in place: groups by recorded time, longest first; the order of the
    tests inside a group, and of groups recorded with equal times, is kept."""
    times = recorded() if seconds is None else seconds
    items.sort(key=lambda item: -times.get(groups[item.nodeid], math.inf))


def from_junit(*reports: Path) -> Counter[str]:
    """Seconds per group from JUnit reports: a test case's name ends with `@group` under
    pytest-xdist's loadgroup, and its time is setup, call and teardown together."""
    totals: Counter[str] = Counter()
    for report in reports:
        for case in ET.parse(report).iter("testcase"):
            name = case.attrib.get("name", "")
            if "@" in name:
                totals[name.rsplit("@", 1)[1]] += float(case.attrib.get("time", 0))
    return totals


def main(argv: list[str]) -> int:
    """Fold the reports' times into the recorded ones (a group a report lacks keeps its
    time, so a `make test` report does not drop the slow tests' groups)."""
    reports = [Path(a) for a in argv if Path(a).exists()]
    if not reports:
        print("no JUnit report given that exists: run `make test` (and `make test-slow`)"
              " first", file=sys.stderr)
        return 2
    merged = {**recorded(), **{k: round(v, 1) for k, v in from_junit(*reports).items()}}
    RECORDED.write_text(json.dumps(dict(sorted(merged.items())), indent=1) + "\n")
    print(f"{RECORDED.name}: {len(merged)} groups, {sum(merged.values()):.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
