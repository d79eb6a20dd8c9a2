"""Limits before authentication, so floods are refused cheaply: body size and per-IP rate.
The web UI's static files (`/ui/`) are exempt; every API call they make is counted.

The body cap holds for chunked bodies too: the body is read up to the cap and replayed to
the application, never trusted from Content-Length alone.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.http import state, ui
from graphmem.http.responses import send_error

EXEMPT = frozenset({"/healthz", "/readyz", "/metrics"})


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per client: `per_minute` requests, refilled continuously."""

    def __init__(self, per_minute: int, max_clients: int = 100_000) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.max_clients = max_clients
        self._buckets: dict[str, _Bucket] = {}

    def take(self, client: str, now: float | None = None) -> float:
        """0 when allowed, else the seconds until a request would be."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                self._prune(now)
            bucket = self._buckets[client] = _Bucket(self.capacity, now)
        bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _prune(self, now: float) -> None:
        """Forget clients whose bucket has refilled: they are indistinguishable from new."""
        full = self.capacity / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.at < full}


class BodyTooLarge(Exception):
    pass


class LimitsMiddleware:
    def __init__(self, app: ASGIApp, max_body: int, rate_per_min: int) -> None:
        self.app = app
        self.max_body = max_body
        self.limiter = RateLimiter(rate_per_min)
        self.rate_per_min = rate_per_min

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] not in ("http", "websocket") or path in EXEMPT or ui.is_public(path):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.limiter.take(client)
        if wait > 0:
            await self._refuse_rate(scope, send, wait)
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

    async def _refuse_rate(self, scope: Scope, send: Send, wait: float) -> None:
        state.metrics(scope).error("RATE_LIMITED")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        retry = max(1, math.ceil(wait))
        await send_error(send, 429, f"rate limit: at most {self.rate_per_min} requests a minute"
                         f" per client (GRAPHMEM_RATE_PER_MIN); retry in {retry}s",
                         "RATE_LIMITED", {"Retry-After": str(retry)})


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
