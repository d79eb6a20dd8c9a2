"""Outermost layer: a request id for every request, echoed back, and one access-log line.

A valid incoming `X-Request-ID` is kept so one id follows a call across services; anything
else (missing, too long, odd characters) is replaced, so log lines cannot be forged.
"""

from __future__ import annotations

import itertools
import logging
import re
import secrets
import time

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.http import state

log = logging.getLogger("graphmem.access")
_VALID = re.compile(r"^[A-Za-z0-9._:\-]{8,128}$")
HEADER = "X-Request-ID"


class RequestIds:
    """Fresh ids: a random prefix per process and a counter, unique without a system call
    per request (uuid4 reads the OS's random source every time)."""

    def __init__(self) -> None:
        self.prefix = secrets.token_hex(8)
        self._next = itertools.count(1)

    def new(self) -> str:
        return f"{self.prefix}{next(self._next):016x}"


def pick_id(incoming: str | None, ids: RequestIds) -> str:
    return incoming if incoming and _VALID.match(incoming) else ids.new()


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.ids = RequestIds()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = pick_id(Headers(scope=scope).get(HEADER), self.ids)
        state.request_state(scope)["request_id"] = rid
        status = 0
        logged = False
        started = time.perf_counter()

        def done() -> None:
            """The access line, once: before the last body chunk leaves (so a client that
            has its answer finds the line logged), else when the request ends."""
            nonlocal logged
            if not logged:
                logged = True
                self._log(scope, rid, status or 500, time.perf_counter() - started)

        async def send_with_id(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = int(message["status"])
                MutableHeaders(scope=message).append(HEADER, rid)
            elif kind == "http.response.body" and not message.get("more_body", False):
                done()
            elif kind == "websocket.accept":
                status = 101
                message.setdefault("headers", [])
                MutableHeaders(scope=message).append(HEADER, rid)
            elif kind == "websocket.close" and status == 0:
                status = 403
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            done()

    def _log(self, scope: Scope, rid: str, status: int, seconds: float) -> None:
        client = scope.get("client") or ("-", 0)
        method = scope.get("method", "WS")
        log.info('%s "%s %s" %d %.1fms rid=%s', client[0], method, scope["path"], status,
                 seconds * 1000, rid)
        if "app" in scope and hasattr(scope["app"].state, "metrics"):
            state.metrics(scope).observe_http(scope["path"], status, seconds)
