"""Write operations: pre-extracted facts in, reconciled results out (subscribers hear of
them from the change log every write commits, see graphmem.service.feed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.model import Result
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("rememberFacts", "write")
def remember_facts(call: Call, facts: Sequence[Mapping[str, Any]], text: str = "",
                   source: str = "", source_ref: str = "",
                   metadata: Mapping[str, Any] | None = None) -> list[Result]:
    return call.mem().remember_facts(facts, text=text, source=source, metadata=metadata,
                                     source_ref=source_ref)


@operation("forgetFacts", "write")
def forget_facts(call: Call, facts: Sequence[Mapping[str, Any]], text: str = "",
                 source: str = "", metadata: Mapping[str, Any] | None = None) -> list[Result]:
    return call.mem().forget_facts(facts, text=text, source=source, metadata=metadata)


@operation("remember", "write")
def remember(call: Call, text: str, source: str = "",
             metadata: Mapping[str, Any] | None = None, source_ref: str = "") -> list[Result]:
    """Extraction by the configured LLM, then the same reconciliation as rememberFacts."""
    return call.mem().remember(text, source=source, metadata=metadata, source_ref=source_ref)


@operation("forget", "write")
def forget(call: Call, text: str, source: str = "") -> list[Result]:
    return call.mem().forget(text, source=source)
