"""The mirror's side of the Python API: audit, receipts, decisions, erasure and retention.

`GraphMem` inherits these operations, and `audit_operations` makes every public operation of
GraphMem (these and the others, reads included) append one audit row: who called, what,
and the outcome (ok, denied, or the error's type), never memory content. A call nested in
another operation (remember → remember_facts) is recorded once, by the outer one.

Rows are queued, not written, in the caller's path (see `Mirror`): a read or a denial adds
its row to the mirror's queue; a call that committed graph changes has its row kept with its
outbox entries (durable with the write; one row per entry, with the event id and counts) and
queues only a marker of its place. Whatever reads the chain (`verify_audit`, `audit_log`,
`attest`) flushes the queue first.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from graphmem.errors import AccessDenied, InvalidInput
from graphmem.graph import reads
from graphmem.mirror import audit, outbox, receipts
from graphmem.lifecycle import erasure
from graphmem.mirror.keys import public_pem
from graphmem.model import Fact, Space

if TYPE_CHECKING:
    from graphmem.service.runtime import Runtime
    from graphmem.settings import Settings

C = TypeVar("C", bound=type)
NOT_AUDITED = frozenset({"close", "drain", "export_public_key"})
_INSIDE: ContextVar[bool] = ContextVar("graphmem_audited_call", default=False)


def summary(result: Any) -> dict[str, Any]:
    """What an audit row says about a result: counts and ids, never content."""
    if isinstance(result, dict) and isinstance(result.get("receipt"), dict):
        body = result["receipt"]
        return {k: body[k] for k in ("id", "kind", "scope", "facts") if k in body}
    if isinstance(result, list | tuple):
        return {"count": len(result)}
    if hasattr(result, "ok") and isinstance(result.ok, bool):
        return {"ok": result.ok}
    return {}


def _audited(operation: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _INSIDE.get():
            return fn(self, *args, **kwargs)
        token = _INSIDE.set(True)
        call = outbox.AuditCall(self._caller_name(), operation, self.space.tenant)
        call_token = outbox.CALL.set(call)
        mirror = self.runtime.mirror
        mirror.touch(self.space.key)
        try:
            result = fn(self, *args, **kwargs)
        except AccessDenied as e:
            self._audit(operation, "denied", {"reason": str(e)})
            raise
        except Exception as e:
            mirror.mark(call.events)  # what did commit carries its own row
            self._audit(operation, "error", {"error": type(e).__name__})
            raise
        finally:
            outbox.CALL.reset(call_token)
            _INSIDE.reset(token)
        if call.events:
            mirror.mark(call.events)  # the rows are in the committed outbox entries
        else:
            self._audit(operation, "ok", summary(result))
        return result

    return wrapper


def audit_operations(cls: C) -> C:
    """Class decorator: wrap every public method (inherited ones included) in an audit row."""
    for name, fn in inspect.getmembers(cls, inspect.isfunction):
        if not name.startswith("_") and name not in NOT_AUDITED:
            setattr(cls, name, _audited(name, fn))
    return cls


class MirrorOperations:
    """Mixed into GraphMem: it provides runtime, space, caller, settings and _require."""

    runtime: Runtime
    space: Space
    caller: Any
    settings: Settings

    if TYPE_CHECKING:
        def _require(self, capability: str) -> None: ...
        def _subject(self, subject: str | None) -> str | None: ...

    def _caller_name(self) -> str:
        return str(getattr(self.caller, "name", self.caller))

    def _audit(self, operation: str, outcome: str, detail: dict[str, Any]) -> None:
        self.runtime.mirror.audit(audit.AuditEntry(self.space.key, self._caller_name(),
                                                   operation, outcome, detail))

    def drain(self) -> int:
        """Apply this space's pending outbox entries to the mirror now (a background thread
        normally does it within milliseconds of each write); returns how many were applied."""
        return self.runtime.mirror.drain([self.space.key])

    # ---- audit -----------------------------------------------------------------------------
    def verify_audit(self, deep: bool = False) -> audit.ChainReport:
        """Check the whole audit chain: hashes, links and the signed head (`deep`: every
        row's signature too)."""
        self._require("verify")
        return self.runtime.mirror.verify(deep)

    def audit_log(self, limit: int = 50, before: int | None = None,
                  operation: str | None = None) -> list[audit.AuditRow]:
        """This tenant's audit rows, newest first."""
        self._require("verify")
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000")
        self.runtime.mirror.flush()
        return audit.listing(self.runtime.store, self.space.tenant, limit, before, operation)

    # ---- decisions and receipts ----------------------------------------------------------------
    def _active_of(self, subjects: Iterable[str] | None) -> tuple[list[str], list[Fact]]:
        graph, key = self.runtime.graph, self.space.key
        if subjects is None:
            return [], reads.facts(graph, key)
        names = [self._subject(s) or "" for s in subjects]
        if not names:
            raise InvalidInput("name at least one subject")
        return names, [f for name in dict.fromkeys(names) for f in reads.facts(graph, key, name)]

    def record_decision(self, action: str, subjects: Iterable[str]) -> dict[str, Any]:
        """Snapshot the exact ACTIVE facts of the subjects an action relied on; returns the
        signed decision receipt with the snapshot beside it."""
        self._require("write")
        if not action.strip():
            raise InvalidInput("describe the action the decision is about")
        names, facts = self._active_of(subjects)
        mirror = self.runtime.mirror
        return receipts.record_decision(
            self.runtime.store, mirror.ensure_registered(), mirror.cipher, self.space.key,
            str(getattr(self.caller, "name", self.caller)), action, names, facts)

    def attest(self, subjects: Iterable[str] | None = None) -> dict[str, Any]:
        """A signed statement of what memory holds now (the ACTIVE facts of the space, or of
        some subjects) and where the audit chain stands."""
        self._require("read")
        names, facts = self._active_of(subjects)
        mirror = self.runtime.mirror
        mirror.flush()  # the head it signs covers every row queued before
        head = self.runtime.store.query("SELECT seq, hash FROM audit_head WHERE id = 1")
        fields = {"subjects": names or None, "audit_seq": int(head[0][0]) if head else 0,
                  "audit_hash": str(head[0][1]) if head else audit.GENESIS}
        return receipts.snapshot_receipt(self.runtime.store, mirror.ensure_registered(),
                                         mirror.cipher, "attestation", self.space.key, facts,
                                         fields)

    def receipt(self, receipt_id: str) -> dict[str, Any]:
        """A receipt issued earlier, found only from inside its tenant."""
        self._require("read")
        return receipts.stored(self.runtime.store, self.runtime.mirror.cipher, receipt_id,
                               self.space.tenant)

    def export_public_key(self) -> str:
        """The current signing public key (PEM): all a third party needs for verify_receipt."""
        return public_pem(self.runtime.mirror.signer.public)

    def verify_receipt(self, receipt: Mapping[str, Any], public_key: str | None = None
                       ) -> receipts.Verdict:
        """Check a receipt against `public_key` alone when given (what a third party holds),
        else against this deployment's keys, retired ones included. Audited either way."""
        if public_key is not None:
            return receipts.verify_receipt(receipt, public_key)  # a bad key: InvalidInput
        return receipts.check(receipt, self.runtime.mirror.trusted())

    # ---- erasure -------------------------------------------------------------------------------
    def delete(self, fact_id: str | None = None, subject: str | None = None) -> dict[str, Any]:
        """Erase one fact (with the tombstones naming it) or every fact of a subject, from
        the graph, the mirror, embeddings and caches; returns a signed receipt."""
        self._require("delete")
        if (fact_id is None) == (subject is None):
            raise InvalidInput("delete needs exactly one of fact_id or subject")
        target = (erasure.Target("fact", ids=(fact_id,)) if fact_id is not None
                  else erasure.Target("subject", subject=self._subject(subject)))
        return erasure.erase(self.runtime, self.space.key, target)

    def delete_all(self) -> dict[str, Any]:
        """Erase every fact, conflict and entity of this space."""
        self._require("delete")
        return erasure.erase(self.runtime, self.space.key, erasure.Target("space"))

    def purge_expired(self, retention: timedelta | float | None = None) -> dict[str, Any]:
        """Erase retired history (superseded, retracted, historical) older than the retention
        period in days: the one given, else the space's (set_retention), else
        GRAPHMEM_RETENTION_DAYS."""
        self._require("delete")
        target = erasure.purge_target(self.runtime.store, self.space.key, retention,
                                      self.settings.retention_days)
        return erasure.erase(self.runtime, self.space.key, target)

    def set_retention(self, days: timedelta | float | None) -> str:
        """This space's retention period for purge_expired (None: back to the default)."""
        self._require("admin")
        erasure.set_retention(self.runtime.store, self.space.key, days)
        return ("retention: default" if days is None
                else f"retention: {erasure.days(days):g} days")

    def erase_subtree(self, level: str = "user") -> dict[str, Any]:
        """Erase every space of this space's user (level 'user') or tenant ('tenant')."""
        self._require("delete")
        if level not in ("user", "tenant"):
            raise InvalidInput("level is 'user' or 'tenant'")
        user = self.space.user if level == "user" else None
        return erasure.erase_subtree(self.runtime, self.space.tenant, user)
