"""What a caller asks a write to do, built once by the transport that received it (GraphQL,
MCP, the Python API's arguments) and passed down to the service unchanged."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Write:
    """One write: `facts` (None: the configured model extracts them from `text`), the
    message they came from, the `source` that says them, where the message lives
    (`source_ref`: a permalink, a message id), metadata every fact carries (a fact's own is
    merged over it), and whether every fact is a removal (`retract`: a forget)."""

    facts: tuple[Mapping[str, Any], ...] | None = None
    text: str = ""
    source: str = ""
    source_ref: str = ""
    metadata: Mapping[str, Any] | None = None
    retract: bool = False
    redacted: tuple[str, ...] = ()  # the kinds redaction removed from it (set by the service)

    @property
    def operation(self) -> str:
        """The operation it is: remember, remember_facts, forget or forget_facts."""
        verb = "forget" if self.retract else "remember"
        return verb if self.facts is None else f"{verb}_facts"
