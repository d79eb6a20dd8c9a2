"""Drives the seed peer Vayl (vayl-mcp) in its own virtual environment, one fact per call.

Run by `python -m bench.peers` with the peer venv's interpreter:
    vayl_driver.py '{"sizes": [1000, 5000], "window": 200, "lookups": 100, "dir": "/tmp/x"}'
Prints one JSON object per size. With "stream": true every fact is written one call each from
an empty space, and a size's figures are those of the writes since the previous size. A write
is what Vayl's `remember` tool does after extraction: under the space lock, load the space's
hot set, reconcile the fact (`_apply`), save (which embeds the new rows: stubbed with a hash,
as on graphmem's side). A current-value lookup loads the hot set and picks the subject's
active facts, as Vayl's own reads do; history reads the subject's rows.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import workload  # noqa: E402

DIMENSIONS = 384


def _vector(text: str) -> list[float]:
    seed = hashlib.blake2b(text.encode(), digest_size=32).digest()
    raw = (seed * (DIMENSIONS * 4 // len(seed) + 1))[:DIMENSIONS * 4]
    values = [v / 2**31 - 1.0 for v in struct.unpack(f"<{DIMENSIONS}I", raw)]
    norm = sum(v * v for v in values) ** 0.5 or 1.0
    return [v / norm for v in values]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def main() -> None:
    args: dict[str, Any] = json.loads(sys.argv[1])
    os.environ.setdefault("VAYL_TELEMETRY", "0")
    from vayl.storage import store as vayl_store

    vayl_store._embed = lambda texts: [_vector(t) for t in texts]  # the model is stubbed
    db = Path(args["dir"]) / "vayl.db"
    store = vayl_store.Store(path=str(db))
    user = "bench"
    stream = workload.facts(args.get("seed", 1))
    written = 0

    def write(batch: list[dict[str, Any]]) -> None:
        with store.db.space_lock(user):
            m = store.load(user)
            for fact in batch:
                m._apply(dict(fact), "", "")
            store.save(user, m)

    for size in args["sizes"]:
        window = size - written if args.get("stream") else min(args["window"], size)
        while written < size - window:  # grown in batches to within one window
            n = min(500, size - window - written)
            write([next(stream) for _ in range(n)])
            written += n
        times = []
        t0 = time.perf_counter()
        while written < size:
            fact = next(stream)
            t = time.perf_counter()
            write([fact])
            times.append(time.perf_counter() - t)
            written += 1
        total = time.perf_counter() - t0
        lookups, histories = [], []
        for subject in workload.subjects(size, size)[:args["lookups"]]:
            t = time.perf_counter()
            m = store.load(user)
            [s for s in m.active() if s.subject == subject]
            lookups.append(time.perf_counter() - t)
            t = time.perf_counter()
            store.history_rows(user, subject)
            histories.append(time.perf_counter() - t)
        print(json.dumps({"size": size, "writes_per_s": len(times) / total,
                          "p50": percentile(times, 50) * 1e3, "p99": percentile(times, 99) * 1e3,
                          "lookup_p50": percentile(lookups, 50) * 1e3,
                          "history_p50": percentile(histories, 50) * 1e3}), flush=True)


if __name__ == "__main__":
    main()
