"""Every page at a tablet's and a phone's sizes in Debian's Chromium: nothing wider than the
screen (down to 360 px), the whole navigation in view, no console errors; screenshots of every
page at 1280x800, 800x1280 and 390x844 land in tests/screenshots/ for people to look at."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
from companion.table.demo import DemoPlayer
from companion.table.games import DEMO_PLAYERS
from tests.browser import TOKEN, LiveTable, screenshot

SIZES = [(1280, 800), (800, 1280), (390, 844), (360, 740)]
PAGES = {
    "table": "/",
    "setup": "/setup",
    "history": "/history",
    "game": "/history/{game}",
    "enrol": "/enrol",
    "readers": "/readers",
}
#: what each page shows once it has loaded
LOADED = {
    "table": "#connection[data-status=live]",
    "setup": "body[data-ready]",
    "history": "#games a",
    "game": "#scorings tbody tr",
    "enrol": "#bulk-faction option",
    "readers": "#reader-list tr[data-zone]",
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, catalogue: Catalogue) -> Any:
    """A demo game six turns in."""
    db = Path(tmp_path_factory.mktemp("screens")) / "table.db"
    table = LiveTable(db, catalogue, zones=3, players=DEMO_PLAYERS)
    demo = DemoPlayer(table.service, rng=random.Random(4), direct=True)
    for line in demo.lines():
        demo.play(line)
        if table.live.game.state.table.turn > 6:
            break
    yield table
    table.close()


class Fetches:
    """The page's requests under way (its event stream left out: it stays open)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.under_way: set[Any] = set()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        if request.resource_type != "eventsource":
            self.under_way.add(request)

    def _ended(self, request: Any) -> None:
        self.under_way.discard(request)

    def settled(self, timeout: float = 10.0) -> None:
        """Every request answered and what the page made of them on screen. Playwright's
        "networkidle" waited 500 ms of quiet after each page: 12 s of this test's 22."""
        deadline = time.monotonic() + timeout
        while self.under_way:
            assert time.monotonic() < deadline, f"requests still under way: {self.under_way}"
            self.page.wait_for_timeout(10)  # Playwright hands over its events while it waits
        self.page.evaluate("document.fonts.ready.then(() => true)")
        # the answers' handlers run, then a frame is drawn with what they changed
        self.page.evaluate("new Promise(done => setTimeout(() => requestAnimationFrame(done)))")


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_page_fits_the_screen(
    browser: Any, played: LiveTable, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    fetches = Fetches(page)
    try:
        for name, path in PAGES.items():
            # the table, first, with the token: it moves into this tablet's storage (and out
            # of the address) for the other pages, without a page load of its own
            token = f"?token={TOKEN}" if name == "table" else ""
            page.goto(played.url + path.format(game=played.live.game_id) + token)
            expect(page.locator(LOADED[name]).first).to_be_attached()
            fetches.settled()
            wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wider <= 0, f"{name} is {wider}px wider than a {width}px screen"
            last = page.locator("nav.top a").last.bounding_box()
            assert last is not None and last["x"] + last["width"] <= width, f"{name}: nav cut"
            if (width, height) != (360, 740):
                screenshot(page, f"{name}-{width}x{height}")
        assert errors == []
    finally:
        context.close()


def test_the_history_chart_is_by_turn_and_fits_a_phone(browser: Any, played: LiveTable) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto(f"{played.url}/history/{played.live.game_id}")
        chart = page.locator("#vp-chart")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] <= 360
        svg = page.request.get(f"{played.url}/history/{played.live.game_id}/vp.svg").text()
        assert ">turn</text>" in svg and "log entries" not in svg
        assert all(f">{turn}</text>" in svg for turn in range(1, 7))  # a tick under each turn
    finally:
        context.close()
