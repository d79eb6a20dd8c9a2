"""The Content-Security-Policy and companion headers of every page graphmem serves to a
browser: the explorer under /ui/ and the GraphQL IDE at /graphql.

Scripts, fonts, workers and connections come from graphmem's own origin only; nothing is
loaded from another host, no inline script runs, no page may frame these ones. Styles allow
'unsafe-inline' because GraphiQL's Monaco editor writes style elements and attributes at
run time (it has no nonce support); a style cannot run code. GraphiQL's stylesheet embeds
its fonts as data: URLs.
"""

from __future__ import annotations

POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
])

HEADERS: dict[str, str] = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
