"""Authentication: `Authorization: Bearer gm_sk_…` becomes the request's principal.

Without a valid credential the answer is 401, with three exceptions: the static pages under
`/ui/` and GraphiQL's page (static HTML; every operation they send still needs a key), and
WebSocket handshakes, whose key may arrive in the graphql-transport-ws `connection_init`
payload instead (browsers cannot set headers on a WebSocket). With GRAPHMEM_AUTH_REQUIRED=off
a keyless caller on loopback is the local admin; from anywhere else it still gets 401.
"""

from __future__ import annotations

import ipaddress

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from graphmem.auth import KeyStore, Principal, Unauthenticated, local_admin
from graphmem.http import state, ui
from graphmem.http.responses import send_error

OPEN = frozenset({"/healthz", "/readyz", "/metrics"})
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="graphmem"'}


def is_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    if not client:
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


async def principal_for(keys: KeyStore, authorization: str) -> Principal:
    """The principal behind an `Authorization` value, or Unauthenticated. A key verified
    moments ago costs no lookup and no worker thread (graphmem.auth.cache)."""
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("use `Authorization: Bearer gm_sk_…`")
    token = token.strip()
    found = keys.verified(token)
    return found if found is not None else await run_in_threadpool(keys.authenticate, token)


class AuthMiddleware:
    def __init__(self, app: ASGIApp, auth_required: bool, graphiql: bool) -> None:
        self.app = app
        self.auth_required = auth_required
        self.graphiql = graphiql

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] not in ("http", "websocket") or path in OPEN or ui.is_public(path):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        authorization = headers.get("authorization")
        try:
            found = await self._principal(scope, authorization, headers)
        except Unauthenticated as e:
            await self._refuse(scope, send, str(e))
            return
        state.request_state(scope)["principal"] = found
        await self.app(scope, receive, send)

    async def _principal(self, scope: Scope, authorization: str | None,
                         headers: Headers) -> Principal | None:
        if authorization:
            return await principal_for(state.keys(scope), authorization)
        if not self.auth_required and is_loopback(scope):
            return local_admin()
        if scope["type"] == "websocket" or self._graphiql_page(scope, headers):
            return None
        if not self.auth_required:
            raise Unauthenticated("keyless access is allowed from loopback only: send"
                                  " `Authorization: Bearer gm_sk_…`")
        raise Unauthenticated("authentication required: send `Authorization: Bearer gm_sk_…`"
                              " (create a key with `graphmem keys create`)")

    def _graphiql_page(self, scope: Scope, headers: Headers) -> bool:
        return (self.graphiql and scope.get("method") == "GET" and scope["path"] == "/graphql"
                and "text/html" in headers.get("accept", "") and not scope.get("query_string"))

    async def _refuse(self, scope: Scope, send: Send, reason: str) -> None:
        state.metrics(scope).error("UNAUTHENTICATED")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await send_error(send, 401, reason, "UNAUTHENTICATED", CHALLENGE)
