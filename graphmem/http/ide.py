"""The GraphQL IDE a browser gets at `/graphql`: GraphiQL with the explorer plugin, built
from npm into the UI bundle (`ide.html`) and served from graphmem's own assets, so it works
without the internet and under the UI's Content-Security-Policy. Without a built bundle the
page says how to build it. Every other request goes to the GraphQL endpoint.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.http import ui
from graphmem.settings import Settings


def wants_ide(scope: Scope) -> bool:
    """A browser navigating to the endpoint: GET, HTML accepted, no query string (the same
    test the authentication layer uses to let the page through without a key)."""
    return (scope["type"] == "http" and scope.get("method") == "GET"
            and "text/html" in Headers(scope=scope).get("accept", "")
            and not scope.get("query_string"))


class IdeOrGraphQL:
    """`/graphql` over HTTP: the IDE page for browsers, the API for everything else."""

    def __init__(self, graphql: ASGIApp, settings: Settings) -> None:
        self.graphql = graphql
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if wants_ide(scope):
            await ui.page(self.settings, "ide.html", "GraphQL IDE")(scope, receive, send)
            return
        await self.graphql(scope, receive, send)
