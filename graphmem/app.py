"""The ASGI application: clients are built in the lifespan and torn down with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.routing import Route

from graphmem.http.health import healthz, readyz
from graphmem.runtime import Runtime
from graphmem.settings import Settings, load_settings


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or load_settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        runtime = Runtime.open(settings)
        app.state.runtime = runtime
        try:
            yield
        finally:
            runtime.close()

    routes = [Route("/healthz", healthz), Route("/readyz", readyz)]
    return Starlette(routes=routes, lifespan=lifespan)


def app_factory() -> Starlette:
    """Entry point for `uvicorn --factory graphmem.app:app_factory` (several workers)."""
    return create_app()
