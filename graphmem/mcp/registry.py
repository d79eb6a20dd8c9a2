"""The access rules of the tools: each tool is registered with the one capability it needs
and its reach, the same rule shape GraphQL's root fields have (graphmem.service.guard).

`tools_for` is what a caller sees in `tools/list`: a reader's key does not list the write
tools it cannot call, and a key limited to some spaces does not list tenant-wide tools.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from mcp_types import ToolAnnotations

from graphmem.model.principals import Principal
from graphmem.model.roles import CAPABILITIES

Reach = Literal["space", "user", "tenant"]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ToolRule:
    name: str
    capability: str
    fn: Callable[..., Any]
    reach: Reach = "space"
    title: str = ""
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    @property
    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(title=self.title or None, read_only_hint=self.read_only,
                               destructive_hint=self.destructive if not self.read_only else None,
                               idempotent_hint=self.idempotent, open_world_hint=False)

    def listed_for(self, principal: Principal | None) -> bool:
        """Whether a caller may call this tool at all (its spaces are checked per call)."""
        if principal is None or not principal.can(self.capability):
            return False
        return self.reach != "tenant" or principal.tenant_wide


TOOLS: dict[str, ToolRule] = {}


def tool(capability: str, *, reach: Reach = "space", title: str = "", read_only: bool = False,
         destructive: bool = False, idempotent: bool = False) -> Callable[[F], F]:
    """Register `fn` as the tool named after it, needing `capability`."""
    if capability not in CAPABILITIES:
        raise ValueError(f"unknown capability {capability!r}")

    def register(fn: F) -> F:
        name = fn.__name__
        if name in TOOLS:
            raise ValueError(f"tool {name} is registered twice")
        TOOLS[name] = ToolRule(name, capability, fn, reach, title, read_only, destructive,
                               idempotent or read_only)
        return fn

    return register


def tools_for(principal: Principal | None) -> frozenset[str]:
    return frozenset(name for name, rule in TOOLS.items() if rule.listed_for(principal))
