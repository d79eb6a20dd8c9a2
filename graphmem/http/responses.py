"""Error answers written by the HTTP layers, in the shape GraphQL clients already parse."""

from __future__ import annotations

import json

from starlette.types import Send


def error_body(message: str, code: str) -> bytes:
    return json.dumps({"errors": [{"message": message, "extensions": {"code": code}}]}).encode()


async def send_error(send: Send, status: int, message: str, code: str,
                     headers: dict[str, str] | None = None) -> None:
    """A complete JSON response from inside a pure ASGI middleware."""
    body = error_body(message, code)
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
