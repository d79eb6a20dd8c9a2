"""Authentication failures: distinct from AccessDenied, which means 'known, but not allowed'."""

from __future__ import annotations

from graphmem.errors import GraphMemError


class Unauthenticated(GraphMemError):
    """No credential, or one that is unknown or revoked: send `Authorization: Bearer gm_sk_…`."""
