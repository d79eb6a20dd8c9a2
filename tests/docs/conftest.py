"""The documentation tests: the site is built once per run into `site/` (what `make docs`
writes and `graphmem serve` serves at /docs/), and a real server over the session's stores
serves it to Debian's Chromium."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.http.docs import SOURCE_SITE
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.ui_support import CHROMIUM, CHROMIUM_ARGS, Server, start

ROOT = Path(__file__).resolve().parents[2]
PEPPER = SecretStr("docs-test-pepper-" + "0" * 40)


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """Never with `-q`: mkdocs counts the warnings that abort a strict build through its log,
    so a quiet build passes with broken links."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
         "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def built_site() -> Path:
    """`mkdocs build --strict` of the repository's site into site/; a failure fails the tests
    that need the site with mkdocs's own messages."""
    done = mkdocs_build(ROOT / "mkdocs.yml", SOURCE_SITE)
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}",
                    pytrace=False)
    return SOURCE_SITE


@pytest.fixture(scope="module")
def docs_server(settings: Settings, runtime: Runtime, built_site: Path) -> Iterator[Server]:
    """`graphmem serve`'s app on a loopback port, serving the built site at /docs/."""
    configured = settings.model_copy(update={"api_key_pepper": PEPPER,
                                             "rate_per_min": 1_000_000})
    server, thread = start(configured, KeyStore.open(runtime.store, configured))
    yield server
    server.server.should_exit = True
    thread.join(timeout=30)


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
