"""A principal: the authenticated caller, its tenant, role and (optionally) allowed spaces.

The tenant of every space a principal touches comes from the principal itself, so a key of
tenant A can name no space of tenant B. Allowed spaces narrow it further: each entry is a
prefix of `user/agent/run` ("alice" admits every agent and run of user alice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from graphmem.errors import AccessDenied, InvalidInput
from graphmem.model import DEFAULT_PART, Space
from graphmem.model.roles import capabilities_for

_PART = re.compile(r"^[A-Za-z0-9_.@:\-]{1,128}$")


@dataclass(frozen=True)
class Principal:
    id: str
    name: str
    tenant: str
    role: str
    spaces: tuple[str, ...] | None = None
    key_id: str | None = None
    local: bool = False
    source: str | None = None

    @property
    def capabilities(self) -> frozenset[str]:
        return capabilities_for(self.role)

    @property
    def sources(self) -> frozenset[str] | None:
        """The sources its key is bound to (`--source`; the tenant's mapping binds more);
        None for the keyless local admin, who may name any."""
        if self.local:
            return None
        return frozenset({self.source}) if self.source else frozenset()

    def can(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def tenant_wide(self) -> bool:
        """Unrestricted within its tenant: may run tenant-level operations."""
        return self.spaces is None

    def space(self, raw: str | None) -> Space:
        """The space a request names: `user/agent/run` in the principal's tenant, or
        `tenant/user/agent/run` with the principal's own tenant."""
        parts = [p if p else DEFAULT_PART for p in (raw or "").split("/")] if raw else []
        if len(parts) > 4:
            raise InvalidInput(f"space {raw!r} has more than four parts (tenant/user/agent/run)")
        tenant = self.tenant
        if len(parts) == 4:
            tenant = parts.pop(0)
            if tenant != self.tenant:
                raise AccessDenied(f"space {raw!r} belongs to another tenant")
        try:
            return Space(tenant, *parts)
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    def tenant_space(self, raw: str | None) -> Space:
        """The tenant a request names (default: the principal's own) as its default space;
        another tenant is denied."""
        tenant = self.tenant if raw is None else raw
        if tenant != self.tenant:
            raise AccessDenied(f"tenant {raw!r} is not {self.name!r}'s tenant")
        try:
            return Space(tenant)
        except ValueError as e:
            raise InvalidInput(str(e).replace("space tenant", "tenant")) from None

    def user_space(self, raw: str) -> Space:
        """The user a request names, `user` in the principal's tenant or `tenant/user`
        naming its own tenant, as that user's default space."""
        parts = raw.split("/")
        if len(parts) > 2 or not all(parts):
            raise InvalidInput(f"user {raw!r} is invalid: name a user (`user`, or"
                               " `tenant/user` in your own tenant)")
        tenant = self.tenant_space(parts[0] if len(parts) == 2 else None).tenant
        try:
            return Space(tenant, parts[-1])
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    def holds_user(self, space: Space) -> bool:
        """In scope for every space of the space's user: the tenant's, and allowed either
        the whole tenant or that user as a whole (`alice`, not just `alice/bot`)."""
        if space.tenant != self.tenant:
            return False
        return self.spaces is None or space.user in self.spaces

    def admits(self, space: Space) -> bool:
        """In scope: the principal's tenant and, when restricted, one of its allowed spaces."""
        if space.tenant != self.tenant:
            return False
        if self.spaces is None:
            return True
        parts = (space.user, space.agent, space.run)
        return any(tuple(entry.split("/")) == parts[: entry.count("/") + 1]
                   for entry in self.spaces)


def check_spaces(spaces: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Validate allowed-space prefixes (`user`, `user/agent`, `user/agent/run`)."""
    if spaces is None:
        return None
    for entry in spaces:
        parts = entry.split("/")
        if len(parts) > 3 or not all(_PART.match(p) for p in parts):
            raise InvalidInput(
                f"allowed space {entry!r} is invalid: use user, user/agent or user/agent/run"
                " (letters, digits or _ . @ : -)"
            )
    return tuple(dict.fromkeys(spaces))


def local_admin() -> Principal:
    """The keyless caller of local mode (GRAPHMEM_AUTH_REQUIRED=off): the admin of the
    `default` tenant, and of no other."""
    return Principal(id="local", name="local", tenant=DEFAULT_PART, role="admin", local=True)


INVALID = "the API key is unknown or revoked"


class Authenticator(Protocol):
    """What a transport checks a credential with (graphmem.auth.keys.KeyStore)."""

    def verified(self, token: str) -> Principal | None:
        """The principal of a key verified moments ago, or None: call `authenticate`."""

    def authenticate(self, token: str) -> Principal:
        """The principal behind a live key; anything else raises Unauthenticated."""
