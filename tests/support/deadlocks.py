"""Deadlocks counted from the logs: the driver's (logger `neo4j`, whose DEBUG lines carry every
server FAILURE, and whose warnings announce its retries) and graphmem's own retry warning.

Every transaction of the process is seen: the writers' and those of the background threads
(mirror, marks, embedding), whichever of them Neo4j chose as the victim.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

DEADLOCK = "DeadlockDetected"


class DeadlockCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self._lock = threading.Lock()
        self.lines: list[str] = []
        self.retries = 0

    def emit(self, record: logging.LogRecord) -> None:
        raw = str(record.msg)
        if "FAILURE" not in raw and record.levelno < logging.WARNING:
            return  # the driver's other DEBUG lines: every message sent and received
        text = record.getMessage()
        with self._lock:
            if DEADLOCK in text:
                self.lines.append(f"{record.name} {record.threadName}: {text[:3000]}")
            if record.levelno >= logging.WARNING and "retried" in text:
                self.retries += 1

    @property
    def deadlocks(self) -> int:
        with self._lock:
            return len(self.lines)


@contextmanager
def counting_deadlocks() -> Iterator[DeadlockCounter]:
    counter = DeadlockCounter()
    driver, own = logging.getLogger("neo4j"), logging.getLogger("graphmem")
    level = driver.level
    driver.addHandler(counter)
    own.addHandler(counter)
    driver.setLevel(logging.DEBUG)
    try:
        yield counter
    finally:
        driver.setLevel(level)
        driver.removeHandler(counter)
        own.removeHandler(counter)


def described(counter: DeadlockCounter, graph: Any) -> str:
    """The deadlock lines, with the labels and keys of the nodes they name (for the failure
    message: which nodes the two transactions took in opposite orders)."""
    ids = sorted({int(n) for line in counter.lines for n in re.findall(r"NODE\((\d+)\)", line)})
    with graph.session() as session:
        nodes = session.run("UNWIND $ids AS i MATCH (n) WHERE id(n) = i RETURN i, labels(n) AS"
                            " labels, n.space AS space, n.key AS key, n.id AS id",
                            ids=ids).data()
    return "\n".join([*counter.lines, *map(str, nodes)])
