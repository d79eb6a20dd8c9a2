"""Relay's object identification: an object found again by the type, space and id its
global id names. The space comes from the id and passes the guard like any other."""

from __future__ import annotations

from typing import Any

from graphmem.errors import InvalidInput
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


def _fetch(call: Call, type: str, local: str) -> Any:
    mem = call.mem()
    if type == "Fact":
        return mem.records.fact(local)
    if type == "Conflict":
        return mem.review.conflict(local)
    if type == "Entity":
        return mem.entities.by_key(local)
    if type == "AuditEntry":
        if not local.isdigit():
            raise InvalidInput(f"audit entry {local[:20]!r} is not a sequence number")
        return mem.records.audit_entry(int(local))
    if type == "Space":
        return mem.records.space_info()
    raise InvalidInput(f"no node type {type!r}")


@operation("node", "read")
def node(call: Call, type: str, local: str) -> Any:
    return _fetch(call, type, local)


@operation("nodes", "read")
def nodes(call: Call, type: str, local: str) -> Any:
    """One of the ids `nodes` was given (each is admitted for its own space)."""
    return _fetch(call, type, local)
