"""The ASGI application: clients are built in the lifespan and torn down with it."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Route

from graphmem.http import api
from graphmem.http.health import healthz, readyz
from graphmem.http.mcp import McpEndpoint
from graphmem.runtime import Runtime
from graphmem.service.model_budget import ModelBudget
from graphmem.settings import Settings, load_settings


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or load_settings()
    # GraphQL and MCP draw from one budget
    budget = ModelBudget(settings.api_model_calls_per_min, settings.hosts)
    mcp = McpEndpoint(settings, budget)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sys.setswitchinterval(settings.api_gil_switch_ms / 1000)
        runtime = Runtime.open(settings)
        app.state.runtime = runtime
        api.open_keys(app, runtime)
        runtime.mirror.start()  # drain what a crash left, then follow the outbox
        runtime.start_embed_sweep()  # and embed what a dead host left without vectors
        try:
            async with mcp.run(app):
                yield
        finally:
            await app.state.feed.close()
            runtime.close()

    routes: list[BaseRoute] = [Route("/healthz", healthz), Route("/readyz", readyz)]
    routes += api.routes(settings, budget)
    routes.append(Route("/mcp", mcp))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=api.middleware(settings))
    api.prepare(app)
    return app


def app_factory() -> Starlette:
    """Entry point for `uvicorn --factory graphmem.http.app:app_factory` (several workers)."""
    return create_app()
