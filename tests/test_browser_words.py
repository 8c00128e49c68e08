"""The table page in words: names, never zone ids; a zone whose base scored asks for the next
base; real plurals; a prompt that became false is withdrawn."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser import LiveTable
from tests.test_browser_table import open_table

ZONE_ID = re.compile(r"\b(base|seat)-\d")


def test_a_scored_base_leaves_a_prompt_for_the_next_and_no_zone_ids(
    page: Any, live_table: LiveTable
) -> None:
    for card in ("munchkin/treasure-bath", "munchkin/hippogriff", "core/king-rex"):
        live_table.tap(card, "base-1")
    live_table.tap("munchkin/sword-lord", "base-1")
    live_table.tap("core/hoverbot", "base-1")
    open_table(page, live_table)
    empty = page.locator('section.empty-zone[data-zone="base-2"]')  # no base dealt there yet
    expect(empty).to_contain_text("Base zone 2 is empty")
    page.locator("section.prompt.ready button", has_text="Score Treasure Bath").click()
    page.locator("section.prompt.scoring button", has_text="Award").click()
    gap = page.locator('section.empty-zone[data-zone="base-1"]')
    expect(gap).to_contain_text("Base zone 1 is empty")
    expect(gap).to_contain_text("Deal the next base from the base deck, face up, and tap it here.")
    # the bases keep their places: the empty zone 1 comes before zone 2
    zones = page.locator("#bases > *").evaluate_all("(all) => all.map((e) => e.dataset.zone)")
    assert zones == ["base-1", "base-2", "base-3"]
    shown = page.inner_text("main")
    assert not ZONE_ID.search(shown), ZONE_ID.findall(shown)
    assert "(s)" not in shown
    assert page.errors == []


def test_a_prompt_that_became_false_is_withdrawn(page: Any, live_table: LiveTable) -> None:
    open_table(page, live_table)
    live_table.tap("core/king-rex", "base-2")  # no base there yet
    prompt = page.locator("#prompts section.prompt", has_text="There is no base on base zone 2")
    expect(prompt).to_be_visible()
    live_table.tap("munchkin/treasure-bath", "base-2")
    expect(prompt).to_have_count(0)
    expect(page.locator("#recent ol.events")).to_contain_text(
        "No longer asked (a base is there now: tap the card again)"
    )
    assert page.errors == []
