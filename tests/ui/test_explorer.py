"""The memory explorer in Chromium against the real server: sign-in, what each role sees,
the tenant's spaces, live updates (and their resumption after a lost connection), lost
races, both time controls, paging, the entity graph, hostile values, accessibility and both
screen sizes. Every test fences the network to the server and fails on a console error."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.ui_support import (
    Server,
    SocketGate,
    axe_scan,
    new_tenant,
    open_page,
    remember,
    screenshot,
    sign_in,
)

pytestmark = pytest.mark.races

VIEWS = [("Conflicts", "Conflicts inbox"), ("Pending approvals", "Pending approvals"),
         ("Facts", "Facts"), ("Timeline", "Timeline"), ("Changes", "Changes"),
         ("Entity graph", "Entity graph"),
         ("Audit", "Audit"), ("Write", "Write")]


def open_view(page: Page, tab: str, heading: str) -> None:
    page.get_by_role("navigation", name="Views").get_by_role("link", name=tab).click()
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()


def seed_conflict(server: Server, token: str, space: str) -> None:
    """An incumbent at 0.95 and a weaker rival from another source: held for a person."""
    remember(server, token, space, [{"subject": "database", "value": "Postgres",
                                     "confidence": 0.95}], source="crm")
    lines = remember(server, token, space, [{"subject": "database", "value": "MySQL",
                                             "confidence": 0.5}], source="chat")
    assert lines[0]["conflictId"], lines


def seed_pending(server: Server, token: str, space: str, value: str,
                 current: str = "Amex ending 0005") -> str:
    """A change to a confirm-gated slot (the finance preset's payment_method) waits for an
    approver; the slot's first value does not, so `current` is written first."""
    remember(server, token, space, [{"subject": "payment_method", "value": current}])
    lines = remember(server, token, space, [{"subject": "payment_method", "value": value,
                                             "confidence": 0.95}])
    assert lines[0]["conflictId"], lines
    return str(lines[0]["factId"])


def test_sign_in_shows_what_the_key_may_do_and_keeps_the_key_out_of_urls(
        browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    token = server.key("approver", tenant)
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, token, "ana")
        expect(page.locator(".who")).to_contain_text("read, write, approve")
        expect(page.locator(".counts")).to_contain_text(f"{tenant}/ana/default/default")
        assert token not in page.url
        assert page.evaluate("() => sessionStorage.getItem('graphmem.apiKey')") == token
        assert page.evaluate("() => JSON.stringify(Object.assign({}, localStorage))").find(
            token) == -1
        page.reload()
        expect(page.get_by_role("heading", name="Conflicts inbox")).to_be_visible()
        watch.assert_clean()
        assert watch.left_the_server() == []
    finally:
        context.close()


AUDIT = """query { auditLog(limit: 100) { caller operation outcome space } }"""


def test_signing_in_reads_who_the_key_is_and_records_no_denial(
        browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    admin = server.key("admin", tenant)
    context, page, watch = open_page(browser, server)
    try:
        for role in ("admin", "reader"):
            sign_in(page, server, server.key(role, tenant), "probe")
            expect(page.locator(".who")).to_contain_text(f"({role} of {tenant}, every space)")
            page.get_by_role("button", name="Sign out").click()
        limited = server.key("writer", tenant, ("probe", "ana/bot"))
        sign_in(page, server, limited, "probe")
        expect(page.locator(".who")).to_contain_text("(writer of")
        expect(page.locator(".who")).to_contain_text("probe, ana/bot)")
        expect(page.locator(".who strong")).to_have_text("read, write")
        offered = page.locator(".space-picker datalist option")
        assert {"probe", "ana/bot"} <= set(offered.evaluate_all("els => els.map(e => e.value)"))
        expect(page.get_by_text("Spaces of this tenant")).to_have_count(0)  # tenant-wide only
        server.flush_audit()
        rows = server.gql(admin, AUDIT)["auditLog"]
        assert [r for r in rows if r["outcome"] == "denied"] == []
        entities = server.gql(admin, 'query { entities(space: "probe") { totalCount } }')
        assert entities["entities"]["totalCount"] == 0
        watch.assert_clean()
    finally:
        context.close()


def test_the_space_picker_lists_the_tenants_spaces_with_counts(browser: Browser,
                                                               server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    remember(server, writer, "ana", [{"subject": "a", "value": "1"}])
    remember(server, writer, "bob/bot", [{"subject": "a", "value": "1"},
                                         {"subject": "b", "value": "2"}])
    seed_conflict(server, writer, "bob/bot")
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "ana")
        expect(page.locator(".counts")).to_contain_text(f"{tenant}/ana/default/default")
        page.get_by_text("Spaces of this tenant (2)").click()
        rows = page.get_by_role("region", name="Spaces of this tenant").locator("tbody tr")
        expect(rows.filter(has_text="ana/default/default")).to_contain_text("1")
        bob = rows.filter(has_text="bob/bot/default")
        expect(bob.locator("td").nth(0)).to_have_text("3")  # a, b and the CRM's database
        expect(bob.locator("td").nth(1)).to_have_text("1")  # one open conflict
        screenshot(page, "spaces", "picker")
        bob.get_by_role("button").click()
        expect(page.locator(".counts")).to_contain_text(f"{tenant}/bob/bot/default")
        expect(page.get_by_test_id("count-conflicts")).to_have_text("1")
        expect(page.locator("article.conflict")).to_have_count(1)
        watch.assert_clean()
    finally:
        context.close()


def test_a_wrong_key_gets_a_clear_message(browser: Browser, server: Server) -> None:
    context, page, watch = open_page(browser, server)
    try:
        page.goto(f"{server.base}/ui/")
        page.get_by_label("API key").fill("gm_sk_000000000000_" + "x" * 43)
        page.get_by_role("button", name="Sign in").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("That key was not accepted")
        assert page.evaluate("() => sessionStorage.getItem('graphmem.apiKey')") is None
        screenshot(page, "wrong_key", "sign_in")
        # the 401 answer is the browser's own console line for a failed request
        watch.console_errors = [e for e in watch.console_errors if "401" not in e]
        watch.assert_clean()
    finally:
        context.close()


def test_a_reader_sees_no_resolve_or_confirm_buttons(browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    seed_conflict(server, writer, "ana")
    seed_pending(server, writer, "ana", "Visa ending 4242")
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, server.key("reader", tenant), "ana")
        expect(page.locator(".who strong")).to_have_text("read")
        expect(page.locator("article.conflict")).to_have_count(1)
        expect(page.locator("article.conflict")).to_contain_text("MySQL")
        expect(page.get_by_role("button", name="Resolve")).to_have_count(0)
        expect(page.get_by_role("button", name="Dismiss (both stay valid)")).to_have_count(0)
        expect(page.get_by_role("radio")).to_have_count(0)
        open_view(page, "Pending approvals", "Pending approvals")
        expect(page.locator("article")).to_contain_text("Visa ending 4242")
        expect(page.get_by_role("button", name="Confirm")).to_have_count(0)
        expect(page.get_by_role("button", name="Reject")).to_have_count(0)
        nav = page.get_by_role("navigation", name="Views")
        expect(nav.get_by_role("link", name="Write")).to_have_count(0)
        expect(nav.get_by_role("link", name="Audit")).to_have_count(0)
        watch.assert_clean()
    finally:
        context.close()


def test_resolving_in_one_page_drops_the_badge_in_another(browser: Browser,
                                                          server: Server) -> None:
    tenant = new_tenant()
    approver = server.key("approver", tenant)
    seed_conflict(server, approver, "ops")
    ctx_a, page_a, watch_a = open_page(browser, server)
    ctx_b, page_b, watch_b = open_page(browser, server)
    try:
        sign_in(page_a, server, approver, "ops")
        sign_in(page_b, server, server.key("reader", tenant), "ops")
        badge = page_b.get_by_test_id("count-conflicts")
        expect(badge).to_have_text("1")
        expect(page_b.locator(".live")).to_have_attribute("data-state", "live")
        card = page_a.locator("article.conflict")
        card.get_by_role("radio").first.check()
        card.get_by_label("Note").fill("the CRM is the record")
        card.get_by_role("button", name="Resolve").click()
        expect(page_a.get_by_role("status").filter(has_text="Conflict resolved. Stored: [")
               ).to_be_visible()
        expect(badge).to_have_text("0")
        expect(page_b.locator("article.conflict")).to_have_count(0)
        expect(page_b.get_by_test_id("last-change")).to_contain_text("resolved")
        screenshot(page_b, "live_badge", "after_resolve_elsewhere")
        watch_a.assert_clean()
        watch_b.assert_clean()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_live_updates_resume_after_a_lost_connection_missing_nothing(
        browser: Browser, server: Server) -> None:
    """The connection drops, a conflict opens while the page cannot hear, the connection
    comes back: the page subscribes again after the last event it had, and the server
    replays what it missed."""
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    context, page, watch = open_page(browser, server)
    gate = SocketGate(server.host).attach(page)
    try:
        sign_in(page, server, writer, "net")
        live = page.locator(".live")
        expect(live).to_have_attribute("data-state", "live")
        badge = page.get_by_test_id("count-conflicts")
        expect(badge).to_have_text("0")
        remember(server, writer, "net", [{"subject": "database", "value": "Postgres",
                                          "confidence": 0.95}], source="crm")
        expect(page.get_by_test_id("last-change")).to_contain_text("database = Postgres")
        first = gate.subscriptions("factChanged")
        assert len(first) == 1 and first[0]["after"], first  # from the cursor read at sign-in
        gate.cut()
        expect(live).to_have_attribute("data-state", "reconnecting")
        seed_conflict(server, writer, "net")  # Postgres again (a DEDUP), then a weak MySQL
        expect(badge).to_have_text("0")  # nothing reached the page while it was cut off
        gate.restore()
        expect(live).to_have_attribute("data-state", "live")
        expect(badge).to_have_text("1")
        expect(page.locator("article.conflict")).to_contain_text("MySQL")
        again = gate.subscriptions("factChanged")[-1]
        assert again["after"] != first[0]["after"], "it resumes after the event it had"
        screenshot(page, "live_resume", "after_reconnect")
        watch.assert_clean()
    finally:
        context.close()


def test_an_action_that_lost_a_race_says_so(browser: Browser, server: Server,
                                            serve_ui: Callable[..., Server],
                                            ui_bundle: Path) -> None:
    """Another worker (a second server on the same stores) settles the conflict first while
    the page has not heard of it yet (its events are held back); the page's own attempt then
    says what happened, and the list is read again."""
    other = serve_ui(ui_dir=ui_bundle, slot_schema="preset:finance", rate_per_min=999_999)
    tenant = new_tenant()
    approver = server.key("approver", tenant)
    seed_conflict(server, approver, "race")
    context, page, watch = open_page(browser, server)
    gate = SocketGate(server.host).attach(page)
    try:
        sign_in(page, server, approver, "race")
        card = page.locator("article.conflict")
        expect(card).to_have_count(1)
        expect(page.locator(".live")).to_have_attribute("data-state", "live")
        gate.hold = True
        conflict = server.gql(approver, 'query { conflicts(space: "race") { nodes {'
                                        " conflictId } } }")["conflicts"]["nodes"][0]
        other.gql(approver, "mutation($c: ID!) { dismissConflict(space: \"race\","
                            " conflictId: $c, note: \"elsewhere\") { message } }",
                  {"c": conflict["conflictId"]})
        card.get_by_role("button", name="Dismiss (both stay valid)").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Someone else acted first")
        expect(alert).to_contain_text("is already dismissed")
        expect(card).to_have_count(0)  # read again, although no event reached the page
        expect(page.get_by_test_id("count-conflicts")).to_have_text("0")
        for _ in range(300):  # the feed polls the outbox: wait for its event, held at the gate
            if gate.held:
                break
            page.wait_for_timeout(100)
        assert gate.held, "the other worker's change did reach the server's feed"
        watch.assert_clean()
    finally:
        context.close()


def test_confirm_and_reject_pending_changes(browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    approver = server.key("approver", tenant)
    seed_pending(server, approver, "pay", "Visa ending 4242")
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, approver, "pay")
        expect(page.get_by_test_id("count-pending")).to_have_text("1")
        open_view(page, "Pending approvals", "Pending approvals")
        proposal = page.locator("article").filter(has_text="Visa ending 4242")
        expect(proposal.locator(".side-by-side > div").nth(1)).to_contain_text(
            "Amex ending 0005")  # what it would replace, read with the page
        screenshot(page, "pending", "proposal")
        proposal.get_by_role("button", name="Confirm").click()
        expect(page.get_by_role("status").filter(
            has_text="Change confirmed. Stored: [SUPERSEDE] payment_method = Visa ending 4242"
        )).to_be_visible()
        expect(page.locator("article")).to_have_count(0)
        expect(page.get_by_test_id("count-pending")).to_have_text("0")
        seed_pending(server, approver, "pay", "ACH", current="Visa ending 4242")
        proposal = page.locator("article").filter(has_text="ACH")
        expect(proposal).to_contain_text("Would replace")
        expect(proposal.locator(".side-by-side > div").nth(1)).to_contain_text(
            "Visa ending 4242")
        proposal.get_by_role("button", name="Reject").click()
        expect(page.get_by_role("status").filter(has_text="Rejected: ")).to_be_visible()
        expect(page.locator("article")).to_have_count(0)
        open_view(page, "Facts", "Facts")
        rows = page.locator(".fact-row")
        expect(rows.filter(has_text="payment_method")).to_contain_text("Visa ending 4242")
        expect(rows.filter(has_text="ACH")).to_have_count(0)
        page.get_by_label("Status").select_option(label="Any status")
        page.get_by_label("Search").fill("ach")  # the server's search, case ignored
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("ACH")
        expect(rows.first).to_contain_text("HISTORICAL")
        page.get_by_label("Search").fill("ending")
        expect(rows).to_have_count(2)
        expect(rows.filter(has_text="Amex ending 0005")).to_contain_text("SUPERSEDED")
        watch.assert_clean()
    finally:
        context.close()


def clock_passes(instant: datetime) -> None:
    """Wait until the wall clock (the server's too: one machine) reads later than `instant`."""
    while datetime.now(UTC) <= instant:
        time.sleep(0.05)


def test_the_time_slider_shows_the_superseded_value_at_an_earlier_as_of(
        browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    first = remember(server, writer, "tt", [{"subject": "state", "value": "Redux",
                                             "confidence": 0.95}])
    recorded = server.gql(writer, 'query($id: ID!) { fact(space: "tt", id: $id) { recordedAt } }',
                          {"id": first[0]["factId"]})["fact"]["recordedAt"]
    # the date field has one-second steps: the second version is recorded after the second
    # that follows the first one's
    clock_passes(datetime.fromisoformat(recorded).replace(microsecond=0) + timedelta(seconds=1))
    second = remember(server, writer, "tt", [{"subject": "state", "value": "Zustand",
                                              "action": "SUPERSEDE", "confidence": 0.95}])
    assert second[0]["action"] == "SUPERSEDE", second
    earlier = datetime.fromisoformat(recorded).astimezone().replace(tzinfo=None)
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "tt")
        open_view(page, "Facts", "Facts")
        rows = page.locator(".fact-row")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Zustand")
        clock = page.get_by_role("group", name="Memory as of")
        # the first version's recording second, rounded up: after it, before the second
        clock.get_by_label("At").fill(
            (earlier.replace(microsecond=0) + timedelta(seconds=1)).isoformat())
        expect(rows.first).to_contain_text("Redux")
        expect(rows.first).to_contain_text("ACTIVE")
        expect(page.locator(".counts")).to_contain_text("1 active")
        screenshot(page, "time_travel", "facts_as_of")
        rows.first.get_by_role("link", name="Timeline of state").click()
        expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible()
        versions = page.locator(".timeline > li.version")
        expect(versions).to_have_count(1)  # as memory held it then: one version, current
        expect(versions.first).to_contain_text("Redux")
        expect(versions.first).not_to_contain_text("superseded by")
        clock.get_by_role("button", name="Now").click()
        expect(page.get_by_label("Subject")).to_have_value("state")
        expect(versions).to_have_count(2)
        expect(versions.nth(0)).to_contain_text("Redux")
        expect(versions.nth(0)).to_contain_text("SUPERSEDED")
        expect(versions.nth(0)).to_contain_text(f"superseded by #{second[0]['factId'][:8]}")
        expect(versions.nth(1)).to_contain_text(f"supersedes #{first[0]['factId'][:8]}")
        screenshot(page, "time_travel", "timeline_now")
        open_view(page, "Facts", "Facts")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Zustand")
        watch.assert_clean()
    finally:
        context.close()


def test_the_world_time_control_shows_what_was_true_then(browser: Browser,
                                                         server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("importer", tenant)  # facts with their own validFrom: backfill
    remember(server, writer, "w", [
        {"subject": "office", "value": "Berlin", "validFrom": "2020-01-01T00:00:00+00:00",
         "validTo": "2021-01-01T00:00:00+00:00"},
        {"subject": "team", "value": "Core", "validFrom": "2022-01-01T00:00:00+00:00"}])
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "w")
        open_view(page, "Facts", "Facts")
        rows = page.locator(".fact-row")
        expect(rows).to_have_count(2)
        world = page.get_by_role("group", name="True in the world at")
        world.get_by_label("At", exact=True).fill("2020-06-01T12:00:00")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Berlin")
        expect(page.get_by_test_id("facts-total")).to_contain_text("true at")
        world.get_by_label("At", exact=True).fill("2023-06-01T12:00:00")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Core")
        open_view(page, "Timeline", "Timeline")
        page.get_by_label("Subject").fill("office")
        page.get_by_role("button", name="Show timeline").click()
        expect(page.get_by_role("status").filter(has_text="No version of this subject at that"
                                                 " time")).to_be_visible()
        world.get_by_role("button", name="Now").click()
        expect(page.locator(".timeline > li.version")).to_have_count(1)
        watch.assert_clean()
    finally:
        context.close()


def test_the_changes_view_shows_what_changed_between_two_times(browser: Browser,
                                                              server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("importer", tenant)  # the valid-clock facts carry their own validFrom
    first = remember(server, writer, "ch", [{"subject": "state", "value": "Redux",
                                             "confidence": 0.95}])
    recorded = server.gql(writer, 'query($id: ID!) { fact(space: "ch", id: $id) { recordedAt } }',
                          {"id": first[0]["factId"]})["fact"]["recordedAt"]
    start = datetime.fromisoformat(recorded).replace(microsecond=0) + timedelta(seconds=1)
    clock_passes(start)  # the pickers have one-second steps
    second = remember(server, writer, "ch", [
        {"subject": "state", "value": "Zustand", "action": "SUPERSEDE", "confidence": 0.95},
        {"subject": "office", "value": "Berlin", "validFrom": "2020-01-01T00:00:00+00:00",
         "confidence": 0.95}])
    assert second[0]["action"] == "SUPERSEDE", second
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "ch")
        open_view(page, "Changes", "Changes")
        page.get_by_label("From").fill(start.astimezone().replace(tzinfo=None).isoformat())
        page.get_by_role("button", name="Show changes").click()
        expect(page.get_by_test_id("changes-total")).to_contain_text("2 slots changed")
        state = page.get_by_role("region", name="Changes of state")
        expect(state.get_by_test_id("before")).to_have_text("Redux")
        expect(state.get_by_test_id("after")).to_have_text("Zustand")
        expect(state).to_contain_text(f"#{first[0]['factId'][:8]} stopped being current")
        expect(state).to_contain_text(f"#{second[0]['factId'][:8]} became current")
        expect(state.locator("code").first).to_have_text(re.compile(r"^e"))
        assert axe_scan(page) == []
        screenshot(page, "changes", "recorded")
        page.get_by_label("Clock").select_option("VALID")
        page.get_by_label("From").fill("2019-06-01T00:00:00")
        page.get_by_label("To", exact=True).fill("2020-06-01T00:00:00")
        page.get_by_role("button", name="Show changes").click()
        expect(page.get_by_test_id("changes-total")).to_contain_text("1 slot changed")
        expect(page.get_by_role("region", name="Changes of office")).to_contain_text("added")
        page.get_by_label("To", exact=True).fill("2019-01-01T00:00:00")
        page.get_by_role("button", name="Show changes").click()
        expect(page.get_by_role("alert")).to_have_text(
            "The first time must come before the second.")
        page.get_by_label("To", exact=True).fill("")
        page.get_by_label("Clock").select_option("RECORDED")
        page.get_by_label("From").fill(start.astimezone().replace(tzinfo=None).isoformat())
        page.get_by_role("button", name="Show changes").click()
        state.get_by_role("link", name="Timeline of state").click()
        expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible()
        expect(page.locator(".timeline > li.version")).to_have_count(2)
        watch.assert_clean()
    finally:
        context.close()


def test_undo_and_redo_from_the_timeline_and_from_a_write(browser: Browser,
                                                          server: Server) -> None:
    tenant = new_tenant()
    approver = server.key("approver", tenant)
    remember(server, approver, "un", [{"subject": "state", "value": "Redux",
                                       "confidence": 0.95}])
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, approver, "un")
        open_view(page, "Write", "Write")
        page.get_by_label("Subject").fill("state")
        page.get_by_label("Value").fill("Zustand")
        page.get_by_role("button", name="Remember").first.click()
        results = page.get_by_role("status", name="Results")
        expect(results).to_contain_text("[SUPERSEDE] state = Zustand")
        page.get_by_role("button", name="Undo this write").click()
        expect(page.locator(".undo-done")).to_contain_text("Restored state = Redux")
        expect(page.get_by_test_id("redacted")).to_have_count(0)
        counts = page.locator(".counts")
        expect(counts).to_contain_text("1 active")
        page.get_by_role("button", name="Redo this write").click()
        expect(page.locator(".undo-done")).to_contain_text("Retired")
        open_view(page, "Facts", "Facts")
        rows = page.locator(".fact-row")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Zustand")
        open_view(page, "Write", "Write")
        page.get_by_label("Subject").fill("deploy_key")
        page.get_by_label("Value").fill("AKIAIOSFODNN7EXAMPLE")
        page.get_by_role("button", name="Remember").first.click()
        expect(page.get_by_test_id("redacted")).to_have_text(
            "Redacted before storing: aws_key.")
        expect(results).to_contain_text("deploy_key = [REDACTED:aws_key]")
        open_view(page, "Facts", "Facts")
        rows.filter(has_text="state").get_by_role("link", name="Timeline of state").click()
        versions = page.locator(".timeline > li.version")
        expect(versions.filter(has_text="undone by event")).to_have_count(2)
        current = versions.filter(has_text="ACTIVE")
        expect(current).to_have_count(1)
        assert axe_scan(page) == []
        screenshot(page, "undo", "timeline")
        current.get_by_role("button", name=re.compile(r"^Undo the write of")).click()
        # the timeline reads itself again: the result stays above it, the new version below
        expect(page.locator(".timeline-undo")).to_contain_text("Undid event")
        expect(versions.filter(has_text="ACTIVE")).to_contain_text("Redux")
        expect(versions.filter(has_text="undone by event")).to_have_count(3)
        open_view(page, "Facts", "Facts")
        expect(rows.filter(has_text="state")).to_contain_text("Redux")
        watch.assert_clean()
    finally:
        context.close()


def test_the_facts_list_pages_by_cursor(browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    remember(server, writer, "p", [{"subject": f"setting_{i:03}", "value": f"value {i}"}
                                   for i in range(60)])
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "p")
        open_view(page, "Facts", "Facts")
        rows = page.locator(".fact-row")
        expect(page.get_by_test_id("facts-total")).to_contain_text("60 facts")
        expect(rows).to_have_count(50)
        remember(server, writer, "p", [{"subject": "setting_new", "value": "late"}])
        page.get_by_role("button", name="Show more facts").click()
        expect(rows).to_have_count(61)  # the next page starts where the first ended
        subjects = rows.locator(".subject").all_inner_texts()
        assert len(set(subjects)) == 61, "no fact repeated"
        expect(page.get_by_role("button", name="Show more facts")).to_have_count(0)
        watch.assert_clean()
    finally:
        context.close()


def test_the_entity_graph_draws_a_three_hop_neighbourhood(browser: Browser,
                                                          server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    chain = [("Billing", "calls", "Auth"), ("Auth", "reads from", "Ledger"),
             ("Ledger", "owned by", "Ana")]
    remember(server, writer, "g", [
        {"subject": f"{h.lower()}_{r.replace(' ', '_')}", "head": h, "headType": "service",
         "relation": r, "tail": t, "tailType": "person" if t == "Ana" else "service"}
        for h, r, t in chain])
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "g")
        open_view(page, "Entity graph", "Entity graph")
        page.get_by_label("Hops").select_option("3")
        page.get_by_label("Find an entity").fill("bill")
        page.get_by_test_id("entity-matches").get_by_role("button",
                                                          name="Billing (service)").click()
        entities = page.get_by_test_id("graph-entities").locator("li")
        edges = page.get_by_test_id("graph-edges").locator("li")
        expect(entities).to_have_count(4)
        expect(edges).to_have_count(3)
        assert sorted(entities.evaluate_all("els => els.map(e => e.dataset.key)")) == [
            "person:ana", "service:auth", "service:billing", "service:ledger"]
        assert sorted(edges.evaluate_all("els => els.map(e => e.dataset.head + '>' +"
                                         " e.dataset.tail)")) == [
            "service:auth>service:ledger", "service:billing>service:auth",
            "service:ledger>person:ana"]
        expect(page.locator(".graph-canvas canvas").first).to_be_attached()
        screenshot(page, "entity_graph", "three_hops")
        page.get_by_label("Hops").select_option("1")  # drawn again at once
        expect(entities).to_have_count(2)
        page.get_by_role("button", name="Expand Auth").click()
        expect(entities).to_have_count(3)
        assert "service:ledger" in entities.evaluate_all("els => els.map(e => e.dataset.key)")
        watch.assert_clean()
    finally:
        context.close()


def test_a_question_draws_its_best_path_bold_and_names_the_answer(
        browser: Browser, serve_ui: Callable[..., Server], ui_bundle: Path) -> None:
    server = serve_ui(ui_dir=ui_bundle, embedding_base_url=None)  # ranking needs the model
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    facts = [("Amara Dunmore", "person", "works at", "Globex", "organisation", "employer"),
             ("Amara Dunmore", "person", "lives in", "Bergen", "location", "home_city"),
             ("Globex", "organisation", "headquartered in", "Montreal", "location",
              "headquarters"),
             ("Globex", "organisation", "makes", "widgets", "product", "product")]
    remember(server, writer, "q", [
        {"subject": f"{h.lower().replace(' ', '_')}_{role}", "head": h, "headType": ht,
         "relation": r, "tail": t, "tailType": tt, "confidence": 0.95}
        for h, ht, r, t, tt, role in facts])
    context, page, watch = open_page(browser, server)
    try:
        sign_in(page, server, writer, "q")
        open_view(page, "Entity graph", "Entity graph")
        page.get_by_role("textbox", name="Question").fill(
            "Where is Amara Dunmore's employer headquartered?")
        page.get_by_role("button", name="Draw related paths").click()
        answer = page.get_by_test_id("graph-answer")
        expect(answer).to_contain_text("Montreal (location)")
        expect(answer).to_contain_text('WORKS_AT ← "employer"')
        readings = page.get_by_test_id("graph-readings").locator("li")
        expect(readings).to_have_count(2)
        expect(readings.first).to_contain_text("“employer” → WORKS_AT (text)")
        expect(readings.nth(1)).to_contain_text(
            "“headquartered” → HEADQUARTERED_IN (label: headquartered in)")
        edges = page.get_by_test_id("graph-edges").locator("li")
        best = page.get_by_test_id("graph-edges").locator("li[data-best='true']")
        expect(best).to_have_count(2)
        assert sorted(best.evaluate_all("els => els.map(e => e.dataset.head + '>' +"
                                        " e.dataset.tail)")) == [
            "organisation:globex>location:montreal",
            "person:amara dunmore>organisation:globex"]
        assert edges.count() > 2, "the other paths are drawn too, faded"
        expect(page.locator(".graph-canvas canvas").first).to_be_attached()
        screenshot(page, "entity_graph", "question")
        page.get_by_role("textbox", name="Question").fill(
            "What is the shoe size of Amara Dunmore's employer?")
        page.get_by_role("button", name="Draw related paths").click()
        expect(page.get_by_test_id("graph-no-answer")).to_be_visible()
        expect(page.get_by_test_id("graph-unexplained")).to_contain_text("“shoe size”")
        watch.assert_clean()
    finally:
        context.close()


HOSTILE = ["<script>alert('x')</script>", '<img src=x onerror="alert(1)">',
           "\u202eevil\u202c then \u200fRTL\u200f", "ok" + "\u0000" * 0]


def test_hostile_values_render_as_text(browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    big = "long " * 20_480  # 100 KB
    facts = [{"subject": f"hostile_{i}", "value": v} for i, v in enumerate(HOSTILE[:3])]
    facts.append({"subject": "big_value", "value": big})
    facts.append({"subject": "<b>bold</b>", "value": "subject markup"})
    remember(server, writer, "h", facts, source="<script>document.title='pwned'</script>")
    for size in ("wide", "narrow"):
        context, page, watch = open_page(browser, server, size)
        try:
            sign_in(page, server, writer, "h")
            open_view(page, "Facts", "Facts")
            rows = page.locator(".fact-row")
            expect(rows).to_have_count(5)
            for value in HOSTILE[:3]:
                expect(page.locator(".fact-list")).to_contain_text(value.replace("\u202e", "")
                                                                   .replace("\u202c", "")
                                                                   .replace("\u200f", "")
                                                                   [:5])
            assert page.locator(".fact-list script, .fact-list img, .fact-list b").count() == 0
            texts = page.locator(".fact-list").inner_text()
            assert "<script>alert('x')</script>" in texts
            assert '<img src=x onerror="alert(1)">' in texts
            assert "Show all" in texts
            page.get_by_role("button", name="Show all").click()
            expect(page.get_by_role("region", name="Full value of big_value")).to_be_visible()
            assert page.title() != "pwned"
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"{size}: the page widened to {width}"
            screenshot(page, "hostile_values", size)
            watch.assert_clean()
        finally:
            context.close()


@pytest.mark.parametrize("size", ["wide", "narrow"])
def test_every_view_passes_an_accessibility_scan(browser: Browser, server: Server,
                                                 size: str) -> None:
    tenant = new_tenant()
    admin = server.key("admin", tenant)
    seed_conflict(server, admin, "a11y")
    seed_pending(server, admin, "a11y", "Visa ending 1111")
    context, page, watch = open_page(browser, server, size)
    try:
        page.goto(f"{server.base}/ui/")
        assert axe_scan(page) == [], "sign-in"
        screenshot(page, f"views_{size}", "0_sign_in")
        sign_in(page, server, admin, "a11y")
        for number, (tab, heading) in enumerate(VIEWS, start=1):
            open_view(page, tab, heading)
            page.wait_for_load_state("networkidle")
            found = axe_scan(page)
            assert found == [], f"{heading}: {found}"
            screenshot(page, f"views_{size}", f"{number}_{tab.lower().replace(' ', '_')}")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"{heading} widened to {width}"
        watch.assert_clean()
    finally:
        context.close()


def test_the_views_are_keyboard_operable(browser: Browser, server: Server) -> None:
    tenant = new_tenant()
    writer = server.key("writer", tenant)
    context, page, watch = open_page(browser, server)
    try:
        page.goto(f"{server.base}/ui/")
        expect(page.get_by_label("API key")).to_be_visible()  # rendered before the first Tab
        page.keyboard.press("Tab")
        expect(page.get_by_label("API key")).to_be_focused()
        page.keyboard.type(writer)
        page.keyboard.press("Tab")
        expect(page.get_by_label("Space")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Conflicts inbox")).to_be_visible()
        facts_tab = page.get_by_role("navigation", name="Views").get_by_role("link", name="Facts")
        facts_tab.focus()
        outline = facts_tab.evaluate("e => getComputedStyle(e).outlineStyle")
        assert outline != "none", "focus must be visible"
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Facts", exact=True)).to_be_visible()
        watch.assert_clean()
    finally:
        context.close()
