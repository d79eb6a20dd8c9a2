"""The GraphQL IDE at /graphql works without the internet: GraphiQL and its explorer plugin
come from graphmem's own assets, under the UI's Content-Security-Policy."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from graphmem.http import csp
from graphmem.schema.examples import documents

from support import loopback
from support.ui_support import Server, open_page, screenshot

pytestmark = pytest.mark.races

HTML = {"Accept": "text/html"}


def replace_query(page: Page, text: str) -> None:
    """Type a query into GraphiQL's editor; Monaco closes an opened brace by itself."""
    page.locator(".graphiql-query-editor .monaco-editor").first.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    page.keyboard.type(text)
    typed = page.locator(".graphiql-query-editor .view-lines").inner_text()
    if not typed.rstrip().endswith("}"):
        page.keyboard.type(" }")
    page.keyboard.press("Escape")  # close the completion list over the toolbar


def test_graphiql_runs_a_query_with_every_other_host_blocked(browser: Browser,
                                                             server: Server) -> None:
    token = server.key("reader")
    context, page, watch = open_page(browser, server)
    try:
        page.goto(f"{server.base}/graphql")
        page.get_by_label("API key").fill(token)
        page.get_by_role("button", name="Open GraphiQL").click()
        tabs = page.locator(".graphiql-tab")
        expect(tabs).to_have_count(len(documents()), timeout=30_000)
        page.get_by_role("button", name="New tab").click()
        expect(tabs).to_have_count(len(documents()) + 1)
        expect(tabs.last).to_have_class(re.compile("graphiql-tab-active"))
        replace_query(page, "query Probe { __typename")
        # GraphiQL names the tab once it has parsed the new document: run only then (before,
        # it would send the operation name it still holds)
        expect(tabs.last).to_contain_text("Probe")
        # the editor's own shortcut: Monaco's completion list can reopen over the toolbar
        page.keyboard.press("ControlOrMeta+Enter")
        expect(page.locator(".graphiql-response")).to_contain_text('"__typename": "Query"',
                                                                   timeout=30_000)
        expect(page.get_by_role("button", name="Show GraphiQL Explorer")).to_be_attached()
        screenshot(page, "ide", "graphiql")
        assert token not in page.url
        stored = page.evaluate("() => JSON.stringify(Object.assign({}, localStorage))")
        assert token not in stored, "the key must stay out of local storage"
        assert "Probe" not in stored, "documents and variables stay out of local storage"
        assert page.evaluate("() => sessionStorage.getItem('graphmem.apiKey')") == token
        session = page.evaluate("() => JSON.stringify(Object.assign({}, sessionStorage))")
        assert "Probe" in session, "the tabs live as long as the browser tab"
        watch.assert_clean()
        assert watch.left_the_server() == []
        assert any(u.endswith("/graphql") for u in watch.requested)
    finally:
        context.close()


def test_the_ide_opens_with_an_example_per_main_feature(browser: Browser,
                                                        server: Server) -> None:
    """The tabs are schema/documents, which a test validates against the schema."""
    context, page, watch = open_page(browser, server)
    try:
        page.goto(f"{server.base}/graphql")
        page.get_by_label("API key").fill(server.key("reader"))
        page.get_by_role("button", name="Open GraphiQL").click()
        tabs = page.locator(".graphiql-tab")
        expect(tabs).to_have_count(len(documents()), timeout=30_000)
        names = " ".join(tabs.all_inner_texts())
        for operation in ("RememberFacts", "FactsAsOf", "Timeline", "ConflictsInbox",
                          "PendingChanges", "Entities", "RecallRelated", "Spaces", "FactChanged",
                          "Audit"):
            assert operation in names
        watch.assert_clean()
    finally:
        context.close()


def test_the_ide_page_and_the_ui_carry_the_content_security_policy(server: Server) -> None:
    ide = loopback.get(f"{server.base}/graphql", headers=HTML)
    ui = loopback.get(f"{server.base}/ui/")
    assert ide.status_code == 200 and ui.status_code == 200
    for page in (ide, ui):
        assert page.headers["content-security-policy"] == csp.POLICY
        assert page.headers["x-frame-options"] == "DENY"
        assert "unpkg" not in page.text and "cdn" not in page.text.lower()
    tags = [line for line in ide.text.splitlines() if "<script" in line]
    data = [t for t in tags if 'type="application/json"' in t]  # a data block, never run
    assert len(data) == 1 and data[0].count("</script>") == 1
    scripts = [t for t in tags if t not in data]
    assert scripts and all('src="/ui/assets/' in line for line in scripts)
    asset = scripts[0].split('src="')[1].split('"')[0]
    served = loopback.get(server.base + asset)
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("text/javascript")
    assert "immutable" in served.headers["cache-control"]


def test_without_a_bundle_the_pages_say_how_to_build_it(serve_ui: Callable[..., Server],
                                                        tmp_path: Path) -> None:
    bare = serve_ui(ui_dir=tmp_path / "missing")
    for url, headers in ((f"{bare.base}/graphql", HTML), (f"{bare.base}/ui/", {})):
        page = loopback.get(url, headers=headers)
        assert page.status_code == 503
        assert "npm ci && npm run build" in page.text and "make ui" in page.text
        assert page.headers["content-security-policy"] == csp.POLICY
    token = bare.key("reader")
    answer = loopback.post(f"{bare.base}/graphql", json={"query": "{ __typename }"},
                           headers={"Authorization": f"Bearer {token}"})
    assert answer.json() == {"data": {"__typename": "Query"}}


def test_assets_outside_the_bundle_are_not_served(server: Server) -> None:
    for path in ("/ui/assets/../index.html", "/ui/assets/%2e%2e/%2e%2e/README.md",
                 "/ui/assets/nothing.js"):
        assert loopback.get(server.base + path).status_code == 404
