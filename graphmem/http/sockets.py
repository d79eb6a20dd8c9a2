"""WebSockets admit each operation the way HTTP admits each request.

A socket's key is checked again before every operation (through the key cache, so a
revocation takes effect on a socket exactly as over HTTP: at once on this host, within
GRAPHMEM_API_KEY_CACHE_SECONDS elsewhere) and once a second while the socket is open, so
a socket whose key is no longer valid is closed (4403) even if it only listens. Every
operation draws on the same rate buckets as an HTTP request, the client's and the key's,
and at most GRAPHMEM_WS_MAX_OPERATIONS run at once on one socket; a refused operation gets
an `error` message carrying its code, and the socket stays open.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any

from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    ConnectionInitMessage,
    SubscribeMessage,
)

from graphmem.errors import RATE_LIMITED, UNAUTHENTICATED, Unauthenticated
from graphmem.http.authn import principal_for
from graphmem.http.limits import rate_message
from graphmem.model.principals import INVALID
from graphmem.resolvers.context import RequestContext

WATCH_SECONDS = 1.0
FORBIDDEN_CLOSE = 4403


class GuardedSocket(BaseGraphQLTransportWSHandler[RequestContext, None]):
    """graphql-transport-ws with a key check, rate limits and a cap per operation."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._watch: asyncio.Task[None] | None = None

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        await super().handle_connection_init(message)
        if self.connection_acknowledged and self.context.credential and self._watch is None:
            self._watch = asyncio.create_task(self._watch_key())

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if self.connection_acknowledged and not await self._admitted(message["id"]):
            return
        await super().handle_subscribe(message)

    async def shutdown(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with suppress(asyncio.CancelledError):
                await self._watch
        await super().shutdown()

    async def _admitted(self, operation_id: str) -> bool:
        """Key, rate, then the cap; a refusal is answered here."""
        if not await self._key_valid():
            await self._refuse(operation_id, INVALID, UNAUTHENTICATED)
            await self.websocket.close(code=FORBIDDEN_CLOSE, reason="Forbidden")
            return False
        ctx = self.context
        limiter = ctx.limiter
        if limiter is not None:
            wait = limiter.take_client(ctx.client)
            if wait == 0 and ctx.principal is not None and ctx.principal.key_id is not None:
                wait = limiter.take_key(ctx.principal.key_id)
            if wait > 0:
                await self._refuse(operation_id, rate_message(limiter, wait)[0], RATE_LIMITED)
                return False
        cap = self.max_subscriptions_per_connection
        if cap is not None and len(self.operations) >= cap:
            await self._refuse(operation_id, f"at most {cap} operations at once on one"
                               " connection (GRAPHMEM_WS_MAX_OPERATIONS)", RATE_LIMITED)
            return False
        return True

    async def _key_valid(self) -> bool:
        """The socket's key still authenticates (keyless local sockets have none)."""
        ctx = self.context
        if not ctx.credential:
            return True
        try:
            ctx.principal = await principal_for(ctx.keys, ctx.credential)
        except Unauthenticated:
            return False
        return True

    async def _watch_key(self) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if not await self._key_valid():
                self.context.metrics.error(UNAUTHENTICATED)
                await self.websocket.close(code=FORBIDDEN_CLOSE, reason="Forbidden")
                return

    async def _refuse(self, operation_id: str, message: str, code: str) -> None:
        self.context.metrics.error(code)
        await self.send_message({"id": operation_id, "type": "error", "payload": [
            {"message": message, "extensions": {"code": code}}]})
