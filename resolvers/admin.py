"""Administration of one space: its reconcile (source) policy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.model import Policy
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("setReconcilePolicy", "admin")
def set_reconcile_policy(call: Call, mode: str, authority: Mapping[str, int] | None = None,
                         curated: Sequence[str] = ()) -> tuple[str, Policy]:
    mem = call.mem()
    message = mem.review.set_reconcile_policy(mode, authority, curated)
    return message, mem.review.get_reconcile_policy()
