"""What an import did, as one line for a terminal or a log, and as data for the APIs."""

from __future__ import annotations

from collections import Counter


def merge(counts: Counter[str], more: dict[str, int]) -> None:
    counts.update({k: v for k, v in more.items() if v})
