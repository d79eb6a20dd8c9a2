"""This manual under `/docs/`, under the CSP of `/ui/`: the site `make run` (or `make docs`)
builds into the checkout's `site/`, else the copy an installed wheel carries
(`graphmem/manual/`, put there when the wheel is built from a checkout with a built site).

The site is static and loads nothing from another host (its fonts are the system's, Mermaid
and Material's small scripts are files of the site), so a deployment carries its own manual
and the strict Content-Security-Policy holds. Without a build `/docs/` answers a page that
says how to make one, and names no path of the server's. Pages and files need no key and are
outside the per-client rate limit, like the explorer's.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from graphmem.http import csp

PREFIX = "/docs/"
SOURCE_SITE = Path(__file__).resolve().parents[2] / "site"
PACKAGED_SITE = Path(__file__).resolve().parents[1] / "manual"
BUILD_HINT = ("make docs", "mkdocs build --strict")
REVALIDATE = {"Cache-Control": "no-cache"}


def is_public(path: str) -> bool:
    return path == "/docs" or path.startswith(PREFIX)


def built_site() -> Path:
    """The checkout's site when it is built, else the installed wheel's copy (which may be
    absent too: then the how-to page answers)."""
    if (SOURCE_SITE / "index.html").is_file() or not (PACKAGED_SITE / "index.html").is_file():
        return SOURCE_SITE
    return PACKAGED_SITE


def not_built() -> HTMLResponse:
    """A page saying how to build the manual: a 503 that loads nothing and names no path."""
    body = (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>graphmem: the documentation is not built</title></head><body><main>"
        "<h1>The documentation is not built</h1>"
        "<p>This installation holds no build of the manual yet.</p>"
        f"<p>In a checkout, <code>make run</code> builds it when it is missing; so does"
        f" <code>{BUILD_HINT[0]}</code> (or <code>{BUILD_HINT[1]}</code> with the docs"
        " extras installed). Then reload this page. The manual is also on"
        " <code>docs/</code> of the repository.</p>"
        "</main></body></html>"
    )
    return HTMLResponse(body, status_code=503, headers={**csp.HEADERS, **REVALIDATE})


def serve(site: Path, relative: str) -> Response:
    """A file of the built site; a folder answers its index.html; nothing outside it."""
    root = site.resolve()
    if not (root / "index.html").is_file():
        return not_built()
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        return _not_found()
    if path.is_dir():
        if relative and not relative.endswith("/"):  # page links are relative to the folder
            return RedirectResponse(PREFIX + relative + "/", status_code=308)
        path = path / "index.html"
    if not path.is_file():
        return _not_found()
    return FileResponse(path, headers={**csp.HEADERS, **REVALIDATE})


def _not_found() -> Response:
    return Response("not found", status_code=404, media_type="text/plain", headers=csp.HEADERS)


def routes(site: Path | None = None) -> list[BaseRoute]:
    async def page(request: Request) -> Response:
        return serve(site or built_site(), request.path_params.get("path", ""))

    async def to_index(request: Request) -> Response:
        return RedirectResponse(PREFIX, status_code=308)

    return [
        Route("/docs", to_index, methods=["GET", "HEAD"]),
        Route(PREFIX, page, methods=["GET", "HEAD"]),
        Route(PREFIX + "{path:path}", page, methods=["GET", "HEAD"]),
    ]
