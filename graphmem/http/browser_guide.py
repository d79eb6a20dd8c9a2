"""The graphmem guide and style for Neo4j Browser, fetched by Browser after login.

Browser runs on the Neo4j server's origin and fetches these cross-origin (with `pragma` and
`cache-control` request headers, so it sends a preflight first). Both documents are public
and hold no data, so any origin may read them; no credentials are involved.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from graphmem.neo4j_local import browser

CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "pragma, cache-control",
    "Access-Control-Max-Age": "600",
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
}


def routes() -> list[BaseRoute]:
    async def guide(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        base = str(request.base_url).rstrip("/")
        return Response(browser.guide_html(base), media_type="text/html", headers=CORS)

    async def style(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=CORS)
        return Response(browser.style(), media_type="text/plain", headers=CORS)

    methods = ["GET", "HEAD", "OPTIONS"]
    return [Route(browser.GUIDE_PATH, guide, methods=methods),
            Route(browser.STYLE_PATH, style, methods=methods)]
