"""The audit chain: one append-only log for the whole deployment, hash-chained and signed.

Each row's hash is `sha256(prev_hash | canonical row)`. A row of version 2 hashes every
column a reader relies on: the JSON array [2, seq, at, tenant, space, caller, operation,
outcome, detail]; version 1 rows, written before, hashed [at, space, caller, operation,
outcome, detail], without the tenant or the position. The first append after the upgrade
seals the version 1 rows (their tenants) and the event log in the chain (graphmem.mirror.seal),
and every later row is version 2. Each row's hash is Ed25519-signed, and a signed head (last
seq and hash) is updated in the same transaction as every append, so removing rows from the
tail is detected too; `graphmem.mirror.verify` checks all of it, and anchors the head
outside the database (receipts, the checkpoint file).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import SchemaOutdated
from graphmem.mirror import seal
from graphmem.mirror.db import Cursor, RelationalStore
from graphmem.mirror.keys import Signer
from graphmem.model.audit import VERSION, AuditRow

GENESIS = "0" * 64
_INSERT = ("INSERT INTO audit_log (seq, at, tenant, space, caller, operation, outcome, detail,"
           " prev_hash, hash, signature, key_id, v)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_PAGE = ("SELECT seq, at, tenant, space, caller, operation, outcome, detail, prev_hash, hash,"
         " signature, key_id, v FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?")
_LISTING = ("SELECT seq, at, tenant, space, caller, operation, outcome, detail, prev_hash,"
            " hash, signature, key_id, v FROM audit_log"
            " WHERE (CAST(? AS TEXT) IS NULL OR tenant = ?)"
            " AND (CAST(? AS BIGINT) IS NULL OR seq < ?)"
            " AND (CAST(? AS TEXT) IS NULL OR operation = ?) ORDER BY seq DESC LIMIT ?")
_HEAD = "SELECT seq, hash, v FROM audit_head WHERE id = 1"
# Appenders in every process queue on the head row (SQLite's BEGIN IMMEDIATE does it there).
_HEAD_LOCKED = {"sqlite": _HEAD, "postgres": _HEAD + " FOR UPDATE"}


@dataclass(frozen=True)
class AuditEntry:
    """One operation to record. `detail` never holds memory content: ids and counts only."""

    space: str
    caller: str
    operation: str
    outcome: str
    detail: dict[str, Any] = field(default_factory=dict)
    tenant: str = ""
    at: str = ""

    def stamped(self) -> AuditEntry:
        tenant = self.tenant or self.space.split("/", 1)[0]
        at = self.at or datetime.now(UTC).isoformat()
        return AuditEntry(self.space, self.caller, self.operation, self.outcome, self.detail,
                          tenant, at)


def row_canonical(row: AuditRow) -> bytes:
    """A stored row as it was hashed, in its own version's form."""
    if row.v == 1:
        return canonical_v1(row.at, row.space, row.caller, row.operation, row.outcome,
                            row.detail)
    return canonical(row.seq, row.at, row.tenant, row.space, row.caller, row.operation,
                     row.outcome, row.detail)


def canonical(seq: int, at: str, tenant: str, space: str, caller: str, operation: str,
              outcome: str, detail: str) -> bytes:
    """A version 2 row as hashed: every column a reader relies on, its position included."""
    return json.dumps([VERSION, seq, at, tenant, space, caller, operation, outcome, detail],
                      ensure_ascii=False, separators=(",", ":")).encode()


def canonical_v1(at: str, space: str, caller: str, operation: str, outcome: str,
                 detail: str) -> bytes:
    """A version 1 row as it was hashed (no tenant, no position)."""
    return json.dumps([at, space, caller, operation, outcome, detail], ensure_ascii=False,
                      separators=(",", ":")).encode()


def chain_hash(prev_hash: str, row: bytes) -> str:
    return hashlib.sha256(prev_hash.encode() + b"|" + row).hexdigest()


def head_message(seq: int, hash_: str, at: str) -> bytes:
    return json.dumps({"seq": seq, "hash": hash_, "at": at}, sort_keys=True,
                      separators=(",", ":")).encode()


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_NAME = re.compile(r"^[A-Za-z0-9_.@:\-/]{1,200}$")
REASON_LIMIT = 300


def fingerprint(text: str) -> str:
    """What an audit row keeps of a caller's raw input: a short digest, never the text."""
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def named(raw: str) -> str:
    """A name a caller gave (a space, a tenant) as an audit row may hold it: itself when it
    is one (the alphabet and length of space parts), else its fingerprint."""
    return raw if _NAME.match(raw) else fingerprint(raw)


def reason(text: str) -> str:
    """A refusal's message as an audit row may hold it: quoted input that is not a plain
    name becomes its fingerprint, and the whole is capped, so a row never keeps what a
    caller typed (it cannot be erased from the chain)."""
    def keep(match: re.Match[str]) -> str:
        inner = match.group(0)[1:-1]
        return match.group(0) if _NAME.match(inner) else f"<{fingerprint(inner)}>"

    return _QUOTED.sub(keep, text)[:REASON_LIMIT]


def _detail(detail: dict[str, Any]) -> str:
    return json.dumps(detail, sort_keys=True, separators=(",", ":"), default=str)


