"""Instruments for the write path: Bolt round trips, Neo4j's own time per statement, CPU per
thread, and deadlock retries, all read from the driver and /proc in the measuring process.

- Round trips: every flush of a connection's outgoing buffer that sends bytes is one request
  the client then waits on (the driver's RUN+PULL, BEGIN when pipelined, COMMIT), counted per
  thread name.
- Neo4j time: each statement's `t_first` (until its first record was ready) and `t_last`
  (streaming the rest) from the server's own summary metadata, by statement name.
- CPU: utime+stime of each thread of this process, by thread name, from /proc.
- Deadlocks: the driver's DEBUG log of server FAILURE messages, and its retry warnings.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neo4j._sync.io._bolt import Bolt
from neo4j._sync.work.transaction import TransactionBase

from graphmem import GraphMem
from graphmem.graph.statements import registry

TICKS = os.sysconf("SC_CLK_TCK")


def _name_of(text: str, names: dict[str, str]) -> str:
    return names.get(text, "(unregistered)")


@dataclass
class Probe:
    round_trips: Counter[str] = field(default_factory=Counter)
    statements: Counter[tuple[str, str]] = field(default_factory=Counter)
    server_ms: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    _results: list[tuple[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def settle(self) -> None:
        """Fold the server timings of the statements run so far into `server_ms`."""
        with self._lock:
            results, self._results = self._results, []
        for name, result in results:
            meta = getattr(result, "_metadata", {})
            self.server_ms[name] += float(meta.get("t_first", 0) or 0) + float(
                meta.get("t_last", 0) or 0)

    def reset(self) -> None:
        self.settle()
        self.round_trips.clear()
        self.statements.clear()
        self.server_ms.clear()


@contextmanager
def probing() -> Iterator[Probe]:
    """Count round trips and statements (by thread) while the block runs."""
    probe = Probe()
    names = {text: name for name, text in registry().items()}
    send, run = Bolt._send_all, TransactionBase.run

    def counted_send(self: Any) -> None:
        if self.outbox._chunked_data:
            probe.round_trips[threading.current_thread().name] += 1
        send(self)  # type: ignore[no-untyped-call]

    def timed_run(self: Any, query: Any, parameters: Any = None, **kwargs: Any) -> Any:
        result = run(self, query, parameters, **kwargs)
        name = _name_of(str(query), names)
        probe.statements[(threading.current_thread().name, name)] += 1
        with probe._lock:
            probe._results.append((name, result))
        return result

    Bolt._send_all = counted_send  # type: ignore[method-assign]
    TransactionBase.run = timed_run  # type: ignore[method-assign]
    try:
        yield probe
    finally:
        Bolt._send_all = send  # type: ignore[method-assign]
        TransactionBase.run = run  # type: ignore[method-assign]
        probe.settle()


def thread_cpu() -> dict[str, float]:
    """CPU seconds (utime+stime) of each live thread of this process, by thread name (the
    threads sharing a name summed)."""
    ids = {t.native_id: t.name for t in threading.enumerate() if t.native_id}
    found: dict[str, float] = defaultdict(float)
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = ids.get(int(task.name), "(native)")
        found[name] += (int(fields[11]) + int(fields[12])) / TICKS
    return dict(found)


def process_cpu(pid: int | None) -> float | None:
    """utime+stime of a process in seconds; None when there is none (no managed server)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def server_threads(pid: int | None) -> dict[str, float]:
    """CPU seconds of the server's threads by group, and of the whole process ("total",
    which includes threads that have exited: Lucene starts a thread per segment merge);
    empty without a server."""
    if pid is None:
        return {}
    found: dict[str, float] = defaultdict(float)
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[_group(name)] += (int(fields[11]) + int(fields[12])) / TICKS
    found["total"] = process_cpu(pid) or 0.0
    return dict(found)


def _group(thread: str) -> str:
    if thread.startswith("neo4j.Bolt"):
        return "Bolt (statements, commit)"
    if thread.startswith("neo4j.IndexUpda"):
        return "full-text index updates"
    if thread.startswith(("C1 Compiler", "C2 Compiler", "Sweeper")):
        return "JIT compiler"
    if thread.startswith(("GC Thread", "G1 ")):
        return "garbage collector"
    if thread.startswith(("neo4j.CheckPoin", "neo4j.IndexSamp", "neo4j.StorageMa",
                          "MuninnPageCache")):
        return "checkpoints, index sampling, page cache"
    return "other"


def settle(mem: GraphMem) -> None:
    """Background work caught up: vectors stored, outbox applied and marked."""
    mem.records.wait_for_embeddings(120)
    mem.runtime.mirror.flush()
    mem.runtime.mirror.mark_applied()


def quiet(pid: int | None, limit: float = 120.0) -> None:
    """Wait until the server has been idle for half a second (under 2% of a core): Lucene
    merges the segments of a burst of writes on threads of its own, seconds later, and a
    phase measured meanwhile would share the cores with them."""
    deadline = time.monotonic() + limit
    while pid is not None and time.monotonic() < deadline:
        before = process_cpu(pid) or 0.0
        time.sleep(0.5)
        if (process_cpu(pid) or 0.0) - before < 0.01:
            return


@contextmanager
def quiet_driver() -> Iterator[None]:
    """The driver's logger at WARNING while CPU is measured: at DEBUG (deadlock_log) it
    formats every Bolt message, which would be counted as the writer's CPU. Retry warnings
    still reach the deadlock handler."""
    logger = logging.getLogger("neo4j")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def bolt_server_pid(port: int = 7687) -> int | None:
    """The pid of the process listening on the Bolt port (a Neo4j of this machine)."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inode = parts[9]
                break
        if inode:
            break
    if inode is None:
        return None
    target = f"socket:[{inode}]"
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) == target:
                    return int(proc.name)
        except OSError:
            continue
    return None


class DeadlockLog(logging.Handler):
    """Counts, from the driver's log, server failures with DeadlockDetected and retries."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.deadlocks = 0
        self.retries = 0
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if "DeadlockDetected" in text and ("FAILURE" in text or record.levelno >= logging.WARNING):
            self.deadlocks += 1
            self.lines.append(text[:300])
        if record.levelno >= logging.WARNING and "retried" in text:
            self.retries += 1
            self.lines.append(text[:300])


@contextmanager
def deadlock_log() -> Iterator[DeadlockLog]:
    """Watch the `neo4j` logger (DEBUG: server FAILURE messages) and graphmem's own."""
    handler = DeadlockLog()
    loggers = [logging.getLogger("neo4j"), logging.getLogger("graphmem")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
    loggers[0].setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)
