"""In Debian's Chromium: every page runs under the content security policy without breaking it
(no inline scripts or styles), and the control token leaves the address bar at once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.errors import StoreError
from companion.table.virtual import VirtualTable
from tests.browser import TOKEN, LiveTable, screenshot

WATCH_POLICY = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (event) => window.__violations.push(event.violatedDirective + " " + event.blockedURI));
"""


@pytest.mark.parametrize("path", ["/", "/setup", "/history", "/enrol", "/readers"])
def test_pages_keep_the_policy_and_drop_the_token_from_the_address(
    page: Any, live_table: LiveTable, path: str
) -> None:
    page.add_init_script(WATCH_POLICY)
    page.goto(f"{live_table.url}{path}?token={TOKEN}")
    page.wait_for_function("() => !location.search.includes('token')")
    assert TOKEN not in page.url and page.url.endswith(path)
    assert page.evaluate("localStorage.getItem('companion-token')") == TOKEN
    page.wait_for_load_state("load")
    assert page.evaluate("window.__violations") == []
    assert page.errors == []


def test_a_failing_store_shows_a_banner_until_it_recovers(page: Any, live_table: LiveTable) -> None:
    """Issue 15, 1: taps were dropped silently while the page looked fine."""
    store, down = live_table.store, threading.Event()
    append_read = store.log.append_read

    def flaky(*args: Any, **kwargs: Any) -> None:
        if down.is_set():
            raise StoreError(f"{store.name}: the store failed (disk I/O error)")
        append_read(*args, **kwargs)

    store.log.append_read = flaky  # type: ignore[method-assign]
    page.goto(f"{live_table.url}/?token={TOKEN}")
    page.wait_for_selector('#connection[data-status="live"]')
    alarm = page.locator("#store-alarm")
    expect(alarm).to_be_hidden()
    down.set()
    VirtualTable(live_table.service).place("base-1", live_table.tag("core/the-central-brain"))
    expect(alarm).to_be_visible()
    expect(alarm).to_contain_text("cannot save the game (")
    expect(alarm).to_contain_text("disk I/O error")
    expect(alarm).to_contain_text("Do not tap again: your taps are kept")
    screenshot(page, "store-failing")
    down.clear()
    expect(alarm).to_be_hidden(timeout=10_000)
    expect(page.locator("article.base")).to_have_count(1)
    assert page.errors == []
