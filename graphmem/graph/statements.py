"""The registry of named Cypher statements, loaded from the cypher/ folder at start-up.

One `.cypher` file per statement, named `group/name`; an unknown name fails fast, so a typo
is a start-up error and not a query that silently does nothing. No value is ever formatted
into query text: everything goes through parameters.

Text that many statements repeat (the columns of a Fact; when an edge belongs to the graph a
traversal reads) is written once, as a fragment in `cypher/fragments/`; the parameters a
fragment names are those of each statement that includes it. A statement names it with the
marker `@include(fragments/NAME)`, which the registry replaces with the fragment's text when
it loads; whole-line comments of the fragment are dropped. A fragment is not a statement and
includes nothing, and `@` is not Cypher, so a marker left unexpanded could never run.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable

from graphmem.errors import GraphMemError

FRAGMENTS = "fragments/"
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_COMMENT = re.compile(r"//[^\n]*")
_INCLUDE = re.compile(r"@include\(([^()\s]*)\)")


class UnknownQuery(GraphMemError):
    """A statement name that is not in cypher/."""


class BadInclude(GraphMemError):
    """An include marker that names no fragment, or a fragment that cannot be spliced."""


def _walk(node: Traversable, prefix: str) -> Iterator[tuple[str, str]]:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            yield from _walk(child, f"{prefix}{child.name}/")
        elif child.name.endswith(".cypher"):
            yield f"{prefix}{child.name[: -len('.cypher')]}", child.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def registry() -> dict[str, str]:
    """Every statement by name, read once from the installed package, fragments spliced in."""
    files = dict(_walk(resources.files("graphmem.cypher"), ""))
    fragments = {name: fragment(name, text) for name, text in files.items()
                 if name.startswith(FRAGMENTS)}
    return {name: expand(name, text, fragments) for name, text in files.items()
            if not name.startswith(FRAGMENTS)}


def fragment(name: str, text: str) -> str:
    """A fragment's text as it is spliced: without its comment lines and outer blank lines.

    A comment at a line's end would swallow whatever follows the marker on the statement's
    line, so a fragment keeps its comments on lines of their own.
    """
    lines = [line.rstrip() for line in text.splitlines() if not line.lstrip().startswith("//")]
    body = "\n".join(lines).strip()
    if not body:
        raise BadInclude(f"fragment {name!r} holds only comments")
    if "//" in body:
        raise BadInclude(f"fragment {name!r}: put its comments on lines of their own")
    if "@include" in body:
        raise BadInclude(f"fragment {name!r} includes another: a fragment holds text only")
    return body


def expand(name: str, text: str, fragments: Mapping[str, str]) -> str:
    """`text` with each include marker replaced by its fragment, whose further lines are
    indented to the marker's column so the statement reads as if written out."""

    def splice(marker: re.Match[str]) -> str:
        wanted = marker.group(1)
        line_start = text.rfind("\n", 0, marker.start()) + 1
        if "//" in text[line_start:marker.start()]:
            raise BadInclude(f"{name}: an include marker inside a comment would break the "
                             "statement: name the fragment without the marker")
        if wanted not in fragments:
            known = ", ".join(sorted(fragments)) or "none"
            raise BadInclude(f"{name}: @include({wanted}) names no fragment in cypher/ "
                             f"(fragments: {known})")
        indent = "\n" + " " * (marker.start() - line_start)
        return fragments[wanted].replace("\n", indent)

    expanded = _INCLUDE.sub(splice, text)
    if "@include" in expanded:
        raise BadInclude(f"{name}: malformed include marker: write @include({FRAGMENTS}NAME)")
    return expanded


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
