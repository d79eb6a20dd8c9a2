"""Limits before authentication, so floods are refused cheaply: body size and per-client rate;
and, once a key is known, the same rate per key.

The body cap holds for chunked bodies too: the body is read up to the cap and replayed to
the application, never trusted from Content-Length alone. One token bucket map serves every
limit (a client's address, an IPv6 client's /64, a key id), bounded: past `max_clients`
buckets the least recently used one is forgotten. WebSocket operations draw on the same
buckets as HTTP requests (graphmem.http.sockets).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.http import state
from graphmem.http.responses import send_error

EXEMPT = frozenset({"/healthz", "/metrics"})


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per client: `per_minute` requests, refilled continuously; at most
    `max_clients` buckets, the least recently used forgotten first."""

    def __init__(self, per_minute: int, max_clients: int = 100_000) -> None:
        self.per_minute = per_minute
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, client: str, now: float | None = None) -> float:
        """0 when allowed, else the seconds until a request would be."""
        now = time.monotonic() if now is None else now
        bucket = self._buckets.get(client)
        if bucket is None:
            while len(self._buckets) >= self.max_clients:
                self._buckets.popitem(last=False)
            bucket = self._buckets[client] = _Bucket(self.capacity, now)
        else:
            self._buckets.move_to_end(client)
        bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def take_client(self, address: str) -> float:
        return self.take(client_bucket(address))

    def take_key(self, key_id: str) -> float:
        return self.take(f"key:{key_id}")

    def __len__(self) -> int:
        return len(self._buckets)


def client_bucket(address: str) -> str:
    """An IPv6 client is its /64 (one host usually holds the whole block)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


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
        if scope["type"] not in ("http", "websocket") or scope["path"] in EXEMPT:
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
