"""Oops You Did It Again on the tablet, in Debian's Chromium: burying a card from the
tablet's bury action then the tap, and a duel from a minion's sheet to its result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
from tests.browser import TOKEN, LiveTable, screenshot

PLAYERS = {
    "Ann": ["oops/ancient-egyptians", "core/dinosaurs"],
    "Ben": ["oops/samurai", "core/robots"],
}


@pytest.fixture
def oops_table(tmp_path: Path, catalogue: Catalogue) -> Any:
    table = LiveTable(tmp_path / "oops.db", catalogue, players=PLAYERS)
    table.tap("core/jungle-oasis", "base-1")  # breakpoint 12, no ability
    yield table
    table.close()


def open_table(page: Any, table: LiveTable) -> Any:
    page.goto(f"{table.url}/?token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")
    return page.locator('article.base[data-zone="base-1"]')


def test_burying_from_the_tablet_then_the_tap(page: Any, oops_table: LiveTable) -> None:
    oops_table.tap("core/king-rex", "base-1")
    panel = open_table(page, oops_table)
    expect(panel.locator(".total")).to_have_text("7")
    panel.locator("button.base-name").click()
    page.locator("#sheet button", has_text="Ann buries one").click()
    waiting = page.locator("section.prompt.bury-next")
    expect(waiting).to_contain_text("Ann: tap the card to bury face down at Jungle Oasis")
    page.locator("#virtual .owners button", has_text="Ann").click()
    page.locator("#virtual button.vcard", has_text="Laseratops").first.click()
    page.locator('#virtual button.zone-button[data-zone="base-1"]').click()
    expect(panel.locator('.buried .chip[data-player="Ann"]')).to_have_text("Ann 1")
    expect(waiting).to_have_count(0)
    expect(panel.locator(".total")).to_have_text("7")  # a buried card has no power
    expect(panel).not_to_contain_text("Laseratops")  # nor a name on the table
    screenshot(page, "oops-buried")
    buried = panel.locator(".buried")
    uid = oops_table.live.game.state.table.base_at("base-1").buried[0].tag
    oops_table.service.submit({"tap": uid, "zone": "base-1"})  # tapped again: uncovered
    expect(panel.locator(".total")).to_have_text("11")
    expect(buried).to_have_count(0)
    assert page.errors == []


def test_a_duel_from_a_minions_sheet(page: Any, oops_table: LiveTable) -> None:
    rex = oops_table.tap("core/king-rex", "base-1")
    oops_table.tap("oops/ronin", "base-1")
    panel = open_table(page, oops_table)
    expect(panel.locator(".total")).to_have_text("10")
    panel.locator(f'button.card[data-tag="{rex}"]').click()
    page.locator("#sheet button", has_text="Duel Ronin (Ben)").click()
    duel = page.locator("section.duel-panel")
    expect(duel.locator('.duelist[data-side="challenger"] .big')).to_have_text("7")
    expect(duel.locator('.duelist[data-side="challenged"] .big')).to_have_text("3")
    expect(duel).to_contain_text("Now: Ann would win")
    screenshot(page, "oops-duel")
    duel.locator("#resolve-duel").click()
    expect(duel).to_contain_text("Ann won the duel with King Rex")
    assert oops_table.live.game.state.duel.status == "resolved"
    assert page.errors == []
