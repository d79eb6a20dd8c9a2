"""Erasure and retention: facts removed for good from both stores, with signed receipts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.lifecycle import erasure
from graphmem.model.audit import AuditCall
from graphmem.service.context import SpaceContext


class Erasure:
    def __init__(self, ctx: SpaceContext) -> None:
        self.ctx = ctx

    def delete(self, call: AuditCall, fact_id: str | None = None,
               subject: str | None = None) -> dict[str, Any]:
        self.ctx.require("delete")
        if (fact_id is None) == (subject is None):
            raise InvalidInput("delete needs exactly one of fact_id or subject")
        target = (erasure.Target("fact", ids=(fact_id,)) if fact_id is not None
                  else erasure.Target("subject", subject=self.ctx.subject(subject)))
        return erasure.erase(self.ctx.runtime, self.ctx.key, target, call)

    def delete_all(self, call: AuditCall) -> dict[str, Any]:
        self.ctx.require("delete")
        return erasure.erase(self.ctx.runtime, self.ctx.key, erasure.Target("space"), call)

    def purge_expired(self, call: AuditCall, retention: timedelta | float | None = None
                      ) -> dict[str, Any]:
        self.ctx.require("delete")
        target = erasure.purge_target(self.ctx.runtime.store, self.ctx.key, retention,
                                      self.ctx.settings.retention_days)
        return erasure.erase(self.ctx.runtime, self.ctx.key, target, call)

    def set_retention(self, days: timedelta | float | None) -> str:
        self.ctx.require("admin")
        erasure.set_retention(self.ctx.runtime.store, self.ctx.key, days)
        return ("retention: default" if days is None
                else f"retention: {erasure.days(days):g} days")

    def erase_subtree(self, call: AuditCall, level: str = "user") -> dict[str, Any]:
        self.ctx.require("delete")
        if level not in ("user", "tenant"):
            raise InvalidInput("level is 'user' or 'tenant'")
        space = self.ctx.space
        user = space.user if level == "user" else None
        return erasure.erase_subtree(self.ctx.runtime, space.tenant, user, call)
