"""Shared by every benchmark: percentiles and one section of bench/RESULTS.md each."""

from __future__ import annotations

import platform
import re
import statistics
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")


def percentile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def median(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def write_section(name: str, body: str) -> None:
    """Replace (or append) the `## name` section, leaving other benchmarks' sections alone."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    stamp = f"_Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.machine()}, " \
            f"Python {platform.python_version()}._\n\n"
    section = f"## {name}\n\n{stamp}{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(name)}\n.*?(?=^## |\Z)", re.S | re.M)
    text = pattern.sub(lambda _: section + "\n", text) if pattern.search(text) else (
        text.rstrip() + "\n\n" + section)
    RESULTS.write_text(text)
