"""Setup on a league table in Debian's Chromium: the league's names (cached on the table) are
offered for each seat, and a seat can play as a guest."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser import TOKEN, LiveTable


def test_setup_offers_league_names_and_a_guest_seat(page: Any, live_table: LiveTable) -> None:
    store = live_table.service.live.store
    store.log.league_outbox = True
    store.outbox.cache_league_players(["Ann", "Bea", "Cyd"])
    page.goto(f"{live_table.url}/setup?token={TOKEN}")
    page.wait_for_selector("body[data-ready]")
    offered = page.locator("#league-names option")
    expect(offered).to_have_count(3)
    assert page.locator("#seats input.name").first.get_attribute("list") == "league-names"
    page.locator("#fewer").click()  # two players
    page.locator("#seats .seat input.name").nth(0).fill("Bea")
    page.locator("#seats .seat input.name").nth(1).fill("Visitor")
    page.locator("#seats .seat input.guest").nth(1).check()
    page.locator("#random").click()
    page.locator("#zones").select_option("2")
    page.locator("#start").click()
    page.locator("#replace-yes").click()  # the table's game in progress ends (void)
    expect(page.locator("#started")).to_contain_text("started")
    header = live_table.service.live.game.state.header
    assert list(header.players) == ["Bea", "Visitor"]
    assert header.raw["guests"] == ["Visitor"]
    assert page.errors == []


def test_a_table_without_a_league_shows_no_guest_boxes(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/setup?token={TOKEN}")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#seats .seat")).to_have_count(3)
    expect(page.locator("#seats input.guest")).to_have_count(0)
    expect(page.locator("#league-names")).to_have_count(0)
    assert page.errors == []
