"""Helpers for the API tests: a real Uvicorn server in a thread, and small client calls."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import uvicorn
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.http.app import create_app
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support import isolation, loopback

PEPPER = SecretStr("test-pepper-" + "0" * 40)


@dataclass
class Api:
    """One running server and what a test needs to talk to it."""

    base: str
    settings: Settings
    keys: KeyStore
    server: uvicorn.Server

    @property
    def ws_url(self) -> str:
        return self.base.replace("http://", "ws://") + "/graphql"

    def flush_audit(self) -> None:
        """Write the audit rows the server has queued (appends are asynchronous)."""
        runtime = self.server.config.app.state.runtime
        flush = getattr(runtime.mirror, "flush", None)
        if flush is not None:
            flush()

    def open_subscriptions(self) -> int:
        """The server's gauge of open subscriptions (one server serves a worker's tests one
        at a time, so a test's change to it is the test's own)."""
        text = loopback.get(f"{self.base}/metrics", timeout=30).text
        line = next(x for x in text.splitlines()
                    if x.startswith("graphmem_subscriptions_active "))
        return int(float(line.split()[1]))

    async def subscriptions_reach(self, count: int) -> None:
        """Wait until the server counts `count` open subscriptions: its broker then holds
        (or has dropped) each one."""
        for _ in range(400):
            if await asyncio.to_thread(self.open_subscriptions) == count:
                return
            await asyncio.sleep(0.05)
        pytest.fail(f"open subscriptions never reached {count}")

    def key(self, role: str, tenant: str | None = None,
            spaces: tuple[str, ...] | None = None) -> str:
        return self.keys.create(tenant or new_tenant(), role, spaces).token

    def post(self, query: str, variables: dict[str, Any] | None = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> httpx.Response:
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        return loopback.post(f"{self.base}/graphql", json={"query": query, "variables": variables},
                             headers=sent, timeout=30)

    def gql(self, token: str | None, query: str,
            variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GraphQL call that must answer 200; returns the JSON body."""
        response = self.post(query, variables, token)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def ok(self, token: str | None, query: str,
           variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GraphQL call that must succeed; returns `data`."""
        body = self.gql(token, query, variables)
        assert "errors" not in body, body
        data: dict[str, Any] = body["data"]
        return data


def fresh_address() -> str:
    """A client no request has come from yet (a /64 of its own in the IPv6 documentation
    range: the rate limits count an IPv6 client by its /64), so its budget starts full however
    often a test runs against one server."""
    block = uuid.uuid4().int & 0xFFFF_FFFF
    return str(ipaddress.IPv6Address((0x20010DB8 << 96) | (block << 64) | 1))


def new_tenant() -> str:
    return isolation.tenant()


def codes(body: dict[str, Any]) -> list[str]:
    return [e.get("extensions", {}).get("code") for e in body.get("errors", [])]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(settings: Settings) -> tuple[uvicorn.Server, threading.Thread, str]:
    """Uvicorn in a thread on a free loopback port (given a host and port, not a socket:
    a pre-bound socket makes every response wait for a delayed ACK, about 40 ms)."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", access_log=False, ws="websockets-sansio",
                            ws_max_size=settings.max_body, lifespan="on", proxy_headers=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the API server did not start", pytrace=False)
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{port}"


@contextmanager
def servers(settings: Settings, runtime: Runtime,
            **defaults: Any) -> Iterator[Callable[..., Api]]:
    """Start (once per set of setting overrides) a server over the session's stores, with
    the test pepper, limits high enough for the tests and `defaults`; all stop on exit. Each
    server's key store shares the server's relational store, so its revocations reach it.
    `own=True`: a server of the caller's alone, for a test that counts what its client
    spends (rate buckets are the server's, and loopback is every test's address)."""
    running: dict[tuple[tuple[str, str], ...], Api] = {}
    threads: list[threading.Thread] = []

    def serve(own: bool = False, **overrides: Any) -> Api:
        ident = tuple(sorted((k, repr(v)) for k, v in overrides.items()))
        if own:
            ident += (("own", uuid.uuid4().hex),)
        if ident not in running:
            values = {"api_key_pepper": PEPPER, "rate_per_min": 1_000_000, **defaults,
                      **overrides}
            configured = settings.model_copy(update=values)
            server, thread, base = start(configured)
            threads.append(thread)
            running[ident] = Api(base, configured, KeyStore.open(runtime.store, configured),
                                 server)
        return running[ident]

    try:
        yield serve
    finally:
        for api in running.values():
            api.server.should_exit = True
        for thread in threads:
            thread.join(timeout=30)
