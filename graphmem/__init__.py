"""graphmem: graph-native memory for AI agents.

The public names load on first use: a process that needs one part (the command line's
`--help`, a key-store command, a child that only reads settings) does not pay for the Neo4j
driver, the embedding runtime and the server it never touches.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.errors import GraphMemError
    from graphmem.lifecycle.erasure import erase_subtree
    from graphmem.mirror.receipts import verify_receipt
    from graphmem.model import Action, Fact, Result, Space, Status
    from graphmem.service.memory import Caller, GraphMem

_HOMES = {
    "Action": "graphmem.model", "Fact": "graphmem.model", "Result": "graphmem.model",
    "Space": "graphmem.model", "Status": "graphmem.model", "GraphMemError": "graphmem.errors",
    "Caller": "graphmem.service.memory", "GraphMem": "graphmem.service.memory",
    "erase_subtree": "graphmem.lifecycle.erasure", "verify_receipt": "graphmem.mirror.receipts",
}

__all__ = ["Action", "Caller", "Fact", "GraphMem", "GraphMemError", "Result", "Space", "Status",
           "erase_subtree", "verify_receipt"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    try:
        home = _HOMES[name]
    except KeyError:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}") from None
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
