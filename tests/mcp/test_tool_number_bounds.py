"""Every number an MCP tool takes is bounded at the edge, as on GraphQL: the walk goes over
each tool's JSON Schema, and every integer or number in it (top level, or in the objects of
an array) gets values at the ends of what JSON carries, each in its own call with the tool's
other required arguments filled in. A value out of range is a tool error that says what it
got, never an internal error with a reference."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from support.api_support import Api, new_tenant
from support.mcp_support import McpSession, http, text_of
from support.nested import set_at

EXTREMES = {"integer": (2**63, -(2**63), 2**31, -1, 0), "number": (1e300, -1e300, 2.3e16, -1.0)}
# where a value at JSON's own end still means something (so it may be answered)
MEANINGFUL_AT_THE_END = {"set_reconcile_policy.authority.rank"}
FILLERS: dict[str, Any] = {"string": "x", "boolean": False, "integer": 1, "number": 0.5,
                           "object": {}}
NAMED = {"subject": "state", "value": "Redux", "user_id": "dev"}


@dataclass(frozen=True)
class Case:
    tool: str
    path: str
    value: float

    def __str__(self) -> str:
        return f"{self.tool}:{self.path}={self.value:g}"


def _types(schema: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    if "$ref" in schema:
        return _types(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        return {t for option in schema["anyOf"] for t in _types(option, defs)}
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if kind else set()


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        return _resolve(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    for option in schema.get("anyOf", []):
        if _types(option, defs) - {"null"}:
            return _resolve(option, defs)
    return schema


def _numbers(schema: dict[str, Any], defs: dict[str, Any], path: str
             ) -> Iterator[tuple[str, str]]:
    kinds = _types(schema, defs)
    for kind in ("integer", "number"):
        if kind in kinds:
            yield path, kind
            return
    resolved = _resolve(schema, defs)
    if "array" in kinds and isinstance(resolved.get("items"), dict):
        yield from _numbers(resolved["items"], defs, path)
    for name, inner in resolved.get("properties", {}).items():
        yield from _numbers(inner, defs, f"{path}.{name}" if path else name)


def _filler(schema: dict[str, Any], defs: dict[str, Any], name: str) -> Any:
    resolved = _resolve(schema, defs)
    kinds = _types(schema, defs) - {"null"}
    if "enum" in resolved:
        return resolved["enum"][0]
    if "array" in kinds:
        return [_filler(resolved.get("items", {}), defs, name)]
    if "object" in kinds and "properties" in resolved:
        return {n: _filler(s, defs, n) for n, s in resolved["properties"].items()
                if n in resolved.get("required", []) or n in NAMED}
    if resolved.get("format") == "date-time":
        return "2026-01-01T00:00:00Z"
    return NAMED.get(name, FILLERS.get(next(iter(sorted(kinds)), "string"), "x"))


@pytest.fixture(scope="module")
def admin(serve_mcp: Callable[..., Api]) -> Iterator[McpSession]:
    api = serve_mcp()
    with http(f"{api.base}/mcp", api.key("admin", new_tenant())) as session:
        yield session


def test_every_number_a_tool_takes_out_of_its_range_is_a_clear_tool_error(
        admin: McpSession) -> None:
    tools = admin.run(lambda c: c.list_tools()).tools
    cases: list[tuple[Case, dict[str, Any]]] = []
    for tool in tools:
        schema = tool.input_schema
        defs = schema.get("$defs", {})
        for path, kind in _numbers(schema, defs, ""):
            head, *rest = path.split(".")
            base = {n: _filler(s, defs, n) for n, s in schema.get("properties", {}).items()
                    if n in schema.get("required", []) or n in NAMED}
            for value in EXTREMES[kind]:
                arguments = {**base, head: set_at(base.get(head) if rest else None, rest, value)}
                cases.append((Case(tool.name, path, value), arguments))
    assert {c.tool for c, _ in cases} >= {"check_before_act", "remember_facts"}
    problems: list[str] = []
    for case, arguments in cases:
        result = admin.call(case.tool, arguments)
        said = text_of(result)
        if "couldn't complete" in said:
            problems.append(f"{case}: internal error: {said}")
        at_the_end = abs(case.value) >= 2**31 or abs(case.value) >= 2.3e16
        if at_the_end and f"{case.tool}.{case.path}" not in MEANINGFUL_AT_THE_END:
            shown = str(int(case.value)) if float(case.value).is_integer() and abs(
                case.value) < 1e19 else f"{case.value:g}"
            if not result.is_error or (shown not in said and f"{case.value:g}" not in said):
                problems.append(f"{case}: {'an error' if result.is_error else 'answered'}"
                                f" without naming the value: {said[:200]}")
    assert problems == [], "\n".join(problems)
