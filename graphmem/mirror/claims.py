"""This relational store's identity, and its claims on the spaces this process uses.

A space's first use claims it for this process's relational store (the store's id on its
Space node): drainers apply only the entries of spaces their store claimed (or nobody did),
so two deployments, or two test runs, that share a Neo4j but not a relational store never
take one another's entries. In one deployment every process shares the store, and any of
them may apply any entry.

The process that wrote an entry applies it (with whatever else is pending in its space, in
order). An entry still pending past GRAPHMEM_OUTBOX_LEASE_SECONDS lost its writer (the host
died, or cannot reach the relational store): a server's periodic sweep claims its space for
as long again, so one of the hosts left applies it, and the others leave it alone.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket

from graphmem.errors import Outage
from graphmem.graph import outbox
from graphmem.graph.driver import GraphDriver
from graphmem.mirror import apply as applying
from graphmem.mirror.db import RelationalStore
from graphmem.outage_log import OUTAGES

log = logging.getLogger(__name__)


class Claims:
    def __init__(self, graph: GraphDriver, store: RelationalStore) -> None:
        self._graph = graph
        self._store = store
        self._store_id: str | None = None
        self._seen: set[str] = set()
        self.holder = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"

    @property
    def store_id(self) -> str:
        if self._store_id is None:
            self._store_id = applying.store_id(self._store)
        return self._store_id

    def stale_spaces(self, lease_seconds: float) -> list[str]:
        """The spaces whose outbox entries waited past the lease, now claimed for this
        process's sweep (see cypher/outbox/claim_stale.cypher)."""
        return outbox.claim_stale(self._graph, self.store_id, self.holder, lease_seconds)

    def first_use(self, space: str) -> bool:
        """Claim `space` for this store (see cypher/outbox/claim_space.cypher) unless this
        process did already; True when it claimed it now. Never raises: a store that is down
        is retried on the next use."""
        if space in self._seen:
            return False
        try:
            owner = outbox.claim(self._graph, space, self.store_id)
        except Outage as e:  # the graph is down: one line for the outage, not one a space
            OUTAGES.note(e, f"claiming space {space} for the mirror")
            return False
        except Exception as e:  # noqa: BLE001 - the operation goes on; retried next time
            log.warning("could not claim space %s for the mirror yet: %s", space, e)
            return False
        self._seen.add(space)
        if owner != self.store_id:
            log.warning("space %s is mirrored into another relational store (%s): this"
                        " process's mirror leaves its changes to that store", space, owner)
        return True
