"""Accessibility as a feature: axe-core finds no WCAG 2.2 AA violation on any page or state of
the tablet (table, prompt tray, a sheet, a fight, setup and its question, history, a game,
enrol, readers, the 404 page, view only, no game yet), every control is reached by keyboard,
and score changes, a base becoming ready and the winner are announced through a live region.
The league board is checked in ``tests/league/test_a11y.py``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
from companion.table.demo import DemoPlayer
from tests.a11y import axe_violations
from tests.browser import TOKEN, LiveTable
from tests.test_browser_cthulhu import SEATS, put, start_cthulhu
from tests.test_browser_first_run import FirstRun
from tests.test_browser_table import open_table

PAGES = ["/setup", "/history", "/enrol", "/readers", "/no/such/page"]
#: notes, in ``window.tabbed``, the element focused after each Tab key (as the key comes up):
#: read once at the end instead of a round trip to the page after every press
TABBED = """() => {
  window.tabbed = [];
  document.addEventListener("keyup", (event) => {
    if (event.key === "Tab") window.tabbed.push(document.activeElement.outerHTML);
  }, true);
}"""


def tab_through(page: Any, presses: int) -> set[str]:
    """The elements (their outerHTML) that Tab pressed ``presses`` times focused."""
    page.evaluate(TABBED)
    for _ in range(presses):
        page.keyboard.press("Tab")
    tabbed: list[str] = page.evaluate("() => window.tabbed")
    assert len(tabbed) == presses  # every press was noted
    return set(tabbed)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_table_and_its_states_have_no_axe_violations(
    browser: Any, live_table: LiveTable, size: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        live_table.ready_treasure_bath()
        open_table(page, live_table)
        expect(page.locator("section.prompt.ready")).to_be_visible()
        assert axe_violations(page) == [], "the table with a base ready to score"
        page.locator("button.base-name").first.click()
        expect(page.locator("#sheet")).to_be_visible()
        assert axe_violations(page) == [], "a base's sheet"
        page.keyboard.press("Escape")
        page.locator("section.prompt.ready button", has_text="Score Treasure Bath").click()
        expect(page.locator("section.prompt.scoring")).to_be_visible()
        assert axe_violations(page) == [], "a base scoring"
        page.locator("section.prompt.scoring button", has_text="Award").click()
        expect(page.locator("#prompts .deals .deal")).to_be_visible()
        assert axe_violations(page) == [], "the treasure draft, and an empty base zone"
        page.locator("#prompts .deals button", has_text="All dealt").click()
        live_table.tap("core/war-raptor", "base-2")  # a question: no base there
        expect(page.locator("section.prompt.no-base")).to_be_visible()
        assert axe_violations(page) == [], "the prompt tray with a question"
        page.evaluate("localStorage.clear()")
        page.reload()
        expect(page.locator("#view-only-help")).to_be_visible()
        assert axe_violations(page) == [], "view only"
    finally:
        context.close()


def open_page(page: Any, table: LiveTable, path: str) -> None:
    """``path`` with the token, once its content is there (the setup page's catalogue, the
    history's games, the enrolment page's lists: a control filled later is another control)."""
    page.goto(f"{table.url}{path}?token={TOKEN}")
    expect(page.locator("h1").first).to_be_visible()
    if path == "/setup":
        page.wait_for_selector("body[data-ready]")
    if path == "/history":
        expect(page.locator("#games tbody tr").first).to_be_visible()
    if path == "/enrol":  # its last list filled (enrol.js fills them in one go)
        expect(page.locator("#bind-card option").first).to_be_attached()


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_no_axe_violations(
    page: Any, shared_live_table: LiveTable, path: str
) -> None:
    open_page(page, shared_live_table, path)
    assert axe_violations(page) == []


def test_a_game_page_and_the_setup_question_have_no_axe_violations(
    page: Any, live_table: LiveTable
) -> None:
    page.goto(f"{live_table.url}/history/{live_table.live.game_id}")
    expect(page.locator("#game-title")).to_be_visible()
    assert axe_violations(page) == []
    page.goto(f"{live_table.url}/setup?token={TOKEN}")
    page.wait_for_selector("body[data-ready]")
    page.locator("#random").click()
    page.locator("#start").click()
    expect(page.locator("#replace")).to_be_visible()
    assert axe_violations(page) == []


def test_a_fight_has_no_axe_violations(page: Any, tmp_path: Path, catalogue: Catalogue) -> None:
    table = LiveTable(tmp_path / "mc.db", catalogue, zone_names=SEATS)
    try:
        start_cthulhu(page, table)
        put(page, "Buggoth", "combat")
        expect(page.locator("section.combat .verdict")).to_be_visible()
        assert axe_violations(page) == []
    finally:
        table.close()


def test_no_game_yet_has_no_axe_violations(page: Any, tmp_path: Path, catalogue: Catalogue) -> None:
    first_run = FirstRun(tmp_path, catalogue)  # an installed table's first boot
    try:
        page.goto(f"{first_run.url}/")
        expect(page.locator("#no-game")).to_be_visible()
        assert axe_violations(page) == []
    finally:
        first_run.close()


def test_every_control_of_the_table_is_reached_by_keyboard(
    page: Any, live_table: LiveTable
) -> None:
    live_table.ready_treasure_bath()
    open_table(page, live_table)
    expect(page.locator("section.prompt.ready")).to_be_visible()
    wanted = page.locator(
        "main button:visible:enabled, header.bar button:visible:enabled, nav a:visible"
    )
    names = set(wanted.evaluate_all("(all) => all.map((e) => e.outerHTML)"))
    reached = tab_through(page, len(names) + 40)
    assert names <= reached, sorted(names - reached)[:3]
    # and operated by it: Enter on the score button scores the base
    page.locator("section.prompt.ready button", has_text="Score Treasure Bath").focus()
    page.keyboard.press("Enter")
    expect(page.locator("section.prompt.scoring")).to_be_visible()
    assert page.errors == []


def test_targets_are_at_least_24_px(page: Any, live_table: LiveTable) -> None:
    live_table.ready_treasure_bath()
    open_table(page, live_table)
    expect(page.locator("section.prompt.ready")).to_be_visible()
    small = page.locator("button:visible, a:visible, select:visible, input:visible").evaluate_all(
        """(all) => all.filter((e) => {
             const box = e.getBoundingClientRect();
             return box.width < 24 || box.height < 24;
           }).map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert small == []


