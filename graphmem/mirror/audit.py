"""The audit chain: one append-only log for the whole deployment, hash-chained and signed.

Each row's hash is `sha256(prev_hash | canonical row)`, where the canonical row is the JSON
array [at, space, caller, operation, outcome, detail]; the tenant is stored beside it, outside
the hashed content, so listings can be confined to a tenant. Each row's hash is Ed25519-signed,
and a signed head checkpoint (last seq and hash) is updated in the same transaction as every
append, so removing rows from the tail is detected too.

`verify_chain` recomputes every hash and link and checks the head's signature; as the chain
makes the signed head vouch for every row before it, that is a complete check. `deep=True`
also verifies each row's own signature (what lets one exported row be checked alone); it is
bounded by Ed25519 verification speed, about 7k rows/s per core.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.errors import SchemaOutdated
from graphmem.mirror.db import Cursor, RelationalStore
from graphmem.mirror.keys import Signer, verify_signature

GENESIS = "0" * 64
MAX_PROBLEMS = 100
_INSERT = ("INSERT INTO audit_log (seq, at, tenant, space, caller, operation, outcome, detail,"
           " prev_hash, hash, signature, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_PAGE = ("SELECT seq, at, tenant, space, caller, operation, outcome, detail, prev_hash, hash,"
         " signature, key_id FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?")
_LISTING = ("SELECT seq, at, tenant, space, caller, operation, outcome, detail, prev_hash,"
            " hash, signature, key_id FROM audit_log"
            " WHERE (CAST(? AS TEXT) IS NULL OR tenant = ?)"
            " AND (CAST(? AS BIGINT) IS NULL OR seq < ?)"
            " AND (CAST(? AS TEXT) IS NULL OR operation = ?) ORDER BY seq DESC LIMIT ?")
_HEAD = "SELECT seq, hash FROM audit_head WHERE id = 1"
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


@dataclass
class AuditCall:
    """One audited operation in progress: the entries its writes commit carry its row
    (`stub`), and `events` lists them, which is where the row sits in the audit order."""

    caller: str
    operation: str
    tenant: str
    events: list[tuple[str, str]] = field(default_factory=list)

    def stub(self) -> str:
        return json.dumps({"caller": self.caller, "operation": self.operation,
                           "tenant": self.tenant, "at": datetime.now(UTC).isoformat()},
                          sort_keys=True)

    def committed(self, space: str, event_ids: Iterable[str]) -> None:
        self.events.extend((space, e) for e in event_ids if (space, e) not in self.events)


@dataclass(frozen=True)
class AuditRow:
    seq: int
    at: str
    tenant: str
    space: str
    caller: str
    operation: str
    outcome: str
    detail: str
    prev_hash: str
    hash: str
    signature: str
    key_id: str

    def canonical(self) -> bytes:
        return canonical(self.at, self.space, self.caller, self.operation, self.outcome,
                         self.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "tenant": self.tenant, "space": self.space,
                "caller": self.caller, "operation": self.operation, "outcome": self.outcome,
                "detail": json.loads(self.detail), "hash": self.hash,
                "signature": self.signature, "key_id": self.key_id}


def canonical(at: str, space: str, caller: str, operation: str, outcome: str,
              detail: str) -> bytes:
    return json.dumps([at, space, caller, operation, outcome, detail], ensure_ascii=False,
                      separators=(",", ":")).encode()


def chain_hash(prev_hash: str, row: bytes) -> str:
    return hashlib.sha256(prev_hash.encode() + b"|" + row).hexdigest()


def head_message(seq: int, hash_: str, at: str) -> bytes:
    return json.dumps({"seq": seq, "hash": hash_, "at": at}, sort_keys=True,
                      separators=(",", ":")).encode()


def _detail(detail: dict[str, Any]) -> str:
    return json.dumps(detail, sort_keys=True, separators=(",", ":"), default=str)


class Appender:
    """Rows added inside a caller's relational transaction (the mirror applies outbox entries
    and appends audit rows in one): reads the head under its lock first, moves and signs it
    once at `finish`, so appenders in every process queue on the head and never fork."""

    def __init__(self, cur: Cursor, dialect: str, signer: Signer) -> None:
        cur.execute(_HEAD_LOCKED[dialect])
        head = cur.fetchone()
        if head is None:
            raise SchemaOutdated("the relational store has no audit tables: run"
                                 " `graphmem migrate up`")
        self.cur, self.signer = cur, signer
        self.seq, self.prev = int(head[0]), str(head[1])
        self.added = 0

    def add(self, entry: AuditEntry) -> None:
        e = entry.stamped()
        self.seq += 1
        detail = _detail(e.detail)
        digest = chain_hash(self.prev, canonical(e.at, e.space, e.caller, e.operation,
                                                 e.outcome, detail))
        self.cur.execute(_INSERT, (self.seq, e.at, e.tenant, e.space, e.caller, e.operation,
                                   e.outcome, detail, self.prev, digest,
                                   self.signer.sign(bytes.fromhex(digest)), self.signer.key_id))
        self.prev = digest
        self.added += 1

    def finish(self) -> int:
        """Sign the new head (when rows were added); returns the last seq."""
        if self.added:
            at = datetime.now(UTC).isoformat()
            self.cur.execute(
                "UPDATE audit_head SET seq = ?, hash = ?, at = ?, signature = ?, key_id = ?"
                " WHERE id = 1", (self.seq, self.prev, at,
                                  self.signer.sign(head_message(self.seq, self.prev, at)),
                                  self.signer.key_id))
        return self.seq


def append(store: RelationalStore, signer: Signer, entries: Iterable[AuditEntry]) -> int:
    """Append rows and move the signed head, in one transaction; returns the last seq."""
    with store.transaction() as cur:
        appender = Appender(cur, store.dialect.name, signer)
        for entry in entries:
            appender.add(entry)
        return appender.finish()


def resign_head(store: RelationalStore, signer: Signer) -> None:
    """Sign the current head with `signer` (after a key rotation)."""
    with store.transaction() as cur:
        cur.execute(_HEAD_LOCKED[store.dialect.name])
        seq, prev = cur.fetchone()
        at = datetime.now(UTC).isoformat()
        cur.execute("UPDATE audit_head SET at = ?, signature = ?, key_id = ? WHERE id = 1",
                    (at, signer.sign(head_message(int(seq), str(prev), at)), signer.key_id))


def head(store: RelationalStore) -> tuple[int, str]:
    """Where the chain stands: the last row's sequence number and hash."""
    found = store.query(_HEAD)
    return (int(found[0][0]), str(found[0][1])) if found else (0, GENESIS)


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


