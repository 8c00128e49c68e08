"""The tablet at a real table, in Debian's Chromium (issue 16): the board stays in view while
the demo plays 40 turns, the prompt tray, undo that talks, bases within reach, initials,
names instead of tag ids, the offline banner, the screen kept awake, full screen and the
installable app."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from bench.chromium import CHROMIUM_ARGS
from companion.catalogue.cards import Catalogue
from companion.table.demo import DemoPlayer
from companion.table.games import DEMO_PLAYERS
from tests.browser import TOKEN, LiveTable, chromium_path, screenshot, wait_until_live

VIEW = {"width": 1280, "height": 800}


def open_table(page: Any, table: LiveTable) -> None:
    page.goto(f"{table.url}/?token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")


#: once the page shows ``version``: the first base's total's box, scrolled to the top (y null:
#: no base). One look per animation frame inside the page: expect's own polling backs off to
#: half a second, and the box took three more round trips
FIRST_BASE_AT = """(version) => {
  if (document.body.dataset.version !== version) return false;
  window.scrollTo(0, 0);
  const total = document.querySelector("article.base")?.querySelector(".total");
  if (!total) return {y: null};
  const box = total.getBoundingClientRect();
  return {y: box.y, height: box.height};
}"""


def first_base_in_view(page: Any, table: LiveTable, height: int = VIEW["height"]) -> bool:
    """Once the page shows the table's latest state: whether the first base's total is on the
    screen without scrolling (False: no base)."""
    version = str(table.service.version)
    box = page.wait_for_function(FIRST_BASE_AT, arg=version, polling="raf").json_value()
    if box["y"] is None:
        return False
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"the first base is at {box}"
    return True


@pytest.fixture
def demo_table(tmp_path: Path, catalogue: Catalogue) -> Any:
    table = LiveTable(tmp_path / "demo.db", catalogue, zones=3, players=DEMO_PLAYERS)
    yield table
    table.close()


@pytest.mark.slow
def test_the_demo_plays_40_turns_and_the_first_base_stays_in_view(
    page: Any, demo_table: LiveTable
) -> None:
    # seed 31: a 56-turn game under today's rules (rules changes make games shorter or longer)
    demo = DemoPlayer(demo_table.service, rng=random.Random(31), direct=True)
    open_table(page, demo_table)
    checked = asked = 0
    for line in demo.lines():
        demo.play(line)
        state = demo_table.live.game.state
        waiting = bool(state.prompts or state.deals)
        if (waiting or line.get("input") == "end-turn") and first_base_in_view(page, demo_table):
            checked += 1
            asked += waiting
        if state.table.turn > 40 or state.table.winners:
            break
    turn = demo_table.live.game.state.table.turn
    assert turn > 40, f"the seeded demo game ended at turn {turn}: choose a longer seed"
    assert checked >= 40 and asked >= 5  # the tray was on screen in some of those moments
    assert demo_table.live.game.state.prompts == ()  # the demo answered its own prompts
    screenshot(page, "demo-turn-40-1280x800")
    assert page.errors == []


def test_the_tray_shows_the_prompt_due_now_counts_the_rest_and_every_deal(
    page: Any, live_table: LiveTable
) -> None:
    live_table.ready_treasure_bath()
    live_table.service.submit({"input": "score", "zone": "base-1"})
    live_table.service.submit({"input": "award"})  # a draft: Ann picks
    live_table.tap("core/jungle-oasis", "base-2")
    bigfoot = live_table.tap("munchkin/bigfoot", "base-2")
    live_table.tap("core/laseratops", "base-2")
    for n in range(1, 6):  # five unknown tags: five prompts
        live_table.service.submit({"tap": f"04FFFF0000000{n}", "zone": "base-2"})
    live_table.service.submit({"tap": bigfoot, "zone": "discard"})  # a draw: Ann draws 2
    assert len(live_table.live.game.state.deals) == 2
    open_table(page, live_table)
    tray = page.locator("#prompts")
    expect(tray.locator(".prompt")).to_have_count(1)
    expect(tray.locator(".prompt.now")).to_contain_text("04FFFF00000005")  # the newest
    expect(page.locator("#more-prompts")).to_have_text("4 more waiting")
    deals = tray.locator(".deals .deal")
    expect(deals).to_have_count(2)
    expect(deals.nth(0)).to_contain_text("Treasure Bath:")
    expect(deals.nth(0).locator("li.now")).to_have_text("Ann")
    expect(deals.nth(1)).to_contain_text("Ann draws 2 for Bigfoot")
    assert first_base_in_view(page, live_table)
    screenshot(page, "tray-1280x800")
    page.locator("#more-prompts").click()
    expect(tray.locator(".prompt")).to_have_count(5)
    page.locator("#more-prompts").click()
    expect(tray.locator(".prompt")).to_have_count(1)
    deals.nth(1).locator("button", has_text="Drawn").click()  # the draw need not wait
    expect(tray.locator(".deals .deal")).to_have_count(1)
    expect(tray.locator(".deals .deal")).to_contain_text("Treasure Bath:")
    tray.locator(".deals .deal button", has_text="Ann took one").click()
    expect(tray.locator(".deals")).to_have_count(0)
    assert page.errors == []


def test_undo_says_what_it_undid_and_redo_puts_it_back(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    live_table.tap("core/king-rex", "base-1")
    open_table(page, live_table)
    played = "Ann played King Rex on Treasure Bath"
    events = page.locator("#recent ol.events li")
    expect(events.first).to_have_text(played)
    expect(page.locator(".undo-what")).to_have_text(f"Undo takes back: {played}")
    page.locator("#undo").click()
    toast = page.locator("#messages .toast", has_text="Undid:")
    expect(toast).to_contain_text(f"Undid: {played}")
    expect(page.locator("#recent ol.events")).not_to_contain_text(played)  # it left the list
    expect(page.locator('article.base[data-zone="base-1"] .total')).to_have_text("0")
    screenshot(page, "undo-toast-1280x800")
    toast.locator("button", has_text="Redo").click()
    expect(events.first).to_have_text(played)
    expect(page.locator('article.base[data-zone="base-1"] .total')).to_have_text("7")
    assert page.errors == []


def test_removing_a_card_or_a_base_offers_to_undo_it(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    rex = live_table.tap("core/king-rex", "base-1")
    open_table(page, live_table)
    panel = page.locator('article.base[data-zone="base-1"]')
    panel.locator(f'button.card[data-tag="{rex}"]').click()
    page.locator("#sheet button", has_text="Remove from play").click()
    toast = page.locator("#messages .toast", has_text="Removed King Rex from play")
    expect(panel.locator(".total")).to_have_text("0")
    toast.locator("button", has_text="Undo").click()
    expect(panel.locator(".total")).to_have_text("7")
    expect(page.locator("#messages .toast", has_text="Undid:")).to_be_visible()
    panel.locator("button.base-name").click()
    page.locator("#sheet button", has_text="Remove this base").click()
    expect(page.locator("article.base")).to_have_count(0)
    page.locator("#messages .toast", has_text="Removed Treasure Bath").locator("button").click()
    expect(page.locator("article.base")).to_have_count(1)
    assert page.errors == []


def test_a_base_within_reach_says_how_much_more_and_cards_carry_initials(
    page: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")  # 12
    live_table.tap("munchkin/hippogriff", "base-1")  # + 3: 15
    live_table.tap("core/king-rex", "base-1")  # 7
    open_table(page, live_table)
    panel = page.locator('article.base[data-zone="base-1"]')
    expect(panel.locator(".badge")).to_have_count(0)  # 8 short of 15: not within reach
    live_table.tap("munchkin/sword-lord", "base-1")  # 5 and +1 to King Rex: 13
    expect(panel.locator(".badge.close")).to_have_text("Needs 2 more")
    expect(panel.locator("button.card", has_text="King Rex").locator(".mark")).to_have_text("A")
    live_table.tap("core/hoverbot", "base-1")
    expect(panel.locator(".badge.ready")).to_have_text("Ready to score")
    expect(panel.locator("button.card", has_text="Hoverbot").locator(".mark")).to_have_text("B")
    expect(panel.locator("button.card", has_text="Hippogriff").locator(".mark")).to_have_count(0)
    panel.locator("button.score-now").click()
    expect(panel.locator(".badge.scoring")).to_have_text("Scoring")
    assert page.errors == []


def test_prompts_name_copies_by_where_they_are_never_by_tag(
    page: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    live_table.service.submit({"input": "end-turn"})  # Ben's turn: his Cat Burglars
    live_table.tap("munchkin/cat-burglar", "base-1")
    live_table.tap("munchkin/cat-burglar", "base-1")
    open_table(page, live_table)
    now = page.locator("#prompts .prompt.now")
    expect(now).to_contain_text("Put 1 counter on Cat Burglar on Treasure Bath, 2nd")
    assert not re.search(r"04[0-9A-F]{12}", now.inner_text())
    assert page.errors == []


def test_the_offline_banner_makes_controls_inert_until_the_stream_is_back(
    page: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    open_table(page, live_table)
    banner = page.locator("#offline")
    expect(banner).to_be_hidden()
    live_table.stop_serving()
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("The table is out of reach")
    assert page.evaluate("document.querySelector('header.bar').inert")
    assert page.evaluate("document.querySelector('main').inert")
    screenshot(page, "offline-1280x800")
    live_table.serve()
    wait_until_live(page)  # the next reconnection, at most a second after the server is back
    expect(banner).to_be_hidden()
    assert not page.evaluate("document.querySelector('header.bar').inert")
    page.locator("#end-turn").click()
    expect(page.locator("#turn")).to_contain_text("Ben to play")


def test_the_screen_stays_awake_goes_full_screen_and_the_app_installs(
    browser: Any, tmp_path: Path, live_table: LiveTable
) -> None:
    # not the incognito-like context of the other tests: installing needs a profile
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path(),
        args=CHROMIUM_ARGS,
        viewport=VIEW,
    )
    try:
        page = context.new_page()
        open_table(page, live_table)
        expect(page.locator("body")).to_have_attribute("data-awake", "on")
        expect(page.locator("#awake")).to_have_text("Screen stays on")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        page.locator("#fullscreen").click()
        expect(page.locator("#fullscreen")).to_have_text("Exit full screen")
        assert page.evaluate("document.fullscreenElement === document.documentElement")
        page.locator("#fullscreen").click()
        expect(page.locator("#fullscreen")).to_have_text("Full screen")
        demo = DemoPlayer(live_table.service, rng=random.Random(2), direct=True)
        for line in demo.lines():  # the game is played to its end
            demo.play(line)
        assert live_table.live.game.state.table.winners
        expect(page.locator("section.prompt.game-over")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-awake", "off")  # it may sleep now
        expect(page.locator("#awake")).to_be_hidden()
    finally:
        context.close()
