"""The MCP tools' rules: every tool has one, names its own rule when it calls the guard, and
a caller lists only what its key may call; errors are one line, masked where they must be."""

from __future__ import annotations

import asyncio
import inspect
import re

import pytest

from graphmem.errors import (
    AccessDenied,
    InvalidInput,
    LLMCallFailed,
    Neo4jUnavailable,
    Unauthenticated,
)
from graphmem.mcp import build_server, errors
from graphmem.mcp.registry import TOOLS, tools_for
from graphmem.model.principals import Principal
from graphmem.service import guard


def listed() -> set[str]:
    server = build_server(lambda: None)  # type: ignore[arg-type, return-value]
    return {t.name for t in asyncio.run(server.list_tools())}


def test_every_tool_has_a_rule_and_passes_the_guard_under_its_own_name() -> None:
    assert listed() == set(TOOLS)
    for name, rule in TOOLS.items():
        source = inspect.getsource(rule.fn)
        named = set(re.findall(r'call\(ctx, "(\w+)"', source))
        assert named == {name}, (name, named)


def test_a_key_lists_only_the_tools_its_role_may_call() -> None:
    reader = tools_for(Principal("k", "r", "t", "reader"))
    assert "recall" in reader and "export_public_key" in reader
    assert not reader & {"remember", "remember_facts", "forget", "record_decision",
                         "confirm_change", "delete", "set_reconcile_policy", "verify_audit"}
    assert tools_for(Principal("k", "a", "t", "admin")) == frozenset(TOOLS)
    scoped = tools_for(Principal("k", "a", "t", "admin", ("alice",)))
    assert not scoped & {"export_public_key", "verify_receipt", "verify_audit"}
    assert tools_for(None) == frozenset()


def test_the_service_guard_admits_tool_rules() -> None:
    rule = TOOLS["remember_facts"]
    with pytest.raises(Unauthenticated):
        guard.admit(None, rule, "alice")
    with pytest.raises(AccessDenied, match="lacks the write capability that remember_facts"):
        guard.admit(Principal("k", "r", "t", "reader"), rule, "alice")
    admitted = guard.admit(Principal("k", "w", "t", "writer"), rule, "alice/bot/run1")
    assert admitted.space is not None and admitted.space.key == "t/alice/bot/run1"
    tenant_wide = guard.admit(Principal("k", "a", "t", "admin"), TOOLS["verify_audit"], None)
    assert tenant_wide.space is None and tenant_wide.tenant == "t"


def test_errors_are_one_line_and_masked_where_they_name_infrastructure() -> None:
    assert errors.message(InvalidInput("fact field 'value' is required"), "x") == (
        "fact field 'value' is required")
    dead = errors.message(Neo4jUnavailable("Neo4j is not reachable at bolt://10.0.0.5:7687"),
                          "recall")
    assert dead == ("graphmem couldn't complete recall: the graph store (Neo4j) is unreachable;"
                    " retry in a few seconds")
    model = errors.message(LLMCallFailed("http://llm.internal answered 500"), "remember")
    assert "llm.internal" not in model and "model endpoint failed" in model
    crash = errors.message(KeyError("secret"), "history")
    assert re.fullmatch(r"graphmem couldn't complete history \(ref [0-9a-f]{12}\)", crash)
    assert errors.outcome(AccessDenied("no")) == "FORBIDDEN"
    assert errors.outcome(KeyError("x")) == "INTERNAL"
