"""Liveness and readiness, beside the authenticated API and outside its guard.

`/readyz` answers `ok` or `unavailable` per dependency, never the error itself (it can hold
host names, paths or a driver's message): the detail goes to the log under a reference that
the answer carries. It is rate limited like the API, since each call reaches both stores. Its
`detail` says how many facts of this process's writes wait for their vectors: a lag, never a
reason to be unready (full-text finds those facts meanwhile).
"""

from __future__ import annotations

import logging
import uuid

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from graphmem.runtime import Runtime

log = logging.getLogger("graphmem.api.health")


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    runtime: Runtime = request.app.state.runtime
    checks = await run_in_threadpool(runtime.readiness)
    ready = all(v == "ok" for v in checks.values())
    body: dict[str, object] = {"status": "ready" if ready else "unavailable",
                               "checks": {k: "ok" if v == "ok" else "unavailable"
                                          for k, v in checks.items()},
                               "detail": {"embedding_backlog": runtime.embedding_backlog()}}
    if not ready:
        ref = uuid.uuid4().hex[:12]
        for name, detail in checks.items():
            if detail != "ok":
                log.error("ref=%s readiness %s: %s", ref, name, detail)
        body["ref"] = ref
    return JSONResponse(body, status_code=200 if ready else 503)
