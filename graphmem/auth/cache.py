"""Recently verified keys, so a request needs no database lookup (nor a worker thread).

An entry is trusted for `seconds` at most. Revoking a key through any KeyStore of this host
(the server's or `graphmem keys revoke`) rewrites a stamp file in the data directory, and
every cache on the host checks that stamp on each lookup (one stat) and forgets
everything when it changed: revocation is immediate on the host, and takes at most
`seconds` on another host sharing the relational store.

While the relational store cannot be reached, a key this process verified within the last
`outage_seconds` keeps working (`during_outage`): an outage of the store that holds the keys
stops no client that was already working. A revocation cannot be written while the store is
down, and a revocation stamp on the host forgets these keys too.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from pathlib import Path

from graphmem.model.principals import Principal

STAMP_FILE = "api_keys.revoked"
Stamp = tuple[int, int, int]  # the stamp file's inode, mtime and ctime


class VerifiedKeys:
    """digest → (principal, expiry), bounded, dropped whole when the stamp changes."""

    def __init__(self, seconds: float, stamp: Path | None, max_entries: int = 10_000,
                 outage_seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.stamp = stamp
        self.max_entries = max_entries
        self.outage_seconds = outage_seconds
        self._entries: dict[str, tuple[Principal, float]] = {}
        self._known: dict[str, tuple[Principal, float]] = {}  # digest → (principal, verified)
        self._seen: Stamp | None = None
        self._lock = threading.Lock()

    def get(self, digest: str, now: float | None = None) -> Principal | None:
        if self.seconds <= 0 or not self._entries:
            return None
        self._check_stamp()
        found = self._entries.get(digest)
        if found is None:
            return None
        if found[1] <= (time.monotonic() if now is None else now):
            self._entries.pop(digest, None)
            return None
        return found[0]

    def stamp_now(self) -> Stamp | None:
        """Read before the lookup whose result `put` will keep."""
        return read_stamp(self.stamp)

    def put(self, digest: str, principal: Principal, stamp: Stamp | None,
            now: float | None = None) -> None:
        """Keep a lookup's result; `stamp` is what `stamp_now` read before that lookup, so a
        revocation racing the lookup still empties the cache on the next `get`."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if stamp != self._seen:
                self._entries.clear()
                self._known.clear()
                self._seen = stamp
            if self.outage_seconds > 0:
                if len(self._known) >= self.max_entries:
                    self._known = {d: e for d, e in self._known.items()
                                   if e[1] > now - self.outage_seconds}
                    if len(self._known) >= self.max_entries:
                        self._known.clear()
                self._known[digest] = (principal, now)
            if self.seconds <= 0:
                return
            if len(self._entries) >= self.max_entries:
                self._entries = {d: e for d, e in self._entries.items() if e[1] > now}
                if len(self._entries) >= self.max_entries:
                    self._entries.clear()
            self._entries[digest] = (principal, now + self.seconds)

    def during_outage(self, digest: str, now: float | None = None) -> Principal | None:
        """The principal of a key verified within `outage_seconds`, for when the store that
        would verify it again cannot be reached."""
        if self.outage_seconds <= 0:
            return None
        self._check_stamp()
        found = self._known.get(digest)
        now = time.monotonic() if now is None else now
        if found is None or found[1] <= now - self.outage_seconds:
            return None
        return found[0]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._known.clear()

    def _check_stamp(self) -> None:
        if self.stamp is not None and read_stamp(self.stamp) != self._seen:
            self.clear()


def read_stamp(path: Path | None) -> Stamp | None:
    """Which stamp file is there: one stat. A new stamp is a new file (a new inode, times)."""
    if path is None:
        return None
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_ctime_ns


def touch_stamp(path: Path) -> None:
    """A new stamp file (created while the old one exists, so another inode) moved into
    place: every cache on the host forgets its keys."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    tmp.write_bytes(secrets.token_hex(16).encode())
    os.replace(tmp, path)
