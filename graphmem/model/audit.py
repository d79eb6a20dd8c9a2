"""The audit chain as callers see it: an operation being audited, a stored row, and the
report of a verification."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

VERSION = 2


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
    v: int = VERSION

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "tenant": self.tenant, "space": self.space,
                "caller": self.caller, "operation": self.operation, "outcome": self.outcome,
                "detail": json.loads(self.detail), "hash": self.hash,
                "signature": self.signature, "key_id": self.key_id}


@dataclass
class ChainReport:
    """The outcome of `graphmem.mirror.verify.verify`: for the deployment, or for one tenant
    (`tenant`: its rows counted, other tenants' problems only counted)."""

    ok: bool
    rows: int
    head_seq: int
    deep: bool
    problems: list[str]
    tenant: str | None = None

    def __str__(self) -> str:
        what = "rows, hashes, links, signatures and head" if self.deep else (
            "rows, hashes, links and the signed head")
        if self.tenant is not None:
            what += f" (the signatures of tenant {self.tenant}'s rows)" if self.deep else ""
        if self.ok:
            return f"audit chain OK: {self.rows} {what} verified"
        shown = "\n".join(f"  - {p}" for p in self.problems)
        return f"audit chain BROKEN ({len(self.problems)} problem(s) in {self.rows} rows):\n{shown}"
