"""Authentication: `Authorization: Bearer gm_sk_…` becomes the request's principal.

Without a valid credential the answer is 401, with three exceptions: the static pages under
`/ui/` and `/docs/` and GraphiQL's page (static HTML; every operation they send still needs a
key), and WebSocket handshakes, whose key may arrive in the graphql-transport-ws `connection_init`
payload instead (browsers cannot set headers on a WebSocket). With GRAPHMEM_AUTH_REQUIRED=off
a keyless caller that passes the local-mode rules (graphmem.http.local) is the admin of the
`default` tenant; anyone else still gets 401. A request with a key then draws on that key's
rate bucket too, so a key spread over many addresses gets no more than one client would.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send
from strawberry.http.websocket_origin import normalize_allowed_origins

from graphmem.errors import Outage, Unauthenticated
from graphmem.http import docs, local, state, ui
from graphmem.http.limits import refuse_rate
from graphmem.http.responses import send_error
from graphmem.model.principals import Authenticator, Principal, local_admin
from graphmem.outage_log import OUTAGES

OPEN = frozenset({"/healthz", "/readyz", "/metrics"})
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="graphmem"'}


async def principal_for(keys: Authenticator, authorization: str) -> Principal:
    """The principal behind an `Authorization` value, or Unauthenticated. A key verified
    moments ago costs no lookup and no worker thread (graphmem.auth.cache)."""
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("use `Authorization: Bearer gm_sk_…`")
    token = token.strip()
    found = keys.verified(token)
    return found if found is not None else await run_in_threadpool(keys.authenticate, token)


class AuthMiddleware:
    def __init__(self, app: ASGIApp, auth_required: bool, graphiql: bool,
                 allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.auth_required = auth_required
        self.graphiql = graphiql
        self.allowed_origins = normalize_allowed_origins(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (scope["type"] not in ("http", "websocket") or path in OPEN or ui.is_public(path)
                or docs.is_public(path)):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        authorization = headers.get("authorization")
        try:
            found = await self._principal(scope, authorization, headers)
        except Unauthenticated as e:
            await self._refuse(scope, send, str(e))
            return
        except Outage as e:  # the key store is unreachable and the key not verified lately
            await self._unavailable(scope, send, e)
            return
        if found is not None and found.key_id is not None:
            limiter = state.limiter(scope)
            wait = limiter.take_key(found.key_id) if limiter is not None else 0.0
            if wait > 0 and limiter is not None:
                await refuse_rate(scope, send, limiter, wait)
                return
        request = state.request_state(scope)
        request["principal"] = found
        request["authorization"] = authorization
        await self.app(scope, receive, send)

    async def _principal(self, scope: Scope, authorization: str | None,
                         headers: Headers) -> Principal | None:
        if authorization:
            return await principal_for(state.keys(scope), authorization)
        refusal = None
        if not self.auth_required:
            refusal = local.refusal(scope, headers, self.allowed_origins)
            if refusal is None:
                return local_admin()
        if scope["type"] == "websocket" or self._graphiql_page(scope, headers):
            return None
        if refusal is not None:
            raise Unauthenticated(f"{refusal}: send `Authorization: Bearer gm_sk_…`")
        raise Unauthenticated("authentication required: send `Authorization: Bearer gm_sk_…`"
                              " (create a key with `graphmem keys create`)")

    def _graphiql_page(self, scope: Scope, headers: Headers) -> bool:
        return (self.graphiql and scope.get("method") == "GET" and scope["path"] == "/graphql"
                and "text/html" in headers.get("accept", "") and not scope.get("query_string"))

    async def _unavailable(self, scope: Scope, send: Send, error: Outage) -> None:
        OUTAGES.note(error, "authenticate")
        state.metrics(scope).error(error.code)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013})  # try again later
            return
        await send_error(send, 503, error.retry_hint(), error.code,
                         {"Retry-After": str(error.retry_after)})

    async def _refuse(self, scope: Scope, send: Send, reason: str) -> None:
        state.metrics(scope).error("UNAUTHENTICATED")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await send_error(send, 401, reason, "UNAUTHENTICATED", CHALLENGE)
