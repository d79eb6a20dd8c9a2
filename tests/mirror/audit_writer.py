"""The writer the audit-durability test kills: its mirror never writes anything (no worker,
so no drain and no audit append), it makes one write, prints `ack <fact id>` and waits for
SIGKILL. Settings come from the environment.

    python audit_writer.py SPACE
"""

from __future__ import annotations

import logging
import os
import sys
import time

from graphmem import GraphMem
from graphmem.mirror.mirror import Mirror
from graphmem.runtime import Runtime
from graphmem.settings import load_settings


def main() -> None:
    logging.disable(logging.WARNING)  # the embedder is off on purpose
    Mirror._ensure_thread = lambda self: None  # type: ignore[method-assign]
    runtime = Runtime.open(load_settings())
    mem = GraphMem(sys.argv[1], runtime=runtime)
    fact_id = mem.remember_facts([{"subject": "plan", "value": "pro"}])[0].fact_id
    mem.active()  # a read: its row is only queued, and is lost with the process
    os.write(1, f"ack {fact_id}\n".encode())
    time.sleep(600)


if __name__ == "__main__":
    main()
