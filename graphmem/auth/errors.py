"""Authentication failures (the class lives with the other public errors)."""

from __future__ import annotations

from graphmem.errors import Unauthenticated

__all__ = ["Unauthenticated"]
