"""Who a request comes from: the socket's peer, or, when that peer is a trusted proxy, the
address the proxies forwarded.

`X-Forwarded-For` is honoured only from GRAPHMEM_TRUSTED_PROXIES: the list is read from the
right, skipping trusted hops, and the first address not trusted is the client (what a
client wrote itself sits further left and is never reached). Anyone else's header is
ignored. The outermost layer puts the result in `scope["client"]`, so the access log, the
rate limits and the keyless local mode all see the same client. The server runs with
Uvicorn's own proxy handling off, so this is the only place that reads the header.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_HOPS = 16  # forwarded addresses read from the right, at most
FORWARDED_HEADERS = (b"x-forwarded-for", b"forwarded", b"x-real-ip")
FORWARDED_BY = "forwarded_by"  # request state: the trusted proxy a client was resolved through


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(e, strict=False) for e in entries)


def address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def trusted(found: Address | None, proxies: tuple[Network, ...]) -> bool:
    return found is not None and any(found in net for net in proxies)


def forwarded_client(peer: str, forwarded: str | None, proxies: tuple[Network, ...]) -> str:
    """The client behind `peer`: the rightmost forwarded address that is not a trusted
    proxy, when the peer itself is one; else the peer."""
    if not forwarded or not trusted(address(peer), proxies):
        return peer
    client = peer
    for hop in reversed(forwarded.split(",")[-MAX_HOPS:]):
        hop = hop.strip()
        if not hop:
            continue
        client = hop
        if not trusted(address(hop), proxies):
            break
    return client


def proxied(scope: Scope) -> bool:
    """Whether the request carries a forwarding header (it came through some proxy)."""
    return any(name in FORWARDED_HEADERS for name, _ in scope.get("headers", ()))


class ClientMiddleware:
    """Outermost: the forwarded client replaces the peer when the peer is a trusted proxy."""

    def __init__(self, app: ASGIApp, trusted_proxies: tuple[str, ...]) -> None:
        self.app = app
        self.proxies = networks(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.proxies and scope["type"] in ("http", "websocket"):
            peer = scope.get("client") or ("", 0)
            forwarded = ",".join(Headers(scope=scope).getlist("x-forwarded-for"))
            client = forwarded_client(peer[0], forwarded, self.proxies)
            if client != peer[0]:
                scope["client"] = (client, 0)
                scope.setdefault("state", {})[FORWARDED_BY] = peer[0]
        await self.app(scope, receive, send)
