"""What the browser tests share: a real server in a thread, Debian's Chromium driven by
Playwright with every request to another host blocked and recorded, page watchers for
console errors and dialogs, an axe-core scan, and screenshots saved for a reviewer.

No browser is ever downloaded: Playwright launches /usr/bin/chromium (Debian's package).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Route,
    WebSocketRoute,
)

from graphmem.auth import KeyStore
from graphmem.http.app import create_app
from graphmem.settings import Settings

from support import isolation, loopback

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
BUNDLE = UI / "dist"
AXE = UI / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-results" / "ui"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SIZES = {"wide": {"width": 1280, "height": 800}, "narrow": {"width": 390, "height": 844}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running graphmem app on a loopback port and a key store writing to its database."""

    base: str
    settings: Settings
    keys: KeyStore
    server: uvicorn.Server

    @property
    def host(self) -> str:
        return urlsplit(self.base).netloc

    def key(self, role: str, tenant: str | None = None,
            spaces: tuple[str, ...] | None = None) -> str:
        return self.keys.create(tenant or new_tenant(), role, spaces).token

    def flush_audit(self) -> None:
        """Write the audit rows the server has queued (appends are asynchronous)."""
        flush = getattr(self.server.config.app.state.runtime.mirror, "flush", None)
        if flush is not None:
            flush()

    def gql(self, token: str, query: str, variables: dict[str, Any] | None = None
            ) -> dict[str, Any]:
        """A GraphQL call that must succeed; returns `data` (test set-up goes through the
        same public API the UI uses)."""
        response = loopback.post(f"{self.base}/graphql", json={"query": query,
                                 "variables": variables or {}},
                                 headers={"Authorization": f"Bearer {token}"}, timeout=60)
        body: dict[str, Any] = response.json()
        assert response.status_code == 200 and "errors" not in body, body
        data: dict[str, Any] = body["data"]
        return data


REMEMBER = """mutation Seed($space: String!, $facts: [FactInput!]!, $source: String!) {
  rememberFacts(space: $space, facts: $facts, source: $source) {
    action subject value factId conflictId message
  }
}"""


def remember(server: Server, token: str, space: str, facts: list[dict[str, Any]],
             source: str = "seed") -> list[dict[str, Any]]:
    """Write facts through the public API, as any client would."""
    lines: list[dict[str, Any]] = server.gql(token, REMEMBER, {
        "space": space, "facts": facts, "source": source})["rememberFacts"]
    return lines


def sign_in(page: Page, server: Server, token: str, space: str = "default") -> None:
    """Sign in through the form, as a person does, and wait for the first view and the
    space's counts: they arrive after the view, and their line and the tabs' badges move
    the tabs when they do, so a click aimed before then can land beside its target."""
    page.goto(f"{server.base}/ui/")
    page.get_by_label("API key").fill(token)
    page.get_by_label("Space").fill(space)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Conflicts inbox").wait_for()
    page.get_by_label("Space counts").wait_for()


def start(settings: Settings, keys: KeyStore) -> tuple[Server, threading.Thread]:
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", access_log=False, ws="websockets-sansio",
                            lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the graphmem server did not start", pytrace=False)
        time.sleep(0.02)
    return Server(f"http://127.0.0.1:{port}", settings, keys, server), thread


def new_tenant() -> str:
    return isolation.tenant()


@dataclass
class Watch:
    """What a page did that a test must check: console errors, page errors, dialogs,
    requests that went (or tried to go) anywhere but the server."""

    allowed_host: str
    console_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(message.text[:500])

    def on_page_error(self, error: Exception) -> None:
        self.console_errors.append(f"page error: {error}")

    def on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def route(self, route: Route) -> None:
        url = route.request.url
        self.requested.append(url)
        if urlsplit(url).netloc != self.allowed_host:
            self.blocked.append(url)
            route.abort("blockedbyclient")
            return
        route.continue_()

    def left_the_server(self) -> list[str]:
        return [u for u in self.requested if urlsplit(u).netloc != self.allowed_host]

    def assert_clean(self) -> None:
        assert self.console_errors == [], self.console_errors
        assert self.dialogs == [], self.dialogs
        assert self.blocked == [], f"requests to other hosts: {self.blocked}"


def open_page(browser: Browser, server: Server, size: str = "wide"
              ) -> tuple[BrowserContext, Page, Watch]:
    """A fresh context (own storage, like a new browser profile) with the network fenced
    to the server: any other host is aborted and recorded, WebSockets included."""
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    watch = Watch(server.host)
    context.route("**/*", watch.route)
    context.route_web_socket(lambda url: urlsplit(url).netloc != server.host,
                             lambda ws: (watch.blocked.append(ws.url), ws.close()))
    page = context.new_page()
    page.on("console", watch.on_console)
    page.on("pageerror", watch.on_page_error)
    page.on("dialog", watch.on_dialog)
    return context, page, watch


@dataclass
class SocketGate:
    """The page's WebSockets to the server, passed through Playwright so a test can hold the
    server's events back from the page, cut the connection and refuse new ones (a server out
    of reach), and read what the page subscribed with. Nothing is faked: every message that
    passes is the real server's."""

    host: str
    hold: bool = False
    down: bool = False
    held: list[str] = field(default_factory=list)
    subscribed: list[dict[str, Any]] = field(default_factory=list)
    open: list[WebSocketRoute] = field(default_factory=list)

    def attach(self, page: Page) -> SocketGate:
        page.route_web_socket(lambda url: urlsplit(url).netloc == self.host, self.route)
        return self

    def route(self, ws: WebSocketRoute) -> None:
        if self.down:
            ws.close(code=1001, reason="the server is out of reach")
            return
        server = ws.connect_to_server()
        self.open.append(ws)

        def from_page(message: str | bytes) -> None:
            parsed = json.loads(message)
            if parsed.get("type") == "subscribe":
                self.subscribed.append(parsed["payload"])
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if self.hold and json.loads(message).get("type") == "next":
                self.held.append(str(message))
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def cut(self) -> None:
        """Close every open socket and refuse new ones until `restore`."""
        self.down = True
        for ws in self.open:
            ws.close(code=1001, reason="connection lost")
        self.open.clear()

    def restore(self) -> None:
        self.down = False

    def subscriptions(self, field_name: str) -> list[dict[str, Any]]:
        """The variables of each subscribe message for one root field, in order sent."""
        return [p.get("variables") or {} for p in self.subscribed
                if f"{field_name}(" in p.get("query", "")]


def axe_scan(page: Page) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations on the page as it is now. axe-core comes
    from ui/node_modules and is evaluated through the DevTools protocol, so the page's CSP
    stays as strict as in production."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): run `make ui`", pytrace=False)
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    result = page.evaluate("""async () => {
        const r = await window.axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
    }""")
    found: list[dict[str, Any]] = result
    return [v for v in found if v["impact"] in ("serious", "critical")]


def screenshot(page: Page, test: str, name: str) -> Path:
    """Save a full-page screenshot under test-results/ui/<test>/ for a reviewer."""
    folder = ARTIFACTS / test
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
