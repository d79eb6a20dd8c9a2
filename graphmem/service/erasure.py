"""`mem.erasure`: facts removed for good from both stores (one fact, a subject, the space, a
user's or tenant's spaces) and the retention of history, each with a signed receipt."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.lifecycle import erasure
from graphmem.model.audit import AuditCall
from graphmem.service.audit import Auditor, audited
from graphmem.service.context import SpaceContext


class Erasure:
    """Erasure for good and the retention of history, each with a signed receipt."""

    def __init__(self, ctx: SpaceContext, auditor: Auditor) -> None:
        self.ctx = ctx
        self.auditor = auditor

    @audited("delete")
    def delete(self, call: AuditCall, fact_id: str | None = None,
               subject: str | None = None) -> dict[str, Any]:
        """Erase one fact (with the tombstones naming it) or every fact of a subject, from
        the graph, the mirror, embeddings and caches; returns a signed receipt."""
        self.ctx.require("delete")
        if (fact_id is None) == (subject is None):
            raise InvalidInput("delete needs exactly one of fact_id or subject")
        target = (erasure.Target("fact", ids=(fact_id,)) if fact_id is not None
                  else erasure.Target("subject", subject=self.ctx.subject(subject)))
        return erasure.erase(self.ctx.runtime, self.ctx.key, target, call)

    @audited("delete_all")
    def delete_all(self, call: AuditCall) -> dict[str, Any]:
        """Erase every fact, conflict and entity of this space."""
        self.ctx.require("delete")
        return erasure.erase(self.ctx.runtime, self.ctx.key, erasure.Target("space"), call)

    @audited("purge_expired")
    def purge_expired(self, call: AuditCall, retention: timedelta | float | None = None
                      ) -> dict[str, Any]:
        """Erase retired history (superseded, retracted, historical) older than the retention
        period in days: the one given, else the space's (set_retention), else
        GRAPHMEM_RETENTION_DAYS."""
        self.ctx.require("delete")
        target = erasure.purge_target(self.ctx.runtime.store, self.ctx.key, retention,
                                      self.ctx.settings.retention_days)
        return erasure.erase(self.ctx.runtime, self.ctx.key, target, call)

    @audited("set_retention")
    def set_retention(self, call: AuditCall, days: timedelta | float | None) -> str:
        """This space's retention period for purge_expired (None: back to the default)."""
        self.ctx.require("admin")
        erasure.set_retention(self.ctx.runtime.store, self.ctx.key, days)
        return ("retention: default" if days is None
                else f"retention: {erasure.days(days):g} days")

    @audited("erase_subtree")
    def erase_subtree(self, call: AuditCall, level: str = "user") -> dict[str, Any]:
        """Erase every space of this space's user (level 'user') or tenant ('tenant')."""
        self.ctx.require("delete")
        if level not in ("user", "tenant"):
            raise InvalidInput("level is 'user' or 'tenant'")
        space = self.ctx.space
        user = space.user if level == "user" else None
        return erasure.erase_subtree(self.ctx.runtime, space.tenant, user, call)
