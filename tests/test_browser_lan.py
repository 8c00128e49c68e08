"""The dashboard on this machine's LAN address, as a tablet on the Wi-Fi opens it: plain http,
so not a secure context. Chromium logs no error there (no Cross-Origin-Opener-Policy it would
ignore), and the screen is kept on by the method that works there, a playing video (the Screen
Wake Lock API does not exist on such a page). Skipped on a machine with no LAN address."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.table.network import lan_address
from companion.web import mdns
from companion.web.server import Dashboard
from tests.browser import TOKEN, LiveTable


@pytest.fixture
def lan_url(live_table: LiveTable, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    address = lan_address("0.0.0.0")
    if address is None:
        pytest.skip("this machine has no LAN address to serve on")
    monkeypatch.setattr(mdns, "announce", lambda address: None)  # no mDNS from a test
    dashboard = Dashboard(live_table.service, host=address, port=0, token=TOKEN, simulated=True)
    thread = threading.Thread(target=dashboard.serve_forever, daemon=True)
    thread.start()
    yield f"http://{address}:{dashboard.port}"
    dashboard.close()
    thread.join(5)


def test_on_the_lan_address_no_console_error_and_the_screen_stays_on(
    page: Any, lan_url: str
) -> None:
    answer = page.goto(f"{lan_url}/?token={TOKEN}")
    assert answer is not None and answer.status == 200
    assert "cross-origin-opener-policy" not in answer.headers  # ignored there, and logged
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("body")).to_have_attribute("data-awake", "on")
    expect(page.locator("body")).to_have_attribute("data-awake-by", "video")
    expect(page.locator("#awake")).to_have_text("Screen stays on")
    # the video plays: its clock moves on
    clock = "() => { const v = document.querySelector('video.keep-awake');"
    clock += " return v && !v.paused && v.currentTime; }"
    started = page.wait_for_function(clock).json_value()
    page.wait_for_function(f"() => ({clock})() > {started}")
    assert page.locator("video.keep-awake").get_attribute("aria-hidden") == "true"
    assert page.errors == []


def test_on_loopback_the_page_is_secure_and_keeps_the_opener_policy(
    page: Any, live_table: LiveTable
) -> None:
    answer = page.goto(f"{live_table.url}/?token={TOKEN}")
    assert answer is not None
    assert answer.headers["cross-origin-opener-policy"] == "same-origin"
    expect(page.locator("body")).to_have_attribute("data-awake", "on")
    assert page.evaluate("document.body.dataset.awakeBy") is None  # the Wake Lock API
    assert page.errors == []
