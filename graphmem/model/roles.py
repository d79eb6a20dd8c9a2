"""Roles map to sets of capabilities; a guard checks capabilities, never role names."""

from __future__ import annotations

from graphmem.errors import InvalidInput

CAPABILITIES: frozenset[str] = frozenset({"read", "write", "delete", "verify", "approve", "admin",
                                         "backfill"})

ROLES: dict[str, frozenset[str]] = {
    "reader": frozenset({"read"}),
    "writer": frozenset({"read", "write"}),
    "approver": frozenset({"read", "write", "approve"}),
    "auditor": frozenset({"read", "verify"}),
    "steward": frozenset({"read", "write", "delete"}),
    "importer": frozenset({"read", "write", "backfill"}),
    "admin": CAPABILITIES,
}


def capabilities_for(role: str) -> frozenset[str]:
    """The role's capabilities; an unknown role is an error, never an empty set."""
    try:
        return ROLES[role]
    except KeyError:
        raise InvalidInput(f"unknown role {role!r}: use one of {', '.join(ROLES)}") from None
