"""The table page in words: names, never zone ids; a zone whose base scored asks for the next
base; real plurals; a prompt that became false is withdrawn."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from companion.simulation.plausible import plausible_lines
from tests.browser import LiveTable
from tests.test_browser_table import open_table

ZONE_ID = re.compile(r"\b(base|seat)-\d")


def test_a_scored_base_leaves_a_prompt_for_the_next_and_no_zone_ids(
    page: Any, live_table: LiveTable
) -> None:
    live_table.ready_treasure_bath()
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


def test_a_prompt_with_many_choices_keeps_the_bases_in_view(
    page: Any, live_table: LiveTable, catalogue: Any
) -> None:
    open_table(page, live_table)
    plan = plausible_lines(random.Random(0), live_table.header, catalogue)
    for line in plan:  # seed 0: Rampage asks which of 12 minions it affects
        live_table.service.submit({k: v for k, v in line.items() if k != "at"})
        if any(len(p.options) >= 10 for p in live_table.live.game.state.prompts):
            break
    else:
        raise AssertionError("no prompt with ten choices came: choose another seed")
    row = page.locator("section.prompt .options.many")
    expect(row).to_be_visible()
    assert row.locator("button").count() >= 10
    tray = page.locator("#prompts").bounding_box()
    assert tray is not None and tray["height"] < 260, tray  # it pushed them down by 325 px
    first_base = page.locator("#bases > *").first.bounding_box()
    assert first_base is not None and first_base["y"] < 800 - 100
    row.locator("button").last.focus()  # reachable by keyboard: the row scrolls to it
    assert row.evaluate("(r) => r.scrollLeft") > 0
    assert page.errors == []


def test_redo_stays_beside_undo_until_the_next_change(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("core/king-rex", "base-1")
    open_table(page, live_table)
    page.locator("#undo").click()
    redo = page.locator("#redo")
    expect(redo).to_be_visible()
    expect(page.locator(".redo-what")).to_have_text(
        "Redo puts back: Ann played King Rex on Treasure Bath"
    )
    # the toast goes by itself after 10 s; Redo stays beside Undo
    page.evaluate("document.querySelectorAll('#messages .toast').forEach((t) => t.remove())")
    expect(page.locator("#messages .toast")).to_have_count(0)
    expect(redo).to_be_visible()
    redo.click()
    expect(page.locator("#recent ol.events li").first).to_have_text(
        "Ann played King Rex on Treasure Bath"
    )
    expect(redo).to_have_count(0)  # that change makes it moot
    page.locator("#undo").click()
    expect(page.locator("#redo")).to_be_visible()
    live_table.tap("munchkin/hippogriff", "base-1")  # another change: nothing to redo
    expect(page.locator("#redo")).to_have_count(0)
    assert page.errors == []


def test_a_tap_on_a_card_says_why_it_has_its_power(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("core/king-rex", "base-1")  # 7 printed
    live_table.tap("munchkin/sword-lord", "base-1")  # +1 to Ann's other minions there
    open_table(page, live_table)
    page.locator("button.card", has_text="King Rex").click()
    expect(page.locator("#sheet .power-why")).to_have_text("Power 8: 7 printed, +1 from Sword Lord")
    assert page.errors == []
