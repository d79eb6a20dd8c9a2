"""Keyless local mode (GRAPHMEM_AUTH_REQUIRED=off): who may act without a key.

Only a program on this machine talking to the server directly: the client is on loopback,
the request came through no proxy (unless trusted proxies resolved it to loopback), the
`Host` it named is a loopback name (a page whose own domain was pointed at 127.0.0.1 names
its domain, so DNS rebinding gets nothing), and it is no browser page of another origin:
an `Origin` header must be the server's own loopback origin (GraphiQL served here) or one of
GRAPHMEM_ALLOWED_ORIGINS. The keyless caller is the admin of the `default` tenant only.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import Scope
from strawberry.http.websocket_origin import is_same_origin, normalize_origin

from graphmem.http import state
from graphmem.http.clients import FORWARDED_BY, proxied

LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})


def is_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    if not client:
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


def loopback_host(host: str | None) -> bool:
    """A Host header naming this machine by a loopback name or address (or none at all)."""
    if not host:
        return True
    try:
        name = urlsplit(f"//{host}").hostname or ""
    except ValueError:
        return False
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str, host: str | None, allowed: frozenset[str]) -> bool:
    """The page's origin is listed (`allowed` is normalised), or is this server's own origin
    on a loopback host."""
    normal = normalize_origin(origin)
    return normal is not None and (normal in allowed
                                   or (is_same_origin(origin, host) and loopback_host(host)))


def on_this_machine(scope: Scope) -> str | None:
    """Why the client is not a program on this machine talking to the server directly (a
    loopback client, through no proxy that did not resolve it), or None when it is."""
    if not is_loopback(scope):
        return "allowed from loopback only"
    if proxied(scope) and FORWARDED_BY not in state.request_state(scope):
        return "not allowed through a proxy"
    return None


def refusal(scope: Scope, headers: Headers, allowed: frozenset[str]) -> str | None:
    """Why this request may not act keyless, or None when it may."""
    remote = on_this_machine(scope)
    if remote is not None:
        return f"keyless access is {remote}"
    host = headers.get("host")
    if not loopback_host(host):
        return f"keyless access needs a loopback Host, not {host!r}"
    origin = headers.get("origin")
    if origin is not None and not origin_allowed(origin, host, allowed):
        return (f"keyless access is refused to browser pages of other origins ({origin!r});"
                " list the origin in GRAPHMEM_ALLOWED_ORIGINS")
    return None
