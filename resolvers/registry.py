"""The access rules: every GraphQL root field is an operation with one required capability.

A field with no registered operation cannot run (the guard denies it), and a test compares
this registry with the schema, so a new field cannot slip past the guard.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from graphmem.auth import CAPABILITIES
from graphmem.model import Space

Events = Callable[[Space, dict[str, Any], Any], list[tuple[str, Any]]]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Operation:
    """`scoped` operations name a space; the others act on the caller's whole tenant."""

    name: str
    capability: str
    fn: Callable[..., Any]
    scoped: bool = True
    events: Events | None = None
    stream: bool = False


OPERATIONS: dict[str, Operation] = {}


def operation(name: str, capability: str, *, scoped: bool = True, events: Events | None = None,
              stream: bool = False) -> Callable[[F], F]:
    """Register `fn(call, **arguments)` as the resolver of root field `name`."""
    if capability not in CAPABILITIES:
        raise ValueError(f"operation {name}: unknown capability {capability!r}")

    def register(fn: F) -> F:
        if name in OPERATIONS:
            raise ValueError(f"operation {name} is registered twice")
        OPERATIONS[name] = Operation(name, capability, fn, scoped, events, stream)
        return fn

    return register
