"""Small things a newcomer trips over, in the browser: the 404 page fits a phone, History's
game link is a target a finger can hit and says how a void game ended."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
from companion.table.live import LiveGame
from tests.browser import LiveTable


def test_the_404_page_fits_a_phone(browser: Any, live_table: LiveTable) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        answer = page.goto(f"{live_table.url}/no/such/page/with/a/very/long/address/indeed")
        assert answer is not None and answer.status == 404
        expect(page.locator("h1")).to_have_text("There is no page here")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        expect(page.locator("a.big-link")).to_have_attribute("href", "/")
    finally:
        context.close()


def test_historys_game_link_is_a_big_enough_target(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/history")
    link = page.locator("#games tbody tr a.game-link").first
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24, box
    expect(link).to_have_accessible_name(f"Game {live_table.live.game_id}")
    assert page.errors == []


def test_history_says_a_void_game_ended_unfinished(
    page: Any, live_table: LiveTable, catalogue: Catalogue
) -> None:
    first = live_table.live.game_id
    again = LiveGame.start(live_table.store, live_table.header, catalogue)
    live_table.service.replace_game(again, "a tablet at 192.0.2.9")  # the first one ends void
    page.goto(f"{live_table.url}/history")
    rows = page.locator("#games tbody tr")
    expect(rows.first).to_contain_text("playing now")
    expect(rows.nth(1)).to_contain_text("void: ended unfinished when a new game started")
    assert live_table.store.log.game(first).void_by == "a tablet at 192.0.2.9"
    assert page.errors == []
