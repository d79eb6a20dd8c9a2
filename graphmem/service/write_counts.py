"""Whether spaces changed: their write counters, read together (for watchers that notify
subscribers, whichever process wrote)."""

from __future__ import annotations

from collections.abc import Iterable

from graphmem.graph import spaces
from graphmem.runtime import Runtime


def write_counts(runtime: Runtime, keys: Iterable[str]) -> dict[str, int]:
    return spaces.write_counts(runtime.graph, sorted(set(keys)))
