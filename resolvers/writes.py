"""Write operations: pre-extracted facts in, reconciled results out; events published."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.model import Result, Space
from graphmem.resolvers import events
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


def _remembered(space: Space, arguments: dict[str, Any], results: Any) -> list[tuple[str, Any]]:
    return events.from_results("remembered", space, results)


def _forgotten(space: Space, arguments: dict[str, Any], results: Any) -> list[tuple[str, Any]]:
    return events.from_results("forgotten", space, results)


@operation("rememberFacts", "write", events=_remembered)
def remember_facts(call: Call, facts: Sequence[Mapping[str, Any]], text: str = "",
                   source: str = "", source_ref: str = "",
                   metadata: Mapping[str, Any] | None = None) -> list[Result]:
    return call.mem().remember_facts(facts, text=text, source=source, metadata=metadata,
                                     source_ref=source_ref)


@operation("forgetFacts", "write", events=_forgotten)
def forget_facts(call: Call, facts: Sequence[Mapping[str, Any]], text: str = "",
                 source: str = "", metadata: Mapping[str, Any] | None = None) -> list[Result]:
    return call.mem().forget_facts(facts, text=text, source=source, metadata=metadata)


@operation("remember", "write", events=_remembered)
def remember(call: Call, text: str, source: str = "",
             metadata: Mapping[str, Any] | None = None) -> list[Result]:
    """Extraction by the configured LLM, then the same reconciliation as rememberFacts."""
    return call.mem().remember(text, source=source, metadata=metadata)


@operation("forget", "write", events=_forgotten)
def forget(call: Call, text: str, source: str = "") -> list[Result]:
    return call.mem().forget(text, source=source)
