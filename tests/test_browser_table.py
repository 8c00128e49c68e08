"""The table screen in Debian's Chromium: taps on the virtual table go through the simulated
NFC readers to the page; scoring, the treasure draft, undo and a server restart."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser import TOKEN, LiveTable, screenshot, wait_until_live


def open_table(page: Any, table: LiveTable) -> None:
    page.goto(f"{table.url}/?token={TOKEN}")
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")
    # the token moved from the address into this tablet's storage
    assert "token" not in page.url
    assert page.evaluate("localStorage.getItem('companion-token')") == TOKEN


def tap_on_virtual_table(page: Any, card_name: str, zone: str, owner: str) -> None:
    """Pick the card on the virtual table (under its owner's tab) and tap the zone."""
    page.locator("#virtual .owners button", has_text=re.compile(f"^{owner}$")).click()
    page.locator("#virtual button.vcard", has_text=card_name).filter(
        has_not=page.locator(".tag-note")
    ).first.click()
    page.locator(f'#virtual button.zone-button[data-zone="{zone}"]').click()


def base_panel(page: Any, zone: str) -> Any:
    return page.locator(f'article.base[data-zone="{zone}"]')


def test_taps_on_the_virtual_table_change_totals_progress_and_ready(
    page: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    open_table(page, live_table)
    monsters = page.locator("section.prompt.monsters")
    expect(monsters).to_contain_text("Treasure Bath needs its monsters: draw 1")
    live_table.tap("munchkin/hippogriff", "base-1")
    expect(monsters).to_have_count(0)
    panel = base_panel(page, "base-1")
    expect(panel.locator(".breakpoint")).to_have_text("15")  # 12 printed + Hippogriff's 3
    expect(panel.locator(".total")).to_have_text("0")

    tap_on_virtual_table(page, "King Rex", "base-1", "Ann")
    expect(panel.locator(".total")).to_have_text("7")
    expect(panel.locator(".progress")).to_have_attribute("aria-valuenow", "7")
    expect(panel.locator("li.power", has_text="Ann")).to_contain_text("7")
    expect(page.locator("#recent ol.events li").first).to_have_text(
        "Ann played King Rex on Treasure Bath"
    )
    live_table.tap("munchkin/sword-lord", "base-1")  # 5, and +1 to Ann's other minions
    expect(panel.locator(".total")).to_have_text("13")
    assert "ready" not in (panel.get_attribute("class") or "")
    tap_on_virtual_table(page, "Hoverbot", "base-1", "Ben")
    expect(panel.locator(".total")).to_have_text("16")
    expect(panel).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("section.prompt.ready")).to_contain_text("Treasure Bath is ready to score")
    expect(panel.locator(".preview")).to_contain_text("Ann 2 · Ben 0")  # Treasure Bath: 2/0/0
    screenshot(page, "table-ready")
    assert page.errors == []


def test_scoring_prompt_award_treasure_draft_and_undo(page: Any, live_table: LiveTable) -> None:
    live_table.ready_treasure_bath()
    open_table(page, live_table)

    page.locator("section.prompt.ready button", has_text="Score Treasure Bath").click()
    scoring = page.locator("section.prompt.scoring")
    expect(scoring).to_contain_text("Treasure Bath is scoring")
    expect(base_panel(page, "base-1")).to_have_class(re.compile(r"\bscoring\b"))
    screenshot(page, "table-scoring")
    scoring.locator("button", has_text="Award").click()

    draft = page.locator("#prompts .deals .deal")
    expect(draft).to_contain_text("Treasure Bath:")
    expect(draft.locator("li.now")).to_have_text("Ann")  # Ann picks now
    expect(page.locator("button.player[data-player=Ann] .vp")).to_have_text("2")
    expect(page.locator("button.player[data-player=Ben] .vp")).to_have_text("0")
    expect(page.locator("#recent ol.events li").first).to_have_text(
        "Treasure Bath scored: Ann 2 VP, Ben 0 VP"
    )
    screenshot(page, "table-draft")
    draft.locator("button", has_text="Ann took one").click()
    expect(draft).to_have_count(0)

    page.locator("#undo").click()
    expect(page.locator("#prompts .deals .deal li.now")).to_have_text("Ann")
    page.locator("#undo").click()  # takes the award back: the base is scoring again
    expect(page.locator("section.prompt.scoring")).to_be_visible()
    expect(page.locator("button.player[data-player=Ann] .vp")).to_have_text("0")
    assert page.errors == []


def test_a_correction_in_one_tap_and_a_stale_tablet_is_told(
    page: Any, browser: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    rex = live_table.tap("core/king-rex", "base-1")
    open_table(page, live_table)
    panel = base_panel(page, "base-1")
    panel.locator(f'button.card[data-tag="{rex}"]').click()
    page.locator("#sheet button", has_text="+1 counter").click()
    expect(panel.locator(".total")).to_have_text("8")
    expect(page.locator("#sheet")).not_to_be_visible()

    # another tablet changes the table; this one's next press carries an old version
    before = page.evaluate("Number(document.body.dataset.version)")
    live_table.service.submit({"input": "counter", "tag": rex, "delta": 1})
    page.route("**/api/events*", lambda route: route.abort())  # this tablet hears nothing
    page.evaluate(f"document.body.dataset.version = {before}")
    response = page.request.post(
        f"{live_table.url}/api/input",
        data={"line": {"input": "end-turn"}, "version": before},
        headers={"X-Companion-Token": TOKEN},
    )
    assert response.status == 409
    assert "changed" in response.json()["error"] or "version" in response.json()["error"]
    assert live_table.service.live.game.state.table.turn == 1


def test_an_unknown_tag_is_enrolled_where_it_was_tapped(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    open_table(page, live_table)
    stranger = "04FFFFFFFFFF01"
    page.request.post(
        f"{live_table.url}/api/sim/base-1/place",
        data={"uid": stranger},
        headers={"X-Companion-Token": TOKEN},
    )
    prompt = page.locator("section.prompt.unknown-tag")
    expect(prompt).to_contain_text(f"Tag {stranger} is not enrolled")
    prompt.locator("button", has_text="Enrol this tag").click()
    page.locator("#enrol-faction").select_option(label="Dinosaurs (Smash Up)")
    page.locator("#enrol-owner").select_option("Ann")
    page.locator("#sheet .card-list button", has_text="Laseratops").click()
    panel = base_panel(page, "base-1")
    expect(panel.locator("button.card", has_text="Laseratops")).to_be_visible()
    expect(panel.locator(".total")).to_have_text("4")
    expect(page.locator("section.prompt.unknown-tag")).to_have_count(0)
    assert live_table.store.bindings.get(stranger).card == "core/laseratops"  # type: ignore[union-attr]


def test_the_page_catches_up_after_the_server_restarts(page: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    open_table(page, live_table)
    live_table.stop_serving()
    expect(page.locator("#connection")).to_have_attribute("data-status", "reconnecting")
    live_table.tap("core/king-rex", "base-1")  # played while the dashboard was down
    live_table.serve()
    wait_until_live(page)  # the next reconnection, at most a second after the server is back
    expect(base_panel(page, "base-1").locator(".total")).to_have_text("7")


def test_a_phone_sees_every_control_at_least_48px(browser: Any, live_table: LiveTable) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    live_table.tap("core/king-rex", "base-1")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone = context.new_page()
    try:
        open_table(phone, live_table)
        expect(base_panel(phone, "base-1").locator(".total")).to_have_text("7")
        small = phone.evaluate(
            """() => [...document.querySelectorAll('button, select, input, nav a')]
                 .filter((el) => el.offsetParent !== null)
                 .map((el) => [el.textContent.trim() || el.getAttribute('aria-label'),
                               el.getBoundingClientRect()])
                 .filter(([, r]) => r.height < 47.5 || r.width < 47.5)
                 .map(([name, r]) => `${name}: ${r.width}x${r.height}`)"""
        )
        assert small == []
        overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        screenshot(phone, "phone-table")
    finally:
        context.close()


#: notes the version of each state the page's stream brings, drawn or not (a state that comes
#: under a finger is drawn once it lifts), in ``window.heard``
HEARD = """
window.heard = -1;
window.EventSource = class extends window.EventSource {
  constructor(...args) {
    super(...args);
    this.addEventListener("state", (message) => (window.heard = Number(message.lastEventId)));
  }
};
"""


def test_a_press_is_not_lost_when_the_table_changes_under_the_finger(
    page: Any, live_table: LiveTable
) -> None:
    live_table.ready_treasure_bath()
    page.add_init_script(HEARD)
    open_table(page, live_table)
    button = page.locator("section.prompt.ready button", has_text="Score Treasure Bath")
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    before = page.evaluate("Number(document.body.dataset.version)")
    live_table.service.submit({"input": "madness", "player": "Ben", "delta": 1})  # another tablet
    changed = live_table.service.version
    page.wait_for_function("(version) => window.heard >= version", arg=changed)  # it came
    assert page.evaluate("Number(document.body.dataset.version)") == before  # not drawn yet
    page.mouse.up()
    expect(page.locator("section.prompt.scoring")).to_contain_text("Treasure Bath is scoring")
    assert page.evaluate("Number(document.body.dataset.version)") > before + 1
    assert live_table.live.game.state.table.scoring == "base-1"


def test_a_card_picked_while_the_last_is_on_its_way_stays_picked(
    page: Any, live_table: LiveTable
) -> None:
    """Was: the virtual table forgot the card picked while the last placement was still on
    its way (its answer cleared whatever was picked), and every zone button stayed disabled."""
    live_table.tap("munchkin/treasure-bath", "base-1")
    live_table.tap("munchkin/hippogriff", "base-1")
    open_table(page, live_table)
    held: list[Any] = []
    # King Rex's placement waits here
    page.route("**/api/sim/base-1/place", lambda route: held.append(route))
    tap_on_virtual_table(page, "King Rex", "base-1", "Ann")
    page.locator("#virtual .owners button", has_text=re.compile("^Ben$")).click()
    page.locator("#virtual button.vcard", has_text="Hoverbot").first.click()
    for _ in range(500):  # the held request reached the route (a few event-loop turns)
        if held:
            break
        page.wait_for_timeout(10)
    held[0].continue_()
    page.unroute("**/api/sim/base-1/place")
    panel = base_panel(page, "base-1")
    expect(panel.locator(".total")).to_have_text("7")
    expect(page.locator("#virtual p.detail")).to_have_text("Now tap a zone for Hoverbot")
    page.locator('#virtual button.zone-button[data-zone="base-1"]').click()
    expect(panel.locator(".total")).to_have_text("10")
    assert page.errors == []
