"""A second process sharing the stores, for the erasure test: it fills its caches (decrypted
mirror values, a space's fact vectors, a question's embedding), reports them, and after
`check` on stdin reports them again once it has seen the erasure in the event log. Settings
come from the environment.

    python cache_holder.py SPACE RECEIPT_ID QUESTION

Each report is one JSON line: {"decrypted": [...], "vectors": {space: [ids]},
"questions": [...], "erasures_seen": n}.
"""

from __future__ import annotations

import json
import logging
import sys
import time

from graphmem import GraphMem
from graphmem.lifecycle import restore
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.runtime import Runtime
from graphmem.settings import load_settings

SEEN_TIMEOUT = 60.0


def report(runtime: Runtime) -> None:
    mirror = runtime.mirror
    found = {"decrypted": mirror.cipher.cached_texts(),
             "vectors": runtime.ranker.vectors.cache.held(),
             "questions": runtime.embedder.cached_questions(),
             "erasures_seen": mirror.erasures.seen}
    sys.stdout.write(json.dumps(found) + "\n")
    sys.stdout.flush()


def main() -> None:
    logging.disable(logging.WARNING)
    space, receipt_id, question = sys.argv[1:4]
    runtime = Runtime.open(load_settings())
    mem = GraphMem(space, runtime=runtime)
    mem.recall(question)  # ranked (a small GRAPHMEM_RECALL_CONTEXT): vectors, the question
    check_mirror(runtime, space)  # decrypts the space's mirror facts
    mem.records.receipt(receipt_id)  # decrypts a stored receipt
    for _ in restore.events(runtime, [space]):  # decrypts the space's events
        pass
    report(runtime)
    if sys.stdin.readline().strip() != "check":
        return
    latest = int(runtime.store.query(
        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE kind = 'erase'")[0][0])
    deadline = time.monotonic() + SEEN_TIMEOUT
    while (runtime.mirror.erasures.seen or 0) < latest and time.monotonic() < deadline:
        mem.active()  # an operation keeps the mirror's worker (which polls) running
        time.sleep(0.1)
    report(runtime)
    runtime.close()


if __name__ == "__main__":
    main()
