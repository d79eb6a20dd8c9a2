"""Vectors for the facts another process wrote and never embedded.

Embedding runs after a write returns, in the process that wrote (`embed_worker`). A host that
dies leaves its last facts without vectors; full-text still finds them, and the next process
that uses their space for the first time embeds them. A server does not wait for that: every
GRAPHMEM_EMBED_SWEEP_SECONDS it looks for facts recorded between three and one sweep periods
ago that still lack a vector, in every space, and hands them to its own embedding worker. Each
fact is in two consecutive windows, and one period is ample for the writer's own worker. A
sweep is skipped while this server's own worker has a backlog: the facts it finds may be in
that queue already, and the next sweep looks again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from graphmem.graph import recall
from graphmem.graph.driver import GraphDriver

log = logging.getLogger(__name__)

LIMIT = 5000  # facts per space per sweep; a longer backlog is taken by the next sweeps

Submit = Callable[[str, list[str]], object]


def unembedded_recent(graph: GraphDriver, period: float, now: datetime | None = None,
                      limit: int = LIMIT) -> dict[str, list[str]]:
    """Per space, facts recorded between three and one `period` ago still lacking a vector."""
    now = now or datetime.now(UTC)
    rows = recall.unembedded_recent(graph, now - timedelta(seconds=3 * period),
                                    now - timedelta(seconds=period), limit)
    return {str(r["space"]): [str(i) for i in r["ids"]] for r in rows if r["ids"]}


class EmbedSweep:
    """A daemon thread in server mode; `stop` ends it."""

    def __init__(self, graph: GraphDriver, submit: Submit, period: float,
                 busy: Callable[[], bool] = lambda: False) -> None:
        self._graph = graph
        self._submit = submit
        self._busy = busy
        self.period = period
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="graphmem-embed-sweep",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def once(self, now: datetime | None = None) -> int:
        """One sweep (as of `now`); returns how many facts it handed to the embedding
        worker."""
        found = unembedded_recent(self._graph, self.period, now)
        for space, ids in sorted(found.items()):
            log.info("space %s: %d fact(s) written elsewhere lack a vector; embedding them",
                     space, len(ids))
            self._submit(space, ids)
        return sum(len(ids) for ids in found.values())

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            if self._busy():
                continue
            try:
                self.once()
            except Exception as e:  # noqa: BLE001 - logged; the next sweep tries again
                log.warning("the sweep for facts lacking vectors failed: %s", e)
