"""The other screens in Debian's Chromium: setup starts a game, history shows it, readers
and enrolment work against the simulated table."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser import TOKEN, LiveTable, screenshot


def test_setup_drafts_factions_and_starts_a_game_the_table_then_shows(
    page: Any, live_table: LiveTable
) -> None:
    page.goto(f"{live_table.url}/setup?token={TOKEN}")
    page.wait_for_selector("body[data-ready]")
    page.locator("#fewer").click()  # two players
    expect(page.locator("#seats .seat")).to_have_count(2)
    page.locator("#seats .seat input.name").first.fill("Zoe")
    page.locator("#draft").click()
    # the rulebook's order: Zoe, Ben, then Ben again, then Zoe
    for picker, faction in (
        ("Zoe", "Pirates"),
        ("Ben", "Ninjas"),
        ("Ben", "Robots"),
        ("Zoe", "Zombies"),
    ):
        expect(page.locator("#drafting .message")).to_contain_text(f"{picker} picks")
        page.locator("#drafting button", has_text=faction).first.click()
    expect(page.locator("#drafting")).to_contain_text("Draft done")
    page.locator("#zones").select_option("2")
    # the table's core box is the first print (Armor Stego's +2 on other turns is Ongoing)
    page.locator('select.printing[data-set="core"]').select_option("first")
    page.locator("#start").click()
    started = page.locator("#started")
    expect(started).to_contain_text("started")
    expect(started).to_contain_text("The Central Brain")  # a core base: the core set's deck
    screenshot(page, "setup-started")
    state = live_table.service.live.game.state
    assert list(state.header.players) == ["Zoe", "Ben"]
    assert {player: list(chosen) for player, chosen in state.header.factions.items()} == {
        "Zoe": ["core/pirates", "core/zombies"],
        "Ben": ["core/ninjas", "core/robots"],
    }
    assert state.header.printings == {"core": "first"}  # the header records the choice
    page.goto(f"{live_table.url}/")
    expect(page.locator("#turn")).to_contain_text("Zoe to play")
    assert page.errors == []


def test_history_lists_games_and_draws_the_vp_chart(page: Any, live_table: LiveTable) -> None:
    game_id = live_table.live.game_id
    page.goto(f"{live_table.url}/history")
    row = page.locator("#games tbody tr").first
    expect(row).to_contain_text("playing now")
    row.locator("a").click()
    expect(page.locator("#game-title")).to_contain_text(f"Game {game_id}: Ann, Ben")
    chart = page.locator("#vp-chart")
    expect(chart).to_be_visible()
    assert page.evaluate("document.querySelector('#vp-chart').naturalWidth") > 0
    assert page.errors == []


def test_readers_show_health_and_reopen(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/readers?token={TOKEN}")
    row = page.locator('#reader-list tr[data-zone="base-1"]')
    expect(row).to_contain_text("ok")
    reopens = int(row.locator("td").nth(5).inner_text())
    row.locator("button", has_text="Reopen").click()
    expect(row.locator("td").nth(5)).to_have_text(str(reopens + 1))
    screenshot(page, "readers")
    assert page.errors == []


def test_bulk_enrolment_binds_cards_tapped_at_a_zone(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/enrol?token={TOKEN}")
    page.locator("#bulk-faction").select_option("core/aliens")
    page.locator("#bulk-zone").select_option("base-3")
    page.locator("#bulk-start").click()
    expect(page.locator("#bulk-messages")).to_contain_text("Tap")
    fresh = "04EEEEEEEEEE01"
    page.request.post(
        f"{live_table.url}/api/sim/base-3/place",
        data={"uid": fresh},
        headers={"X-Companion-Token": TOKEN},
    )
    expect(page.locator("#bulk-messages li").first).to_contain_text(fresh)
    bound = live_table.store.binding(fresh)
    assert bound is not None and bound.card.startswith("core/")
    page.locator("#bulk-stop").click()
    expect(page.locator("#bulk-start")).to_be_enabled()
    page.locator("#what-uid").fill(fresh)
    page.locator("#what button").click()
    expect(page.locator("#what-answer")).to_contain_text(f"Tag {fresh} is")
    assert page.errors == []


def test_without_the_token_the_tablet_asks_for_it(page: Any, live_table: LiveTable) -> None:
    page.goto(f"{live_table.url}/")
    page.evaluate("localStorage.removeItem('companion-token')")
    page.reload()
    expect(page.locator("#control")).to_contain_text("View only")
    page.locator("#end-turn").click()  # refused: the page offers to ask, or to type the token
    offer = page.locator("#pairing")
    expect(offer).to_contain_text("needs the table's control token")
    page.locator("#ask-control").click()  # this simulated table has no End-turn button to press
    expect(offer).to_contain_text("no End-turn button to pair with")
    offer.locator("button", has_text="Type the token instead").click()
    form = page.locator("#token-form")
    expect(form).to_be_visible()
    form.locator("input").fill(TOKEN)
    form.locator("button[type=submit]").click()
    page.locator("#end-turn").click()
    expect(page.locator("#turn")).to_contain_text("Ben to play")
