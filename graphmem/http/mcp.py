"""`/mcp`: the MCP server as streamable HTTP, behind the same middlewares as `/graphql`.

By the time a request reaches this endpoint the middlewares have given it a request id,
applied the body and rate limits, and bound its principal (401 without a valid key), so the
tools see the caller exactly as GraphQL resolvers do. This endpoint adds three things:

- **Sessions belong to keys.** The principal is handed to the SDK as the request's
  authenticated user, so a session opened with one key answers 404 to any other key.
- **Revocation closes streams.** While a request that came with a key is open (the
  notification stream, a `subscriptions/listen` stream, a long tool call), its key is
  checked again once a second through the key cache; once it no longer authenticates the
  request is ended. Every new request is authenticated anyway, so a revoked key's session
  can do nothing more.
- **Answers are JSON**, not a stream per request: no tool sends the client requests or
  progress, so a call is one JSON response (a `subscriptions/listen` stream and the
  notification stream are still event streams).
- **The SDK's own Host/Origin check is off**: graphmem's keyless local mode already refuses
  non-loopback hosts and foreign browser origins (graphmem.http.local), and every other
  request needs a bearer key that a rebinding page cannot have.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.types import Message, Receive, Scope, Send

from graphmem.errors import Unauthenticated
from graphmem.http import state
from graphmem.http.authn import CHALLENGE, principal_for
from graphmem.http.responses import send_error
from graphmem.mcp import Host, Who, build_server
from graphmem.model.principals import INVALID, Principal
from graphmem.service.model_budget import ModelBudget
from graphmem.settings import Settings

WATCH_SECONDS = 1.0
SESSION_IDLE_SECONDS = 30 * 60


async def identify(request: Any) -> Who:
    """The principal the authentication middleware bound to this request."""
    scope: Scope = request.scope
    return Who(state.principal(scope), state.request_id(scope))


def user_of(principal: Principal) -> AuthenticatedUser:
    """The SDK's view of the caller: a session is bound to the key that opened it."""
    return AuthenticatedUser(AccessToken(
        token="-", client_id=principal.key_id or f"local:{principal.tenant}",
        scopes=sorted(principal.capabilities), subject=f"{principal.tenant}/{principal.name}"))


class McpEndpoint:
    def __init__(self, settings: Settings, budget: ModelBudget) -> None:
        self.settings = settings
        self.budget = budget
        self._app: Starlette | None = None
        self.server = build_server(self._host, settings.mcp_poll_seconds)
        self.manager: StreamableHTTPSessionManager | None = None

    def _manager(self) -> StreamableHTTPSessionManager:
        """A session manager runs once: each lifespan of the app gets its own."""
        return StreamableHTTPSessionManager(
            app=self.server._lowlevel_server,  # the SDK mounts it the same way
            json_response=True,  # graphmem's tools never ask the client anything back
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            max_request_body_size=self.settings.max_body,
            session_idle_timeout=SESSION_IDLE_SECONDS)

    def _host(self) -> Host:
        assert self._app is not None, "McpEndpoint.run was not entered"
        app_state = self._app.state
        return Host(app_state.runtime, app_state.metrics, identify, "http", self.budget)

    @asynccontextmanager
    async def run(self, app: Starlette) -> AsyncIterator[None]:
        """The session manager (and the MCP server's lifespan) for the app's lifetime."""
        self._app = app
        self.manager = self._manager()
        try:
            async with self.manager.run():
                yield
        finally:
            self.manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        principal = state.principal(scope)
        if principal is not None:
            scope["user"] = user_of(principal)
        manager = self.manager
        if manager is None:
            await send_error(send, 503, "the MCP server is not running", "UNAVAILABLE")
            return
        credential = state.credential(scope)
        if not credential:
            await manager.handle_request(scope, receive, send)
            return
        response = _Response(send)
        revoked = anyio.Event()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(self._watch_key, scope, credential, revoked, tasks.cancel_scope)
            await manager.handle_request(scope, receive, response.send)
            tasks.cancel_scope.cancel()
        if revoked.is_set():
            await response.end()

    async def _watch_key(self, scope: Scope, credential: str, revoked: anyio.Event,
                         request: anyio.CancelScope) -> None:
        keys = state.keys(scope)
        while True:
            await anyio.sleep(WATCH_SECONDS)
            try:
                await principal_for(keys, credential)
            except Unauthenticated:
                state.metrics(scope).error("UNAUTHENTICATED")
                revoked.set()
                request.cancel()
                return


class _Response:
    """Tracks what was sent, so a request ended early still closes its response cleanly."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False
        self.finished = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        elif message["type"] == "http.response.body" and not message.get("more_body"):
            self.finished = True
        await self._send(message)

    async def end(self) -> None:
        if self.finished:
            return
        if self.started:
            await self._send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await send_error(self._send, 401, INVALID, "UNAUTHENTICATED", CHALLENGE)
        self.finished = True
