"""How often a denial reaches the audit chain: the first of a key's denials of one operation
is a row, and the same key's further denials of it within DENIAL_ROW_SECONDS are counted and
folded into its next row (`repeated`), so a key that floods the server with refused calls
adds at most one row per operation a minute to the chain every verification re-hashes. The
metrics count every denial."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

DENIAL_ROW_SECONDS = 60.0
MAX_TRACKED = 100_000  # (key, operation) pairs remembered; the oldest forgotten first


class DenialSampler:
    def __init__(self, seconds: float = DENIAL_ROW_SECONDS, size: int = MAX_TRACKED) -> None:
        self.seconds = seconds
        self.size = size
        self._lock = threading.Lock()
        self._last: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()

    def row(self, key: str, operation: str, now: float | None = None) -> int | None:
        """None: this denial is only counted; else it is a row, which also stands for the
        returned number of denials counted since the last row."""
        now = time.monotonic() if now is None else now
        with self._lock:
            found = self._last.get((key, operation))
            if found is not None and now - found[0] < self.seconds:
                self._last[(key, operation)] = (found[0], found[1] + 1)
                return None
            self._last[(key, operation)] = (now, 0)
            self._last.move_to_end((key, operation))
            while len(self._last) > self.size:
                self._last.popitem(last=False)
            return 0 if found is None else found[1]
