"""GraphQL resolvers: thin functions from a guarded call to graphmem's Python API.

They hold no Cypher and no business rule. Each is registered as an operation with the
capability it needs; `guard.execute` is the one path from a GraphQL field to data.
Installed as `graphmem.resolvers`.
"""

from graphmem.resolvers import (
    admin,
    audit,
    entities,
    nodes,
    reads,
    recall,
    receipts,
    review,
    streams,
    transfer,
    viewer,
    writes,
)
from graphmem.resolvers.context import RequestContext
from graphmem.resolvers.guard import Call, execute, subscribe
from graphmem.resolvers.registry import OPERATIONS, Operation

__all__ = [
    "OPERATIONS", "Call", "Operation", "RequestContext", "admin", "audit", "entities", "execute",
    "nodes", "reads", "recall", "receipts", "review", "streams", "subscribe", "transfer",
    "viewer", "writes",
]
