"""Signed audit heads kept outside the database: one JSON line each in a checkpoint file.

The signed head lives in the database it vouches for, so whoever can write that database
can wipe the chain or put an older signed head back. Each process that appends rows also
writes the signed head to a file in the home (`<home>/audit/checkpoints-<store>.jsonl`, one
file per relational store location): at least every GRAPHMEM_AUDIT_CHECKPOINT_ROWS rows or
GRAPHMEM_AUDIT_CHECKPOINT_SECONDS seconds, and after every successful verify. `verify`
checks the chain against every line: a head the chain no longer holds means rows were
removed, the chain rolled back or rewritten. Lines are appended (O_APPEND, one write each),
so processes sharing the file never interleave; ship the file to write-once storage as it
grows (docs/audit.md, "How to anchor it"), or name a witness (GRAPHMEM_AUDIT_WITNESS: a file
on other storage, or an HTTP endpoint) that receives every line as it is written. The first
head a process signs is written at once when the file does not exist yet, so a host that
appends always has one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from graphmem.mirror.audit import SignedHead
from graphmem.mirror.db import redact
from graphmem.settings import Settings

log = logging.getLogger(__name__)

WITNESS_TIMEOUT = 5.0  # seconds an HTTP witness has to take a line


@dataclass(frozen=True)
class Checkpoint:
    """One line of the file: a signed head and the store it belongs to."""

    head: SignedHead
    store: str
    line: int

    @classmethod
    def parse(cls, text: str, line: int) -> Checkpoint:
        data: Any = json.loads(text)
        head = SignedHead(int(data["seq"]), str(data["hash"]), str(data["at"]),
                          str(data["signature"]), str(data["key_id"]))
        return cls(head, str(data.get("store", "")), line)


def path_for(settings: Settings, url: str) -> Path:
    """The checkpoint file of the store at `url` (its location without the password names
    it, so a second store in the same home never mixes its heads with the first's)."""
    folder = settings.audit_checkpoint_dir or settings.home / "audit"
    name = hashlib.sha256(redact(url).encode()).hexdigest()[:16]
    return folder / f"checkpoints-{name}.jsonl"


def load(path: Path) -> tuple[list[Checkpoint], list[str]]:
    """The lines of a checkpoint file, and a problem for each line that is not one."""
    if not path.exists():
        return [], []
    found: list[Checkpoint] = []
    problems: list[str] = []
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            if not text.strip():
                continue
            try:
                found.append(Checkpoint.parse(text, number))
            except (ValueError, KeyError, TypeError):
                problems.append(f"line {number} of {path} is not a signed head (edited)")
    return found, problems


def witness(where: str, line: str) -> None:
    """Send one checkpoint line to the witness: POST it to an http(s) URL, else append it
    to the file `where` names. A failure is logged; the local line stands."""
    try:
        if where.startswith(("http://", "https://")):
            response = httpx.post(where, content=line.encode(), timeout=WITNESS_TIMEOUT,
                                  headers={"Content-Type": "application/x-ndjson"})
            response.raise_for_status()
            return
        fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
    except (OSError, httpx.HTTPError) as e:
        log.error("the audit witness %s did not take checkpoint line: %s", redact(where), e)


class CheckpointLog:
    """Writes this process's signed heads to the file when due: `note` after each append,
    `tick` every worker interval (the seconds rule), `write` after a verify."""

    def __init__(self, settings: Settings, path: Path, store_id: Callable[[], str],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self._rows = settings.audit_checkpoint_rows
        self._seconds = settings.audit_checkpoint_seconds
        self._store_id = store_id
        self._clock = clock
        self._lock = threading.Lock()
        self._written_seq = 0
        self._written_at = clock()
        self._pending: SignedHead | None = None
        self._witness = settings.audit_witness
        self._file_seen = False

    def note(self, head: SignedHead | None) -> None:
        """A head this process just signed: written at once when N rows passed since the
        last line, else kept for `tick`."""
        if head is None:
            return
        with self._lock:
            if self._pending is None or head.seq > self._pending.seq:
                self._pending = head
        if head.seq - self._written_seq >= self._rows or not self._file_exists():
            self.flush()
        else:
            self.tick()

    def _file_exists(self) -> bool:
        """Whether the file exists, looked up only until it is first seen (or written)."""
        if not self._file_seen:
            self._file_seen = self.path.exists()
        return self._file_seen

    def tick(self) -> None:
        """Write the pending head when M seconds passed since the last line."""
        if self._pending is not None and self._clock() - self._written_at >= self._seconds:
            self.flush()

    def flush(self) -> None:
        """Write the pending head now (nothing when there is none)."""
        with self._lock:
            head, self._pending = self._pending, None
        if head is not None:
            self.write(head)

    def write(self, head: SignedHead) -> None:
        """Append one line; a failure is logged (the chain itself is not at risk)."""
        line = json.dumps({**head.as_dict(), "store": self._store_id()}, sort_keys=True,
                          separators=(",", ":")) + "\n"
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            log.error("could not write the audit checkpoint %s: %s", self.path, e)
            return
        if self._witness:
            witness(self._witness, line)
        with self._lock:
            self._file_seen = True
            self._written_seq = max(self._written_seq, head.seq)
            self._written_at = self._clock()
