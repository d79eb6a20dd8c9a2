"""Subscriptions over the server's real WebSocket transport (graphql-transport-ws), and writes
that make each subscription field deliver an event.

A subscriber reads `changeCursor` first and subscribes `after` it, so every change committed
after the read is delivered whenever the server starts the subscription: no waiting on a
gauge, no race with the write that follows. `provoke` makes the write a field listens for
(the confirm gate needs the server's slot schema to be `preset:clinical`).
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import ClientConnection, connect

from support.api_support import Api

CURSOR = "query($s: String!) { changeCursor(space: $s) }"
REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action factId conflictId } }")
DISMISS = ("mutation($s: String!, $c: ID!) { dismissConflict(space: $s, conflictId: $c)"
           " { message } }")
# the slot the `preset:clinical` schema gates behind confirmation
GATED = "active_medication"
FIELDS = ("factChanged", "conflictOpened", "conflictClosed", "pendingChanged")


class Socket:
    """One graphql-transport-ws connection, acknowledged; subscriptions by id."""

    def __init__(self, api: Api, token: str) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(connect(
            api.ws_url, subprotocols=["graphql-transport-ws"], open_timeout=30))
        self.ws.send(json.dumps({"type": "connection_init",
                                 "payload": {"authorization": f"Bearer {token}"}}))
        ack = json.loads(self.ws.recv(timeout=30))
        if ack.get("type") != "connection_ack":
            raise AssertionError(f"no connection_ack: {ack}")

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._stack.close()

    def subscribe(self, ident: str, document: str, variables: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"id": ident, "type": "subscribe",
                                 "payload": {"query": document, "variables": variables}}))

    def complete(self, ident: str) -> None:
        self.ws.send(json.dumps({"id": ident, "type": "complete"}))

    def first(self, ident: str, timeout: float = 20) -> dict[str, Any] | None:
        """The next `next`, `error` or `complete` message for this subscription (messages of
        earlier ones are skipped); None when none came in time."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message: dict[str, Any] = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                return None
            if message.get("type") == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            if message.get("id") == ident:
                return message
        return None


def errors_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The GraphQL errors a `next` or `error` message carries."""
    if message["type"] == "error":
        return list(message["payload"])
    return list(message["payload"].get("errors") or [])


def cursor(api: Api, token: str, space: str) -> dict[str, Any]:
    """The body of `changeCursor` for this space (its data, or its errors)."""
    return api.gql(token, CURSOR, {"s": space})


def _remember(api: Api, token: str, space: str, *facts: dict[str, Any]) -> dict[str, Any]:
    data = api.ok(token, REMEMBER, {"s": space, "f": list(facts)})
    result: dict[str, Any] = data["rememberFacts"][0]
    return result


def open_conflict(api: Api, token: str, space: str, tag: str) -> dict[str, Any]:
    """A low-confidence supersede of a fresh subject: FLAG, with an open conflict."""
    _remember(api, token, space, {"subject": f"db-{tag}", "value": "Postgres",
                                  "confidence": 0.9})
    flagged = _remember(api, token, space, {"subject": f"db-{tag}", "value": "MySQL",
                                            "action": "SUPERSEDE", "confidence": 0.3})
    if flagged["action"] != "FLAG" or not flagged["conflictId"]:
        raise AssertionError(f"expected a FLAG with a conflict: {flagged}")
    return flagged


def propose(api: Api, token: str, space: str, tag: str) -> dict[str, Any]:
    """A confirm-gated change (slot `active_medication` under `preset:clinical`) of a fresh
    scope: a pending proposal."""
    _remember(api, token, space, {"subject": GATED, "scope": tag, "value": "Warfarin 5mg",
                                  "confidence": 0.95})
    pending = _remember(api, token, space, {"subject": GATED, "scope": tag,
                                            "value": "Warfarin 7mg", "action": "SUPERSEDE",
                                            "confidence": 0.95})
    if not pending["conflictId"]:
        raise AssertionError(f"expected a pending proposal: {pending}")
    return pending


def provoke(api: Api, token: str, field: str, space: str, tag: str) -> None:
    """The write `field` delivers an event for, in `space` (the token may write there)."""
    if field == "factChanged":
        _remember(api, token, space, {"subject": f"fact-{tag}", "value": "on"})
    elif field == "conflictOpened":
        open_conflict(api, token, space, tag)
    elif field == "conflictClosed":
        flagged = open_conflict(api, token, space, tag)
        api.ok(token, DISMISS, {"s": space, "c": flagged["conflictId"]})
    elif field == "pendingChanged":
        propose(api, token, space, tag)
    else:
        raise AssertionError(f"no write provokes {field}")
