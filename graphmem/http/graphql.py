"""The `/graphql` endpoint: Strawberry's ASGI view with graphmem's context and error shape.

HTTP-level refusals (malformed JSON, wrong content type, batches) answer JSON with
`extensions.code` like every other error. WebSockets speak graphql-transport-ws only; a key
may come in the `connection_init` payload as `{"authorization": "Bearer gm_sk_…"}`. A
handshake from a browser page is accepted from this server's own origin or one listed in
GRAPHMEM_ALLOWED_ORIGINS, else refused with 403; every operation on a socket is admitted
again (graphmem.http.sockets). A request may name its document by hash (persisted queries,
see graphmem.http.persisted).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from cross_web import AsyncHTTPRequestAdapter, HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLRequestData
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from graphmem.errors import InvalidInput, Unauthenticated
from graphmem.http import state
from graphmem.http.authn import principal_for
from graphmem.http.persisted import NotPersisted, PersistedQueries
from graphmem.http.responses import error_body
from graphmem.http.sockets import GuardedSocket
from graphmem.schema.examples import with_examples

ContextFactory = Callable[[Request | WebSocket], Awaitable[Any]]


CONTEXT_KEY = "graphmem.context"


class GraphQLEndpoint(GraphQL[Any, None]):
    graphql_transport_ws_handler_class = GuardedSocket

    def __init__(self, schema: Any, context: ContextFactory, graphiql: bool,
                 allowed_origins: tuple[str, ...] = (), max_operations: int = 20,
                 persisted: PersistedQueries | None = None) -> None:
        super().__init__(schema, graphql_ide="graphiql" if graphiql else None,
                         allow_queries_via_get=False,
                         subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
                         allowed_origins=allowed_origins,
                         max_subscriptions_per_connection=max_operations)
        self._context = context
        self._persisted = persisted or PersistedQueries({}, 0)

    @property
    def graphql_ide_html(self) -> str:
        return with_examples(super().graphql_ide_html)

    async def parse_http_body(self, request: AsyncHTTPRequestAdapter
                              ) -> GraphQLRequestData | list[GraphQLRequestData]:
        """The body, with a document named by its hash filled in."""
        data = await super().parse_http_body(request)
        if isinstance(data, list):
            return data
        try:
            data.query = self._persisted.resolve(data.query, data.extensions)
        except InvalidInput as e:
            raise HTTPException(400, str(e)) from None
        return data

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        try:
            response = await self.run(Request(scope=scope, receive=receive))
            retry_after = getattr(scope.get(CONTEXT_KEY), "retry_after", None)
            if retry_after:  # a store the request needed was unreachable
                response.headers["Retry-After"] = str(retry_after)
        except HTTPException as e:
            state.metrics(scope).error("BAD_USER_INPUT")
            response = Response(error_body(e.reason, "BAD_USER_INPUT"),
                                status_code=e.status_code, media_type="application/json")
        except NotPersisted as e:  # the client sends the document next: not an error status
            response = Response(error_body(str(e), e.code), media_type="application/json")
        await response(scope, receive, send)

    def parse_json(self, data: str | bytes) -> Any:
        """A body must be one JSON object ({query, variables, operationName}) in UTF-8."""
        try:
            parsed = super().parse_json(data)
        except UnicodeDecodeError:
            raise HTTPException(400, "the request body is not UTF-8 JSON") from None
        if not isinstance(parsed, dict | list):
            raise HTTPException(400, "the request body must be a JSON object with a `query`")
        return parsed

    async def get_context(self, request: Request | WebSocket, response: Any) -> Any:
        context = await self._context(request)
        request.scope[CONTEXT_KEY] = context  # read back for the response's headers
        return context

    async def on_ws_connect(self, context: Any) -> Any:
        """Bind the principal from the handshake header or the connection_init payload."""
        params = context.connection_params or {}
        authorization = params.get("authorization") or params.get("Authorization")
        if isinstance(authorization, str) and authorization:
            try:
                context.principal = await principal_for(context.keys, authorization)
                context.credential = authorization
            except Unauthenticated as e:
                context.metrics.error("UNAUTHENTICATED")
                raise ConnectionRejectionError({"message": str(e)}) from e
        if context.principal is None:
            context.metrics.error("UNAUTHENTICATED")
            raise ConnectionRejectionError({"message": "authentication required: send"
                                            " {\"authorization\": \"Bearer gm_sk_…\"}"})
        return await super().on_ws_connect(context)
