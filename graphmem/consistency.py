"""Read-your-writes across hosts: a write's consistency token, and reads that wait for it.

A write returns a token naming the database state it committed (Neo4j's bookmarks). A read
given that token, on any host and whichever cluster member serves it, first waits until that
member has applied that state, so it never misses the write. On a single server every read
sees every commit anyway; the token matters where reads go to secondaries
(`neo4j://` routing to a cluster).

The token is opaque to callers: `gm1.` and the bookmarks as URL-safe base64 of a JSON list.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from graphmem.errors import InvalidInput

PREFIX = "gm1."
MAX_TOKEN = 8192
MAX_BOOKMARKS = 64


@dataclass
class Tracker:
    """What one call read after and wrote: shared by the threads its work runs on."""

    after: frozenset[str] = frozenset()
    written: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wrote(self, bookmarks: Iterable[str]) -> None:
        with self.lock:
            self.written.update(bookmarks)

    def token(self) -> str | None:
        with self.lock:
            return encode(self.written) if self.written else None


_current: ContextVar[Tracker | None] = ContextVar("graphmem_consistency", default=None)


def current() -> Tracker | None:
    return _current.get()


@contextmanager
def tracking(after: str | None = None) -> Iterator[Tracker]:
    """Track the block's writes; with `after`, its reads wait for that token's state. Nested
    blocks share the outer tracker (an outer `after` holds inside)."""
    outer = _current.get()
    if outer is not None and after is None:
        yield outer
        return
    tracker = Tracker(after=decode(after) if after else (outer.after if outer else frozenset()))
    reset = _current.set(tracker)
    try:
        yield tracker
    finally:
        _current.reset(reset)
        if outer is not None:
            outer.wrote(tracker.written)


def encode(bookmarks: Iterable[str]) -> str:
    raw = json.dumps(sorted(bookmarks), separators=(",", ":")).encode()
    return PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(token: str) -> frozenset[str]:
    """The bookmarks a token names, or InvalidInput saying what is wrong with it."""
    bad = InvalidInput("the consistency token is not one graphmem issued: pass back the"
                       " `consistencyToken` of a write as it was returned")
    if not isinstance(token, str) or len(token) > MAX_TOKEN or not token.startswith(PREFIX):
        raise bad
    body = token[len(PREFIX):]
    try:
        values = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    if (not isinstance(values, list) or len(values) > MAX_BOOKMARKS
            or not all(isinstance(v, str) and 0 < len(v) <= 1000 for v in values)):
        raise bad
    return frozenset(values)