@dataclass
class ChainReport:
    ok: bool
    rows: int
    head_seq: int
    deep: bool
    problems: list[str]

    def __str__(self) -> str:
        what = "rows, hashes, links, signatures and head" if self.deep else (
            "rows, hashes, links and the signed head")
        if self.ok:
            return f"audit chain OK: {self.rows} {what} verified"
        shown = "\n".join(f"  - {p}" for p in self.problems)
        return f"audit chain BROKEN ({len(self.problems)} problem(s) in {self.rows} rows):\n{shown}"


class _Checker:
    def __init__(self, trusted: dict[str, Ed25519PublicKey], deep: bool) -> None:
        self.trusted = trusted
        self.deep = deep
        self.problems: list[str] = []
        self.last_seq = 0
        self.last_hash = GENESIS
        self.count = 0

    def problem(self, text: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)

    def row(self, row: AuditRow) -> None:
        self.count += 1
        gap = row.seq != self.last_seq + 1
        if gap:
            self.problem(f"rows {self.last_seq + 1}..{row.seq - 1} are missing (deleted)")
        if chain_hash(row.prev_hash, row.canonical()) != row.hash:
            self.problem(f"row {row.seq}: its content does not match its hash (modified)")
        elif row.prev_hash != self.last_hash and not gap:
            self.problem(f"row {row.seq}: it does not follow row {self.last_seq}"
                         " (rows reordered, or one replaced)")
        if self.deep:
            key = self.trusted.get(row.key_id)
            if key is None:
                self.problem(f"row {row.seq}: signed by key {row.key_id}, which is not trusted")
            elif not verify_signature(key, row.signature, bytes.fromhex(row.hash)):
                self.problem(f"row {row.seq}: its signature does not verify")
        self.last_seq, self.last_hash = row.seq, row.hash

    def head(self, head: tuple[Any, ...] | None) -> None:
        if head is None:
            self.problem("the signed head checkpoint is missing")
            return
        seq, hash_, at, signature, kid = int(head[0]), str(head[1]), *head[2:]
        if seq == 0 and not signature:
            if self.count:
                self.problem("the head checkpoint was reset to empty while rows remain")
            return
        key = self.trusted.get(kid)
        if key is None:
            self.problem(f"the head checkpoint is signed by key {kid}, which is not trusted"
                         " (rotate keys with `graphmem audit rotate-key`, never by hand)")
        elif not verify_signature(key, signature, head_message(seq, hash_, at)):
            self.problem("the head checkpoint's signature does not verify")
        if seq > self.last_seq:
            self.problem(f"the log ends at row {self.last_seq} but the signed head is at row"
                         f" {seq}: rows {self.last_seq + 1}..{seq} were removed (truncated)")
        elif seq < self.last_seq:
            self.problem(f"rows {seq + 1}..{self.last_seq} come after the signed head"
                         " (appended without the key)")
        elif hash_ != self.last_hash:
            self.problem(f"the signed head does not match row {seq} (the tail was rewritten)")


def verify_chain(store: RelationalStore, trusted: dict[str, Ed25519PublicKey],
                 deep: bool = False, page: int = 5000) -> ChainReport:
    """Check every row, then the head. Appends may go on meanwhile: the head is read after
    the rows, and rows it covers that arrived during the read are read too."""
    checker = _Checker(trusted, deep)
    while True:
        before = checker.count
        for row in rows(store, after=checker.last_seq, page=page):
            checker.row(row)
        heads = store.query("SELECT seq, hash, at, signature, key_id FROM audit_head"
                            " WHERE id = 1")
        head = heads[0] if heads else None
        if head is None or int(head[0]) <= checker.last_seq or checker.count == before:
            break
    checker.head(head)
    head_seq = int(head[0]) if head else 0
    return ChainReport(not checker.problems, checker.count, head_seq, deep, checker.problems)
