"""Limits before authentication, so floods are refused cheaply: body size and per-client rate;
and, once a key is known, the same rate per key.
The static files of the web UI (`/ui/`) and the manual (`/docs/`) are exempt; every API call
they make is counted.

The body cap holds for chunked bodies too: the body is read up to the cap and replayed to
the application, never trusted from Content-Length alone. One token bucket map serves every
limit (a client's address, an IPv6 client's /64, a key id), bounded: past `max_clients`
buckets the least recently used one is forgotten. WebSocket operations draw on the same
buckets as HTTP requests (graphmem.http.sockets).
"""

from __future__ import annotations

import math

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.http import docs, state, ui
from graphmem.http.responses import send_error
from graphmem.service.rates import RateLimiter

EXEMPT = frozenset({"/healthz", "/metrics"})


def rate_message(limiter: RateLimiter, wait: float) -> tuple[str, int]:
    retry = max(1, math.ceil(wait))
    return (f"rate limit: at most {limiter.per_minute} requests a minute per client and per"
            f" key (GRAPHMEM_RATE_PER_MIN); retry in {retry}s", retry)


async def refuse_rate(scope: Scope, send: Send, limiter: RateLimiter, wait: float) -> None:
    state.metrics(scope).error("RATE_LIMITED")
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    message, retry = rate_message(limiter, wait)
    await send_error(send, 429, message, "RATE_LIMITED", {"Retry-After": str(retry)})


class BodyTooLarge(Exception):
    pass


class LimitsMiddleware:
    def __init__(self, app: ASGIApp, max_body: int, limiter: RateLimiter) -> None:
        self.app = app
        self.max_body = max_body
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (scope["type"] not in ("http", "websocket") or path in EXEMPT or ui.is_public(path)
                or docs.is_public(path)):
            await self.app(scope, receive, send)
            return
        state.request_state(scope)["limiter"] = self.limiter
        wait = self.limiter.take_client((scope.get("client") or ("unknown", 0))[0])
        if wait > 0:
            await refuse_rate(scope, send, self.limiter, wait)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        try:
            body = await self._read_body(scope, receive)
        except BodyTooLarge:
            state.metrics(scope).error("BAD_USER_INPUT")
            await send_error(send, 413, f"request body is larger than {self.max_body} bytes"
                             " (GRAPHMEM_MAX_BODY)", "BAD_USER_INPUT")
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            raise BodyTooLarge
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
