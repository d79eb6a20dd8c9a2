"""Typed access to what the lifespan puts on the app and what middlewares put on a request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.types import Scope

if TYPE_CHECKING:
    from graphmem.model.principals import Authenticator, Principal
    from graphmem.runtime import Runtime
    from graphmem.service.feed import ChangeFeed
    from graphmem.service.metrics import Metrics
    from graphmem.service.rates import RateLimiter


def _app_state(scope: Scope) -> Any:
    return scope["app"].state


def runtime(scope: Scope) -> Runtime:
    found: Runtime = _app_state(scope).runtime
    return found


def keys(scope: Scope) -> Authenticator:
    found: Authenticator = _app_state(scope).keys
    return found


def metrics(scope: Scope) -> Metrics:
    found: Metrics = _app_state(scope).metrics
    return found


def feed(scope: Scope) -> ChangeFeed:
    found: ChangeFeed = _app_state(scope).feed
    return found


def request_state(scope: Scope) -> dict[str, Any]:
    """Per-request values (request id, principal); the server gives each request its own."""
    state: dict[str, Any] = scope.setdefault("state", {})
    return state


def request_id(scope: Scope) -> str:
    return str(request_state(scope).get("request_id", "-"))


def principal(scope: Scope) -> Principal | None:
    found: Principal | None = request_state(scope).get("principal")
    return found


def limiter(scope: Scope) -> RateLimiter | None:
    """The rate buckets, put on the request by the limits layer."""
    found: RateLimiter | None = request_state(scope).get("limiter")
    return found


def credential(scope: Scope) -> str | None:
    """The request's `Authorization` value, kept for WebSockets to check again later."""
    found: str | None = request_state(scope).get("authorization")
    return found
