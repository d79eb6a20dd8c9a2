"""A griffe extension for the reference pages: a method decorated `@audited(...)` is called
without its `AuditCall` (the decorator hands it in), so its documented signature drops it."""

from __future__ import annotations

from typing import Any

import griffe


class DropAuditCall(griffe.Extension):
    def on_function_instance(self, *, node: Any, func: griffe.Function, agent: Any,
                             **kwargs: Any) -> None:
        if any(str(d.value).startswith("audited(") for d in func.decorators) \
                and "call" in func.parameters:
            del func.parameters["call"]
