"""The access rules: every GraphQL root field is an operation with one required capability.

A field with no registered operation cannot run (the guard denies it), and a test compares
this registry with the schema, so a new field cannot slip past the guard.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from graphmem.model.roles import CAPABILITIES

Reach = Literal["space", "user", "tenant", "caller"]
REACHES: frozenset[str] = frozenset({"space", "user", "tenant", "caller"})
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Operation:
    """What an operation reaches: one `space` it names; every space of one `user` it names
    (the key must hold that whole user); the caller's whole `tenant` (a key for the whole
    tenant); or only the `caller` itself (its own key and the server it talks to, no memory
    of any space)."""

    name: str
    capability: str
    fn: Callable[..., Any]
    reach: Reach = "space"
    stream: bool = False

    @property
    def scoped(self) -> bool:
        """Names a space (or a user's spaces) rather than acting on the whole tenant or on
        the caller alone."""
        return self.reach in ("space", "user")


OPERATIONS: dict[str, Operation] = {}


def operation(name: str, capability: str, *, reach: Reach = "space",
              stream: bool = False) -> Callable[[F], F]:
    """Register `fn(call, **arguments)` as the resolver of root field `name`."""
    if capability not in CAPABILITIES:
        raise ValueError(f"operation {name}: unknown capability {capability!r}")
    if reach not in REACHES:
        raise ValueError(f"operation {name}: unknown reach {reach!r}")

    def register(fn: F) -> F:
        if name in OPERATIONS:
            raise ValueError(f"operation {name} is registered twice")
        OPERATIONS[name] = Operation(name, capability, fn, reach, stream)
        return fn

    return register
