"""Neo4j Browser opens on the graphmem guide after login, with the graphmem style applied:
a private managed Neo4j (its own home and ports; the shared server is never restarted) is
configured by `graphmem neo4j install`, and Chromium logs in with the generated password."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from graphmem.neo4j_local import browser as guide
from graphmem.neo4j_local.manager import LocalNeo4j
from graphmem.settings import Settings, load_settings

from support import loopback
from support.ui_support import Server, free_port, screenshot

pytestmark = pytest.mark.races


@pytest.fixture(scope="module")
def browser_server(serve_ui: Callable[..., Server], ui_bundle: Path) -> Server:
    return serve_ui(ui_dir=ui_bundle, slot_schema="preset:finance")


@pytest.fixture(scope="module")
def private_neo4j(settings: Settings, browser_server: Server,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """A managed Neo4j under a temporary home whose Browser points at the test server."""
    home = tmp_path_factory.mktemp("neo4j-browser")
    own = load_settings(home=home, neo4j_uri=None, neo4j_password=None,
                        neo4j_bolt_port=free_port(), neo4j_http_port=free_port(),
                        neo4j_heap="512m", neo4j_pagecache="64m",
                        public_url=browser_server.base)
    assert own.neo4j_dir == home / "neo4j", "never touch the session's server"
    shared_lib = settings.neo4j_dir / "lib"
    if shared_lib.is_dir():
        (home / "neo4j").mkdir()
        (home / "neo4j" / "lib").symlink_to(shared_lib, target_is_directory=True)
    local = LocalNeo4j(own)
    local.install()
    local.start()
    yield own
    local.stop()


def test_the_managed_conf_points_browser_at_graphmem(private_neo4j: Settings,
                                                     browser_server: Server) -> None:
    conf = (private_neo4j.neo4j_dir / "conf" / "neo4j.conf").read_text()
    assert (f"browser.post_connect_cmd=style {browser_server.base}/ui/neo4j/style.grass;"
            f" guide {browser_server.base}/ui/neo4j/guide.html") in conf
    assert "browser.remote_content_hostname_whitelist=127.0.0.1,localhost" in conf


def test_the_guide_holds_every_saved_query_as_a_runnable_block(browser_server: Server
                                                                ) -> None:
    page = loopback.get(f"{browser_server.base}/ui/neo4j/guide.html",
                        headers={"Origin": "http://127.0.0.1:7474"})
    assert page.status_code == 200
    assert page.headers["access-control-allow-origin"] == "*"
    for query in guide.saved_queries():
        assert query.statement.splitlines()[0].replace("'", "&#x27;").replace(
            ">", "&gt;") in page.text
    assert page.text.count('<pre class="code runnable">') >= len(guide.saved_queries()) + 2
    preflight = loopback.options(f"{browser_server.base}/ui/neo4j/style.grass", headers={
        "Origin": "http://127.0.0.1:7474", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "pragma,cache-control"})
    assert preflight.status_code == 204
    assert "pragma" in preflight.headers["access-control-allow-headers"]


def test_browser_opens_on_the_graphmem_guide_with_the_style(
        browser: Browser, private_neo4j: Settings, browser_server: Server) -> None:
    http = f"127.0.0.1:{private_neo4j.neo4j_http_port}"
    allowed = {http, f"127.0.0.1:{private_neo4j.neo4j_bolt_port}", browser_server.host}
    fetched: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})

    def fence(route: object) -> None:
        request = route.request  # type: ignore[attr-defined]
        host = re.sub(r"^\w+://([^/]+).*$", r"\1", request.url)
        if host == browser_server.host:
            fetched.append(request.url)
        if host in allowed:
            route.continue_()  # type: ignore[attr-defined]
        else:
            route.abort("blockedbyclient")  # type: ignore[attr-defined]

    context.route("**/*", fence)
    page = context.new_page()
    try:
        page.goto(f"http://{http}/browser/")
        page.get_by_test_id("boltaddress").fill(
            f"neo4j://127.0.0.1:{private_neo4j.neo4j_bolt_port}")
        page.get_by_test_id("username").fill("neo4j")
        page.get_by_test_id("password").fill(private_neo4j.password_file.read_text().strip())
        page.get_by_test_id("connect").click()
        drawer = page.get_by_test_id("guidesDrawer")
        expect(drawer).to_contain_text("graphmem", timeout=60_000)
        expect(drawer).to_contain_text(":param space")
        expect(page.locator("pre.runnable").first).to_be_visible()
        style_frame = page.get_by_test_id("frame").filter(has_text=":style")
        expect(style_frame.first).to_contain_text("#4C8EDA", timeout=30_000)
        screenshot(page, "neo4j_browser", "guide")
        assert any(u.endswith(guide.GUIDE_PATH) for u in fetched)
        assert any(u.endswith(guide.STYLE_PATH) for u in fetched)
    finally:
        context.close()
