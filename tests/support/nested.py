"""Arguments built for one value deep inside them (the tests that walk a schema's numbers)."""

from __future__ import annotations

from typing import Any


def set_at(value: Any, path: list[str], number: float) -> Any:
    """`value` with `number` at `path` (a list takes it in its first element)."""
    if not path:
        return number
    if isinstance(value, list):
        return [set_at(value[0] if value else {}, path, number)]
    return {**(value or {}), path[0]: set_at((value or {}).get(path[0]), path[1:], number)}
