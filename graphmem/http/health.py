"""Liveness and readiness, beside the authenticated API and outside its guard.

`/readyz` answers `ok` or `unavailable` per dependency, never the error itself (it can hold
host names, paths or a driver's message): the detail goes to the log under a reference that
the answer carries. Without Neo4j the server can do nothing: 503. Without the relational
store it still takes writes and answers reads (the graph's outbox holds the changes until the
mirror can apply them, keys verified lately keep working): 200, status `degraded`, so a
balancer keeps sending it traffic while the operator is told. It is rate limited like the
API, since each call reaches both stores. Its `detail` says how many facts of this process's
writes wait for their vectors: a lag, never a reason to be unready (full-text finds those
facts meanwhile).
"""

from __future__ import annotations

import logging
import uuid
from functools import lru_cache

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from graphmem.runtime import Runtime

log = logging.getLogger("graphmem.api.health")
DEGRADABLE = frozenset({"relational"})  # what the server can serve without for a while


@lru_cache(maxsize=1)
def _logged_ref(failures: tuple[tuple[str, str], ...]) -> str:
    """The reference of the log lines that hold these failures' detail: logged when they
    differ from the last ones logged (the one cached), so a probe every second through an
    outage adds no line after the first."""
    ref = uuid.uuid4().hex[:12]
    for name, detail in failures:
        log.error("ref=%s readiness %s: %s", ref, name, detail)
    return ref


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    runtime: Runtime = request.app.state.runtime
    checks = await run_in_threadpool(runtime.readiness)
    failing = {k for k, v in checks.items() if v != "ok"}
    status = "ready" if not failing else "degraded" if failing <= DEGRADABLE else "unavailable"
    body: dict[str, object] = {"status": status,
                               "checks": {k: "unavailable" if k in failing else "ok"
                                          for k in checks},
                               "detail": {"embedding_backlog": runtime.embedding_backlog()}}
    if failing:
        body["ref"] = _logged_ref(tuple((name, checks[name]) for name in sorted(failing)))
    return JSONResponse(body, status_code=503 if status == "unavailable" else 200)
