"""Browser tests against a real graphmem server (the session's Neo4j and relational store)
in Debian's Chromium, one browser per test module and a fresh context per test."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, expect, sync_playwright
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.ui_support import BUNDLE, CHROMIUM, CHROMIUM_ARGS, Server, start

PEPPER = SecretStr("ui-test-pepper-" + "0" * 40)
# Every check waits for rendered state; on a loaded two-core machine a page may take a while
# to get there (a reconnect waits up to four seconds between tries), so the wait is generous.
expect.set_options(timeout=20_000)
OFFLINE_EMBEDDER = {"embedding_base_url": "http://127.0.0.1:9/v1", "llm_max_retries": 0}


@pytest.fixture(scope="session")
def ui_bundle() -> Path:
    """The built UI; `make test` builds it before pytest runs."""
    if not (BUNDLE / "index.html").is_file() or not (BUNDLE / "ide.html").is_file():
        pytest.fail(f"the web UI is not built in {BUNDLE}: run `make ui`", pytrace=False)
    return BUNDLE


@pytest.fixture(scope="session")
def serve_ui(settings: Settings, runtime: Runtime) -> Iterator[Callable[..., Server]]:
    """Start (once per set of overrides) a server over the session's stores."""
    running: dict[tuple[tuple[str, str], ...], Server] = {}
    threads: list[threading.Thread] = []

    def serve(**overrides: object) -> Server:
        ident = tuple(sorted((k, repr(v)) for k, v in overrides.items()))
        if ident not in running:
            values = {"api_key_pepper": PEPPER, "rate_per_min": 1_000_000,
                      **OFFLINE_EMBEDDER, **overrides}
            configured = settings.model_copy(update=values)
            server, thread = start(configured, KeyStore.open(runtime.store, configured))
            threads.append(thread)
            running[ident] = server
        return running[ident]

    yield serve
    for server in running.values():
        server.server.should_exit = True
    for thread in threads:
        thread.join(timeout=30)


@pytest.fixture
def server(serve_ui: Callable[..., Server], ui_bundle: Path) -> Server:
    """The server the browser tests use; the finance preset declares confirm-gated slots
    (payment_method), so pending approvals can be made through the public API."""
    return serve_ui(ui_dir=ui_bundle, slot_schema="preset:finance")


# Module scope: Playwright's synchronous API keeps an event loop running on the main thread
# while it is open, which would break asyncio.run in the tests collected after these.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's browser (`apt-get install -y"
                    " chromium`); the tests never download one", pytrace=False)
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()
