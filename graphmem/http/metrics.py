"""`/metrics`: the Prometheus text of the process's counters, behind GRAPHMEM_METRICS_TOKEN
when it is set, else for a scraper on this machine only (loopback, no proxy)."""

from __future__ import annotations

import hmac

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response

from graphmem.http.local import on_this_machine
from graphmem.http.responses import error_body
from graphmem.service.metrics import Metrics


def metrics_endpoint(token: str | None) -> object:
    """The `/metrics` handler, guarded by the metrics token when one is configured, else open
    to this machine's scrapers only."""

    async def endpoint(request: Request) -> Response:
        metrics: Metrics = request.app.state.metrics
        if token is None:
            remote = on_this_machine(request.scope)
            if remote is not None:
                metrics.error("FORBIDDEN")
                return Response(error_body(
                    f"/metrics without GRAPHMEM_METRICS_TOKEN is {remote}: set the token and"
                    " scrape with `Authorization: Bearer <token>`", "FORBIDDEN"),
                    status_code=403, media_type="application/json")
        else:
            sent = request.headers.get("authorization", "")
            if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
                metrics.error("UNAUTHENTICATED")
                return Response(error_body("send `Authorization: Bearer <GRAPHMEM_METRICS_TOKEN>`",
                                           "UNAUTHENTICATED"), status_code=401,
                                media_type="application/json")
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return endpoint
