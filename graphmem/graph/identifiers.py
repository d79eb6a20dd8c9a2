"""What cannot be a Cypher parameter (relationship types, labels) passes an allow-list here."""

from __future__ import annotations

import re
import unicodedata

from graphmem.errors import InvalidInput

SAFE_IDENTIFIER = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
RESERVED_TYPES = frozenset({"SUPERSEDES", "RETRACTS", "RESTORES", "ABOUT", "INVOLVES",
                            "IN_SPACE"})


def relation_type(relation: str) -> str:
    """Normalise a relation label to UPPER_SNAKE from [A-Z0-9_]; anything else is dropped."""
    ascii_text = unicodedata.normalize("NFKD", relation).encode("ascii", "ignore").decode()
    snake = re.sub(r"[^A-Za-z0-9]+", "_", re.sub(r"([a-z])([A-Z])", r"\1_\2", ascii_text))
    name = snake.strip("_").upper()[:64].rstrip("_")
    if name and name[0].isdigit():
        name = f"R_{name}"[:64]
    if not name or not SAFE_IDENTIFIER.match(name):
        raise InvalidInput(f"relation {relation[:80]!r} has no letters or digits to name it by")
    if name in RESERVED_TYPES:
        name = f"REL_{name}"
    return name


def checked(identifier: str) -> str:
    """Last line of defence before an identifier is placed in query text."""
    if not SAFE_IDENTIFIER.match(identifier):
        raise InvalidInput(f"unsafe Cypher identifier {identifier[:80]!r}")
    return identifier
