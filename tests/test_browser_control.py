"""A tablet without control watches: what would change the game is disabled for real (it
neither responds nor reads as usable), what only shows something still works, and one quiet
line says how to get control; never a red toast per tap."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser import TOKEN, LiveTable

#: every control of the table page that would change the game
CHANGING = "main button:not(.base-name):not(.card):not(.player):not(.tab), #end-turn"


def test_a_watching_tablet_has_disabled_controls_and_one_quiet_line(
    page: Any, live_table: LiveTable
) -> None:
    live_table.tap("munchkin/treasure-bath", "base-1")
    page.goto(live_table.url + "/")
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")
    help_line = page.locator("#view-only-help")
    expect(help_line).to_be_visible()
    expect(help_line).to_have_text(
        "You are watching. To play from this tablet, tap Ask to control, or scan the table's "
        "control QR code."
    )
    end_turn = page.locator("#end-turn")
    expect(end_turn).to_be_disabled()
    expect(end_turn).to_have_attribute("aria-disabled", "true")
    # the virtual table draws its cards and zones once it has fetched them: counted after
    page.locator("#virtual button.vcard").first.wait_for()
    changing = page.locator(CHANGING)
    assert changing.count() > 5  # the end turn, the virtual table's cards and zones, ...
    for index in range(changing.count()):
        expect(changing.nth(index)).to_be_disabled()
    end_turn.click(force=True)  # a tap on it anyway does nothing, and says nothing
    assert live_table.service.version == 1
    expect(page.locator("#messages .toast")).to_have_count(0)
    # showing still works: a base's sheet opens, its corrections are disabled
    page.locator("button.base-name").first.click()
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#sheet button.danger")).to_be_disabled()
    expect(page.locator("#sheet button.close")).to_be_enabled()
    page.locator("#sheet button.close").click()
    # a state arriving redraws the page: its new controls are disabled too
    live_table.tap("munchkin/hippogriff", "base-1")
    expect(page.locator("body")).to_have_attribute("data-version", "2")
    for index in range(changing.count()):
        expect(changing.nth(index)).to_be_disabled()
    assert page.errors == []


def test_given_control_the_controls_work_and_the_line_goes(
    page: Any, live_table: LiveTable
) -> None:
    page.goto(live_table.url + "/")
    expect(page.locator("#end-turn")).to_be_disabled()
    page.locator("#ask-control").wait_for()
    page.evaluate(f"localStorage.setItem('companion-token', '{TOKEN}')")
    page.goto(live_table.url + "/")
    expect(page.locator("#connection")).to_have_attribute("data-status", "live")
    expect(page.locator("#view-only-help")).to_be_hidden()
    expect(page.locator("#end-turn")).to_be_enabled()
    expect(page.locator("#end-turn")).not_to_have_attribute("aria-disabled", "true")
    page.locator("#end-turn").click()
    expect(page.locator("#turn")).to_contain_text("Ben to play")
    assert page.errors == []


def test_a_revoked_token_says_so_in_players_words_once(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/?token={TOKEN}")
    expect(page.locator("#end-turn")).to_be_enabled()
    page.evaluate("localStorage.setItem('companion-token', 'revoked')")
    page.locator("#end-turn").click()
    expect(page.locator("#end-turn")).to_be_disabled()
    for _ in range(2):
        page.locator("#end-turn").click(force=True)
    expect(page.locator("#view-only-help")).to_be_visible()
    expect(page.locator("#messages .toast.error")).to_have_count(0)
    assert "X-Companion-Token" not in page.content() and "`" not in page.inner_text("body")
    assert live_table.service.version == 0
    # given control again, the button works again (it was disabled only while watching)
    page.evaluate(f"localStorage.setItem('companion-token', '{TOKEN}')")
    page.evaluate("document.body.classList.remove('view-only')")
    expect(page.locator("#end-turn")).to_be_enabled()