def test_scores_and_a_base_becoming_ready_are_announced(page: Any, live_table: LiveTable) -> None:
    open_table(page, live_table)
    announcer = page.locator("#announce")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_attribute("role", "status")
    live_table.ready_treasure_bath()
    expect(announcer).to_contain_text("Treasure Bath is ready to score")
    live_table.service.submit({"input": "score", "zone": "base-1"})
    live_table.service.submit({"input": "award"})
    expect(announcer).to_contain_text("Ann: 2 VP")
    assert page.errors == []


def test_the_winner_is_announced(page: Any, live_table: LiveTable) -> None:
    open_table(page, live_table)
    demo = DemoPlayer(live_table.service, rng=random.Random(2), direct=True)
    for line in demo.lines():
        demo.play(line)
    winners = live_table.live.game.state.table.winners
    assert winners
    expect(page.locator("#announce")).to_contain_text(f"Game over: {' and '.join(winners)} won")
    assert page.errors == []


@pytest.mark.parametrize("path", ["/setup", "/history", "/enrol", "/readers"])
def test_every_control_of_every_page_is_reached_by_keyboard(
    page: Any, shared_live_table: LiveTable, path: str
) -> None:
    open_page(page, shared_live_table, path)
    controls = page.locator(
        "main :is(button, a, select, input):visible:enabled, nav a:visible"
    ).evaluate_all("(all) => all.map((e) => e.outerHTML)")
    assert controls
    reached = tab_through(page, len(controls) + 20)
    assert set(controls) <= reached, sorted(set(controls) - reached)[:3]
    assert page.errors == []
