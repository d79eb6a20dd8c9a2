"""What the lifecycle jobs use of a process's clients: the two stores, the mirror, the
embedder and the runner every graph write goes through. The jobs are handed them (a
`graphmem.runtime.Runtime`, built by whoever runs the job) and never build them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from neo4j import ManagedTransaction

from graphmem.graph.driver import GraphDriver
from graphmem.graph.outbox import Outbox
from graphmem.mirror.db import RelationalStore
from graphmem.model.audit import AuditCall
from graphmem.settings import Settings

if TYPE_CHECKING:
    from graphmem.embeddings import Embeddings
    from graphmem.mirror.mirror import Mirror

T = TypeVar("T")
P = ParamSpec("P")


class Clients(Protocol):
    settings: Settings
    graph: GraphDriver
    store: RelationalStore

    @property
    def mirror(self) -> Mirror: ...

    @property
    def embedder(self) -> Embeddings: ...

    def write(self, space: str, call: AuditCall | None,
              fn: Callable[Concatenate[ManagedTransaction, Outbox, P], T],
              *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn(tx, outbox, ...)` as one write transaction in `space`, the mirror told of
        what it committed."""
        ...
