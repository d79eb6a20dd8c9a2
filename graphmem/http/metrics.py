"""`/metrics`: the Prometheus text of the process's counters, behind an optional token."""

from __future__ import annotations

import hmac

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response

from graphmem.http.responses import error_body
from graphmem.service.metrics import Metrics


def metrics_endpoint(token: str | None) -> object:
    """The `/metrics` handler, guarded by the metrics token when one is configured."""

    async def endpoint(request: Request) -> Response:
        metrics: Metrics = request.app.state.metrics
        if token is not None:
            sent = request.headers.get("authorization", "")
            if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
                metrics.error("UNAUTHENTICATED")
                return Response(error_body("send `Authorization: Bearer <GRAPHMEM_METRICS_TOKEN>`",
                                           "UNAUTHENTICATED"), status_code=401,
                                media_type="application/json")
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return endpoint
