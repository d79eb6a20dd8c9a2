"""Liveness and readiness, beside the authenticated API and outside its guard."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from graphmem.runtime import Runtime


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    runtime: Runtime = request.app.state.runtime
    checks = await run_in_threadpool(runtime.readiness)
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse({"status": "ready" if ready else "unavailable", "checks": checks},
                        status_code=200 if ready else 503)
