"""The seal a chain of version 1 rows gets when it is first appended to after the upgrade.

Version 1 rows hashed neither their tenant nor their position, and the event log was not
named in the chain. The seal is a run of version 2 rows appended before anything else: one
(`audit_seal`) holds the count of version 1 rows and a digest of their (seq, tenant) pairs;
the others list every event then in the log with its row's digest, `EVENTS_PER_ROW` a row.
From then on, moving an old row to another tenant or editing an old event is detected like
any other change; what was changed before the upgrade is not (nothing recorded it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from graphmem.mirror import event_log
from graphmem.mirror.db import Cursor

OPERATION = "audit_seal"
EVENTS_PER_ROW = 1000
PAGE = 5000


class TenantDigest:
    """SHA-256 over the (seq, tenant) pairs of version 1 rows, in order."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.rows = 0

    def add(self, seq: int, tenant: str) -> None:
        self._hash.update(f"{seq}\t{tenant}\n".encode())
        self.rows += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def details(cur: Cursor, head_seq: int) -> Iterator[dict[str, Any]]:
    """The seal rows' details, read in the appender's transaction (under the head lock)."""
    tenants = TenantDigest()
    after = 0
    while True:
        cur.execute("SELECT seq, tenant FROM audit_log WHERE seq > ? AND seq <= ? ORDER BY seq"
                    " LIMIT ?", (after, head_seq, PAGE))
        page = cur.fetchall()
        for seq, tenant in page:
            tenants.add(int(seq), str(tenant))
        if len(page) < PAGE:
            break
        after = int(page[-1][0])
    yield {"kind": OPERATION, "v1_rows": tenants.rows, "v1_tenants": tenants.hexdigest()}
    yield from _event_rows(cur)


def _event_rows(cur: Cursor) -> Iterator[dict[str, Any]]:
    after = 0
    while True:
        cur.execute(f"SELECT seq, {event_log.COLUMNS} FROM events WHERE seq > ?"  # noqa: S608
                    " ORDER BY seq LIMIT ?", (after, EVENTS_PER_ROW))
        page = cur.fetchall()
        if page:
            yield {"kind": OPERATION, "sealed": [
                [str(r[1]), str(r[2]), event_log.row_digest(tuple(r[1:]))] for r in page]}
        if len(page) < EVENTS_PER_ROW:
            return
        after = int(page[-1][0])
