"""Verifying the audit chain: every row, the signed head, the anchors kept outside the
database, and the event log the chain covers.

One pass over the rows recomputes every hash and link (a row's hash covers its content, its
tenant and its position; version 1 rows, written before, cover less and are checked against
the seal that closed them, graphmem.mirror.seal), then checks the signed head, which vouches
for every row before it. `deep` also checks each row's own signature (what lets one exported
row be checked alone), bounded by Ed25519 at about 7k rows/s per core. The anchors are signed
heads the chain must still hold: the checkpoint file's lines (graphmem.mirror.checkpoints)
and the heads receipts carry; a head it no longer holds means rows were removed, rolled back
or rewritten since. A second pass compares the event log with what the chain names
(graphmem.mirror.event_log).

For one tenant (`tenant`), deep checks only that tenant's rows' signatures, and problems in
other tenants' rows or in the chain as a whole are counted, not described: the hashes and
links of every row are still checked, as they hold the tenant's rows in place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.mirror import event_log, seal
from graphmem.mirror.audit import GENESIS, chain_hash, head_message, row_canonical, rows
from graphmem.mirror.checkpoints import Checkpoint
from graphmem.mirror.db import RelationalStore
from graphmem.mirror.keys import verify_signature
from graphmem.model.audit import VERSION, AuditRow, ChainReport

MAX_PROBLEMS = 100


@dataclass(frozen=True)
class Anchor:
    """A head the chain must still hold: its hash, what vouched for it, and the tenant that
    holds the voucher (told of the outcome in a tenant's report)."""

    hash: str
    what: str
    tenant: str | None = None


@dataclass(frozen=True)
class Anchors:
    """The checkpoint file's lines (with the store they name) and receipts' heads."""

    checkpoints: Sequence[Checkpoint] = ()
    store: str | None = None
    heads: Sequence[Anchor] = ()
    problems: Sequence[str] = ()


@dataclass
class _Problems:
    tenant: str | None
    shown: list[str] = field(default_factory=list)
    elsewhere: int = 0

    def add(self, text: str, owner: str | None = None) -> None:
        if self.tenant is not None and owner != self.tenant:
            self.elsewhere += 1
        elif len(self.shown) < MAX_PROBLEMS:
            self.shown.append(text)

    def listed(self) -> list[str]:
        if not self.elsewhere:
            return list(self.shown)
        return [*self.shown, f"{self.elsewhere} problem(s) in other tenants' rows or in the"
                             " chain as a whole (an operator sees them with"
                             " `graphmem audit verify`)"]


class _Checker:
    def __init__(self, trusted: dict[str, Ed25519PublicKey], deep: bool, tenant: str | None,
                 anchors: Anchors) -> None:
        self.trusted = trusted
        self.deep = deep
        self.tenant = tenant
        self.problems = _Problems(tenant)
        self.last_seq = 0
        self.last_hash = GENESIS
        self.count = 0
        self.tenant_rows = 0
        self.tenant_last = 0
        self.v2_seen = False
        self.v1 = seal.TenantDigest()
        self.coverage = event_log.Coverage()
        self.at_seq = {c.head.seq: c for c in anchors.checkpoints}
        self.heads = {a.hash: a for a in anchors.heads}
        self.held: set[str] = set()

    def row(self, row: AuditRow) -> None:
        self.count += 1
        if row.tenant == self.tenant:
            self.tenant_rows += 1
            self.tenant_last = row.seq
        gap = row.seq != self.last_seq + 1
        if gap:
            self.problems.add(f"rows {self.last_seq + 1}..{row.seq - 1} are missing (deleted)")
        self._version(row)
        if chain_hash(row.prev_hash, row_canonical(row)) != row.hash:
            self.problems.add(f"row {row.seq}: its content does not match its hash (modified,"
                              " or moved to another tenant)", row.tenant)
        elif row.prev_hash != self.last_hash and not gap:
            self.problems.add(f"row {row.seq}: it does not follow row {self.last_seq}"
                              " (rows reordered, or one replaced)", row.tenant)
        if self.deep and (self.tenant is None or row.tenant == self.tenant):
            self._signature(row)
        self._anchors(row)
        self.coverage.note(row.seq, row.space, _detail(row))
        self.last_seq, self.last_hash = row.seq, row.hash

    def _version(self, row: AuditRow) -> None:
        if row.v == 1:
            if self.v2_seen:
                self.problems.add(f"row {row.seq}: an old-format row after the upgrade"
                                  " (downgraded)", row.tenant)
            self.v1.add(row.seq, row.tenant)
            return
        if row.v != VERSION:
            self.problems.add(f"row {row.seq}: unknown row version {row.v}", row.tenant)
        if not self.v2_seen and self.v1.rows:
            detail = _detail(row)
            if row.operation != seal.OPERATION or detail.get("v1_rows") != self.v1.rows or (
                    detail.get("v1_tenants") != self.v1.hexdigest()):
                self.problems.add(f"the {self.v1.rows} rows written before the upgrade do not"
                                  f" match their seal (row {row.seq}): one was moved to another"
                                  " tenant, or rows were added or removed there")
        self.v2_seen = True

    def _signature(self, row: AuditRow) -> None:
        key = self.trusted.get(row.key_id)
        if key is None:
            self.problems.add(f"row {row.seq}: signed by key {row.key_id}, which is not"
                              " trusted", row.tenant)
        elif not verify_signature(key, row.signature, bytes.fromhex(row.hash)):
            self.problems.add(f"row {row.seq}: its signature does not verify", row.tenant)

    def _anchors(self, row: AuditRow) -> None:
        line = self.at_seq.get(row.seq)
        if line is not None and line.head.hash != row.hash:
            self.problems.add(f"row {row.seq} is not the row checkpoint line {line.line} signed"
                              " (the chain was rewritten)")
        if row.hash in self.heads:
            self.held.add(row.hash)

    def head(self, head: tuple[Any, ...] | None) -> None:
        if head is None:
            self.problems.add("the signed head checkpoint is missing")
            return
        seq, hash_, at, signature, kid = int(head[0]), str(head[1]), *head[2:5]
        if seq == 0 and not signature:
            if self.count:
                self.problems.add("the head checkpoint was reset to empty while rows remain")
            return
        self._head_signature(seq, hash_, str(at), str(signature), str(kid))
        if seq > self.last_seq:
            self.problems.add(f"the log ends at row {self.last_seq} but the signed head is at"
                              f" row {seq}: rows {self.last_seq + 1}..{seq} were removed"
                              " (truncated)")
        elif seq < self.last_seq:
            self.problems.add(f"rows {seq + 1}..{self.last_seq} come after the signed head"
                              " (appended without the key)")
        elif hash_ != self.last_hash:
            self.problems.add(f"the signed head does not match row {seq} (the tail was"
                              " rewritten)")

    def _head_signature(self, seq: int, hash_: str, at: str, signature: str, kid: str) -> None:
        key = self.trusted.get(kid)
        if key is None:
            self.problems.add(f"the head checkpoint is signed by key {kid}, which is not trusted"
                              " (rotate keys with `graphmem audit rotate-key`, never by hand)")
        elif not verify_signature(key, signature, head_message(seq, hash_, at)):
            self.problems.add("the head checkpoint's signature does not verify")

    def outside(self, anchors: Anchors) -> None:
        """The anchors against the chain as read: heads beyond its end or not in it."""
        for text in anchors.problems:
            self.problems.add(text)
        for line in anchors.checkpoints:
            self._checkpoint(line, anchors.store)
        for anchor in anchors.heads:
            if anchor.hash != GENESIS and anchor.hash not in self.held:
                self.problems.add(f"the chain no longer holds the head {anchor.what} saw"
                                  f" ({anchor.hash[:16]}…): rows were removed, rolled back or"
                                  " rewritten since", anchor.tenant)

    def _checkpoint(self, line: Checkpoint, store: str | None) -> None:
        head = line.head
        if store is not None and line.store and line.store != store:
            self.problems.add(f"checkpoint line {line.line} belongs to store {line.store}, not"
                              f" this one ({store}): the database was replaced or wiped")
            return
        key = self.trusted.get(head.key_id)
        if key is None or not verify_signature(key, head.signature,
                                               head_message(head.seq, head.hash, head.at)):
            self.problems.add(f"checkpoint line {line.line} is not signed by a trusted key"
                              " (forged or edited)")
        elif head.seq > self.last_seq:
            self.problems.add(f"the chain ends at row {self.last_seq} but checkpoint line"
                              f" {line.line} holds a signed head at row {head.seq}: rows were"
                              " removed, or the chain was wiped or rolled back")


def _detail(row: AuditRow) -> dict[str, Any]:
    try:
        found = json.loads(row.detail)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _named(store: RelationalStore, page: int, upto: int) -> Iterator[event_log.Named]:
    for row in rows(store, page=page):
        if row.seq > upto:
            return
        yield from event_log.named_in(row.seq, row.space, _detail(row))


def verify(store: RelationalStore, trusted: dict[str, Ed25519PublicKey], deep: bool = False,
           tenant: str | None = None, anchors: Anchors | None = None, events: bool = True,
           page: int = 5000) -> ChainReport:
    """Check every row, then the head, the anchors and (`events`) the event log. Appends
    may go on meanwhile: the head is read after the rows, and rows it covers that arrived
    during the read are read too."""
    anchors = anchors or Anchors()
    checker = _Checker(trusted, deep, tenant, anchors)
    bound = int(store.query("SELECT COALESCE(MAX(seq), 0) FROM events")[0][0])
    while True:
        before = checker.count
        for row in rows(store, after=checker.last_seq, page=page):
            checker.row(row)
        heads = store.query("SELECT seq, hash, at, signature, key_id, v FROM audit_head"
                            " WHERE id = 1")
        head = heads[0] if heads else None
        if head is None or int(head[0]) <= checker.last_seq or checker.count == before:
            break
    checker.head(head)
    checker.outside(anchors)
    sealed = head is None or int(head[5]) >= VERSION
    if not sealed and checker.v2_seen:
        checker.problems.add("the head says the chain was never sealed, yet it holds rows of"
                             " the current version (the head was replaced)")
    if events and sealed:  # an unsealed chain predates the log's coverage
        event_log.check(store, _named(store, page, checker.last_seq), checker.coverage,
                        bound, checker.problems.add)
    problems = checker.problems.listed()
    if tenant is not None:
        return ChainReport(not problems, checker.tenant_rows, checker.tenant_last, deep,
                           problems, tenant)
    head_seq = int(head[0]) if head else 0
    return ChainReport(not problems, checker.count, head_seq, deep, problems)
