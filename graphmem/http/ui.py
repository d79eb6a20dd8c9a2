"""The memory explorer's built assets under `/ui/`, each response under the strict CSP.

The bundle is what `npm run build` writes to `ui/dist` (or `GRAPHMEM_UI_DIR`). Without it the
service still runs and `/ui/` answers a page that says how to build it. Asset names carry a
content hash, so they are cached for good; the pages themselves are never cached.
"""

from __future__ import annotations

import html
import json
import mimetypes
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from graphmem.http import csp
from graphmem.schema.examples import documents
from graphmem.settings import Settings

PREFIX = "/ui/"
SOURCE_BUNDLE = Path(__file__).resolve().parents[2] / "ui" / "dist"
BUILD_HINT = ("make ui", "cd ui && npm ci && npm run build")
NO_STORE = {"Cache-Control": "no-store"}
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
EXAMPLES_SLOT = '<script type="application/json" id="graphmem-examples">[]</script>'

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("font/ttf", ".ttf")
mimetypes.add_type("font/woff2", ".woff2")


def is_public(path: str) -> bool:
    """Static pages and assets: served without a key and outside the per-client rate limit
    (every call they make to `/graphql` still needs a key and is counted)."""
    return path == "/ui" or path.startswith(PREFIX)


def bundle_dir(settings: Settings) -> Path:
    return settings.ui_dir if settings.ui_dir is not None else SOURCE_BUNDLE


def not_built(settings: Settings, what: str) -> HTMLResponse:
    """A page saying how to build the bundle: a 503 that never hangs or loads anything,
    and names no path of the server's filesystem."""
    body = (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>graphmem: {html.escape(what)} is not built</title></head><body><main>"
        f"<h1>The {html.escape(what)} is not built</h1>"
        "<p>This installation holds no build of it yet (the server names no path of its"
        " own here).</p>"
        f"<p>Build it with <code>{BUILD_HINT[0]}</code> (or <code>{BUILD_HINT[1]}</code>;"
        " needs Node.js 20.19+ and npm), then reload this page. <code>make run</code> builds"
        " it when it is missing; <code>GRAPHMEM_UI_DIR</code> points at a bundle built"
        " elsewhere.</p>"
        "<p>The GraphQL API itself works without it: POST to <code>/graphql</code>.</p>"
        "</main></body></html>"
    )
    return HTMLResponse(body, status_code=503, headers={**csp.HEADERS, **NO_STORE})


def page(settings: Settings, name: str, what: str) -> Response:
    """One of the bundle's HTML pages, or the how-to-build page."""
    path = bundle_dir(settings) / name
    if not path.is_file():
        return not_built(settings, what)
    text = path.read_text(encoding="utf-8")
    if EXAMPLES_SLOT in text:
        text = text.replace(EXAMPLES_SLOT, EXAMPLES_SLOT.replace("[]", _examples()))
    return HTMLResponse(text, headers={**csp.HEADERS, **NO_STORE})


def _examples() -> str:
    """The example documents (schema/documents, validated against the schema by a test) as
    a JSON data block GraphiQL opens its tabs with: data, never run, so the CSP holds; every
    `<`, `>` and `&` is escaped so no text can end the block."""
    found = [{"name": name, "query": text} for name, text in documents().items()]
    return (json.dumps(found).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def asset(settings: Settings, relative: str) -> Response:
    """A file of the bundle's assets folder; anything outside it is not found."""
    root = (bundle_dir(settings) / "assets").resolve()
    path = (root / relative).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return Response("not found", status_code=404, media_type="text/plain",
                        headers=csp.HEADERS)
    return FileResponse(path, headers={**csp.HEADERS, **IMMUTABLE})


def routes(settings: Settings) -> list[BaseRoute]:
    async def index(request: Request) -> Response:
        return page(settings, "index.html", "web UI")

    async def assets(request: Request) -> Response:
        return asset(settings, request.path_params["path"])

    async def to_index(request: Request) -> Response:
        return RedirectResponse(PREFIX, status_code=308)

    return [
        Route("/ui", to_index, methods=["GET", "HEAD"]),
        Route(PREFIX, index, methods=["GET", "HEAD"]),
        Route(PREFIX + "assets/{path:path}", assets, methods=["GET", "HEAD"]),
    ]
