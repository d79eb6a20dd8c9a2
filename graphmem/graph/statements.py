"""The registry of named Cypher statements, loaded from the cypher/ folder at start-up.

One `.cypher` file per statement, named `group/name`; an unknown name fails fast, so a typo
is a start-up error and not a query that silently does nothing. No value is ever formatted
into query text: everything goes through parameters.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable

from graphmem.errors import GraphMemError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_COMMENT = re.compile(r"//[^\n]*")


class UnknownQuery(GraphMemError):
    """A statement name that is not in cypher/."""


def _walk(node: Traversable, prefix: str) -> Iterator[tuple[str, str]]:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            yield from _walk(child, f"{prefix}{child.name}/")
        elif child.name.endswith(".cypher"):
            yield f"{prefix}{child.name[: -len('.cypher')]}", child.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def registry() -> dict[str, str]:
    """Every statement by name, read once from the installed package."""
    return dict(_walk(resources.files("graphmem.cypher"), ""))


class Executions:
    """How many times this process handed each statement to the driver (the metric
    `graphmem_cypher_statements_total`): what a request costs in round trips, by name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def add(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)


EXECUTIONS = Executions()


def _text(name: str) -> str:
    try:
        return registry()[name]
    except KeyError:
        raise UnknownQuery(f"no Cypher statement named {name!r} in cypher/") from None


def query(name: str) -> str:
    """A statement's text, to run: every runner fetches it here, which counts it."""
    text = _text(name)
    EXECUTIONS.add(name)
    return text


def parameters(name: str) -> set[str]:
    """The `$parameters` a statement takes, so callers and tests can check them offline."""
    return set(_PARAM.findall(_COMMENT.sub("", _text(name))))


def statements(name: str) -> list[str]:
    """Split a multi-statement file (schema migrations) on `;` at line ends."""
    text = _COMMENT.sub("", _text(name))
    return [s.strip() for s in re.split(r";\s*(?:\n|$)", text) if s.strip()]
