"""The API's composition: `/graphql` (and the IDE page browsers get there), `/metrics`, the
web UI's static pages under `/ui/`, the middlewares, and what they share.

The metrics live as long as the app; the key store and the change feed are opened in the
lifespan with the runtime. Middlewares run outermost first: the client address (from
trusted proxies), request id, CORS (when origins are allowed), limits, authentication.
One rate limiter serves the limits layer, the per-key limit after authentication and
WebSocket operations.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from graphmem import admission
from graphmem.http import browser_guide, docs, state, ui
from graphmem.http.authn import AuthMiddleware
from graphmem.http.clients import ClientMiddleware
from graphmem.http.graphql import GraphQLEndpoint
from graphmem.http.ide import IdeOrGraphQL
from graphmem.http.limits import LimitsMiddleware
from graphmem.http.metrics import metrics_endpoint
from graphmem.http.persisted import PersistedQueries, load_manifest
from graphmem.http.request_id import RequestIdMiddleware
from graphmem.resolvers import RequestContext
from graphmem.runtime import Runtime
from graphmem.schema import build_schema
from graphmem.service.access import authenticator
from graphmem.service.feed import ChangeFeed
from graphmem.service.metrics import Metrics
from graphmem.service.model_budget import ModelBudget
from graphmem.service.rates import RateLimiter, host_share
from graphmem.settings import Settings


async def context_for(request: Request | WebSocket) -> RequestContext:
    scope = request.scope
    client = scope.get("client") or ("-", 0)
    return RequestContext(runtime=state.runtime(scope), keys=state.keys(scope),
                          feed=state.feed(scope), metrics=state.metrics(scope),
                          principal=state.principal(scope), request_id=state.request_id(scope),
                          client=str(client[0]), credential=state.credential(scope),
                          limiter=state.limiter(scope),
                          consistency=request.headers.get(CONSISTENCY_HEADER))


log = logging.getLogger("graphmem.api")
CONSISTENCY_HEADER = "graphmem-consistency"
LOCAL_MODE_WARNING = (
    "GRAPHMEM_AUTH_REQUIRED=off: keyless callers on this machine act as admin of the"
    " `default` tenant (loopback only, no proxy, no browser page of another origin); never"
    " run it like this where other users or untrusted programs share the host")


def routes(settings: Settings, budget: ModelBudget | None = None) -> list[BaseRoute]:
    persisted = PersistedQueries(load_manifest(settings.persisted_queries), settings.apq_cache)
    graphql = GraphQLEndpoint(build_schema(settings, budget), context_for, False,
                              settings.allowed_origins, settings.ws_max_operations, persisted)
    http = IdeOrGraphQL(graphql, settings) if settings.graphiql else graphql
    token = settings.metrics_token.get_secret_value() if settings.metrics_token else None
    return [
        Route("/graphql", http),
        WebSocketRoute("/graphql", graphql),
        Route("/metrics", metrics_endpoint(token)),  # type: ignore[arg-type]
        *ui.routes(settings),
        *docs.routes(),
        *browser_guide.routes(),
    ]


def middleware(settings: Settings) -> list[Middleware]:
    """Outermost first: the client address, request id, CORS (when origins are allowed: a
    preflight is answered before limits and authentication), limits, authentication."""
    cors = [Middleware(CORSMiddleware, allow_origins=list(settings.allowed_origins),
                       allow_methods=["GET", "POST", "OPTIONS"],
                       allow_headers=["Authorization", "Content-Type", "X-Request-ID"],
                       expose_headers=["X-Request-ID", "Retry-After"], max_age=600)
            ] if settings.allowed_origins else []
    limiter = RateLimiter(host_share(settings.rate_per_min, settings.hosts),
                          settings.rate_max_clients)
    return [
        Middleware(ClientMiddleware, trusted_proxies=settings.trusted_proxies),
        Middleware(RequestIdMiddleware),
        *cors,
        Middleware(LimitsMiddleware, max_body=settings.max_body, limiter=limiter),
        Middleware(AuthMiddleware, auth_required=settings.auth_required,
                   graphiql=settings.graphiql, allowed_origins=settings.allowed_origins),
    ]


def prepare(app: Starlette) -> None:
    """App-lifetime objects, set before the first request."""
    app.state.metrics = Metrics()


def open_keys(app: Starlette, runtime: Runtime) -> None:
    """What needs the runtime: the key store, the change feed, and the model clients' call
    counters; and the loop's executor, where resolvers run the synchronous service layer
    (it is shut down with the loop), and the turns those calls take."""
    app.state.keys = authenticator(runtime)
    if not runtime.settings.auth_required:
        log.warning(LOCAL_MODE_WARNING)
    app.state.feed = ChangeFeed(runtime, runtime.settings.change_poll_seconds)
    app.state.metrics.watch_models(runtime.model_clients)
    app.state.metrics.watch_embeddings(runtime.embedding_backlog)
    admission.configure(runtime.settings.api_active_calls)
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(runtime.settings.api_threads, thread_name_prefix="graphmem-api"))
