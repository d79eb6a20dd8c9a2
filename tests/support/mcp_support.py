"""The SDK's real MCP client for tests: held open on an event loop in a thread of its own,
with synchronous calls, so a test reads like a sequence of tool calls.

`stdio(env)` starts `graphmem mcp` as a subprocess (the SDK's stdio transport);
`http(url, key)` speaks streamable HTTP with a bearer key.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
GRAPHMEM = str(Path(sys.executable).parent / "graphmem")


def stdio_params(env: dict[str, str], *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=GRAPHMEM, args=["mcp", *args], env=env, cwd=str(ROOT))


@asynccontextmanager
async def http_transport(url: str, key: str | None) -> AsyncIterator[Any]:
    headers = {"Authorization": f"Bearer {key}"} if key else None
    async with create_mcp_http_client(headers=headers) as http_client, \
            streamable_http_client(url, http_client=http_client) as streams:
        yield streams


class _Streams:
    """A Transport for Client: the streams of an async context manager."""

    def __init__(self, opened: AbstractAsyncContextManager[Any]) -> None:
        self.opened = opened

    async def __aenter__(self) -> Any:
        return await self.opened.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.opened.__aexit__(*exc)


class McpSession:
    """One open client; `call` and `run` are synchronous."""

    def __init__(self, server: Any, **client_options: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._opened: asyncio.Future[Client] = self._loop.create_future()
        self._closing = asyncio.Event()
        self._holder = asyncio.run_coroutine_threadsafe(self._hold(server, client_options),
                                                        self._loop)
        self.client: Client = self.run_async(self._wait_opened(), timeout=120)

    async def _hold(self, server: Any, options: dict[str, Any]) -> None:
        """Enter and leave the client in one task, as anyio's cancel scopes require."""
        try:
            async with Client(server, **options) as client:
                self._opened.set_result(client)
                await self._closing.wait()
        except BaseException as e:
            if not self._opened.done():
                self._opened.set_exception(e)
            raise

    async def _wait_opened(self) -> Client:
        return await self._opened

    def run_async(self, coro: Awaitable[T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)  # type: ignore[arg-type]

    def run(self, fn: Callable[[Client], Awaitable[T]], timeout: float = 120) -> T:
        async def go() -> T:
            return await fn(self.client)
        return self.run_async(go(), timeout)

    def call(self, name: str, arguments: dict[str, Any] | None = None,
             timeout: float = 120) -> CallToolResult:
        return self.run(lambda c: c.call_tool(name, arguments or {}), timeout)

    def text(self, name: str, arguments: dict[str, Any] | None = None) -> str:
        """A call that must succeed; its text."""
        result = self.call(name, arguments)
        assert not result.is_error, text_of(result)
        return text_of(result)

    def tools(self) -> list[str]:
        return sorted(t.name for t in self.run(lambda c: c.list_tools()).tools)

    def close(self) -> None:
        try:
            self._loop.call_soon_threadsafe(self._closing.set)
            self._holder.result(60)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()

    def __enter__(self) -> McpSession:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def stdio(env: dict[str, str], *args: str, **options: Any) -> McpSession:
    return McpSession(stdio_params(env, *args), **options)


def http(url: str, key: str | None, **options: Any) -> McpSession:
    return McpSession(_Streams(http_transport(url, key)), **options)


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def messages(error: BaseException) -> str:
    """Every message in an error and the groups and causes it carries, one per line."""
    found = [f"{type(error).__name__}: {error}"]
    if isinstance(error, BaseExceptionGroup):
        found += [messages(e) for e in error.exceptions]
    if error.__cause__ is not None:
        found.append(messages(error.__cause__))
    return "\n".join(found)