@dataclass(frozen=True)
class SignedHead:
    """Where the chain stood after an append, and the signature over it (`head_message`)."""

    seq: int
    hash: str
    at: str
    signature: str
    key_id: str

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "hash": self.hash, "at": self.at,
                "signature": self.signature, "key_id": self.key_id}


class Appender:
    """Rows added inside a caller's relational transaction (the mirror applies outbox entries
    and appends audit rows in one): reads the head under its lock first, moves and signs it
    once at `finish`, so appenders in every process queue on the head and never fork. The
    first append to a chain of version 1 rows seals them first (graphmem.mirror.seal)."""

    def __init__(self, cur: Cursor, dialect: str, signer: Signer) -> None:
        cur.execute(_HEAD_LOCKED[dialect])
        head = cur.fetchone()
        if head is None:
            raise SchemaOutdated("the relational store has no audit tables: run"
                                 " `graphmem migrate up`")
        self.cur, self.signer = cur, signer
        self.seq, self.prev = int(head[0]), str(head[1])
        self._unsealed = int(head[2]) < VERSION
        self.added = 0

    def add(self, entry: AuditEntry) -> None:
        if self._unsealed:
            self._unsealed = False
            for detail in seal.details(self.cur, self.seq):
                self._add(AuditEntry("", "system", seal.OPERATION, "ok", detail, "", ""))
        self._add(entry)

    def _add(self, entry: AuditEntry) -> None:
        e = entry.stamped()
        self.seq += 1
        detail = _detail(e.detail)
        digest = chain_hash(self.prev, canonical(self.seq, e.at, e.tenant, e.space, e.caller,
                                                 e.operation, e.outcome, detail))
        self.cur.execute(_INSERT, (self.seq, e.at, e.tenant, e.space, e.caller, e.operation,
                                   e.outcome, detail, self.prev, digest,
                                   self.signer.sign(bytes.fromhex(digest)), self.signer.key_id,
                                   VERSION))
        self.prev = digest
        self.added += 1

    def finish(self) -> SignedHead | None:
        """Sign the new head (when rows were added) and return it."""
        if not self.added:
            return None
        at = datetime.now(UTC).isoformat()
        signed = SignedHead(self.seq, self.prev, at,
                            self.signer.sign(head_message(self.seq, self.prev, at)),
                            self.signer.key_id)
        self.cur.execute(
            "UPDATE audit_head SET seq = ?, hash = ?, at = ?, signature = ?, key_id = ?, v = ?"
            " WHERE id = 1", (signed.seq, signed.hash, signed.at, signed.signature,
                              signed.key_id, VERSION))
        return signed


def append(store: RelationalStore, signer: Signer, entries: Iterable[AuditEntry]) -> int:
    """Append rows and move the signed head, in one transaction; returns the last seq."""
    with store.transaction() as cur:
        appender = Appender(cur, store.dialect.name, signer)
        for entry in entries:
            appender.add(entry)
        appender.finish()
        return appender.seq


def resign_head(store: RelationalStore, signer: Signer) -> None:
    """Sign the current head with `signer` (after a key rotation)."""
    with store.transaction() as cur:
        cur.execute(_HEAD_LOCKED[store.dialect.name])
        seq, prev, _ = cur.fetchone()
        at = datetime.now(UTC).isoformat()
        cur.execute("UPDATE audit_head SET at = ?, signature = ?, key_id = ? WHERE id = 1",
                    (at, signer.sign(head_message(int(seq), str(prev), at)), signer.key_id))


def head(store: RelationalStore) -> tuple[int, str]:
    """Where the chain stands: the last row's sequence number and hash."""
    found = store.query(_HEAD)
    return (int(found[0][0]), str(found[0][1])) if found else (0, GENESIS)


def signed_head(store: RelationalStore) -> tuple[Any, ...] | None:
    """The head row as stored: seq, hash, at, signature, key_id."""
    found = store.query("SELECT seq, hash, at, signature, key_id FROM audit_head WHERE id = 1")
    return tuple(found[0]) if found else None


def seq_of(store: RelationalStore, hash_: str) -> int | None:
    """The row whose hash is `hash_` (0 for the empty chain's genesis), if the chain holds
    one."""
    if hash_ == GENESIS:
        return 0
    found = store.query("SELECT seq FROM audit_log WHERE hash = ?", (hash_,))
    return int(found[0][0]) if found else None


def rows(store: RelationalStore, after: int = 0, page: int = 5000) -> Iterator[AuditRow]:
    """Every row after `after`, oldest first, read a page at a time."""
    while True:
        batch = store.query(_PAGE, (after, page))
        for row in batch:
            yield AuditRow(int(row[0]), *row[1:])
        if len(batch) < page:
            return
        after = int(batch[-1][0])


def listing(store: RelationalStore, tenant: str | None, limit: int = 50,
            before: int | None = None, operation: str | None = None) -> list[AuditRow]:
    """Newest first, confined to a tenant (None: every tenant, for operators)."""
    rows = store.query(_LISTING, (tenant, tenant, before, before, operation, operation, limit))
    return [AuditRow(int(r[0]), *r[1:]) for r in rows]


