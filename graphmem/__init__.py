"""graphmem: graph-native memory for AI agents."""

from graphmem.errors import GraphMemError
from graphmem.lifecycle.erasure import erase_subtree
from graphmem.mirror.receipts import verify_receipt
from graphmem.model import Action, Fact, Result, Space, Status
from graphmem.service.memory import Caller, GraphMem

__all__ = ["Action", "Caller", "Fact", "GraphMem", "GraphMemError", "Result", "Space", "Status",
           "erase_subtree", "verify_receipt"]
__version__ = "0.1.0"
