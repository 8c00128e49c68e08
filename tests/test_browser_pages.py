"""The other screens in Debian's Chromium: setup starts a game, history shows it, readers
and enrolment work against the simulated table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
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
    playing = live_table.live.game_id
    page.locator("#start").click()  # a game is on: the page asks before it ends it
    asking = page.locator("#replace")
    expect(asking).to_contain_text(f"Game {playing} is still being played")
    expect(page.locator("#replace-no")).to_be_focused()
    page.locator("#replace-no").click()  # keep playing: nothing changes
    expect(asking).to_be_hidden()
    assert live_table.service.live.game_id == playing
    page.locator("#start").click()
    page.locator("#replace-yes").click()
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
    ended = live_table.store.log.game(playing)
    assert ended.void and ended.void_by and "with the control token" in ended.void_by
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
    bound = live_table.store.bindings.get(fresh)
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
    expect(page.locator("#end-turn")).to_be_disabled()  # watching: nothing to press in vain
    offer = page.locator("#pairing")
    page.locator("#ask-control").click()  # this simulated table has no End-turn button to press
    expect(offer).to_contain_text("no End-turn button to pair with")
    expect(offer).to_contain_text("`companion token`")  # the route that works here
    expect(offer.locator("button", has_text="Try again")).to_have_count(0)  # it never would
    offer.locator("button", has_text="Type the token instead").click()
    form = page.locator("#token-form")
    expect(form).to_be_visible()
    form.locator("input").fill(TOKEN)
    form.locator("button[type=submit]").click()
    page.locator("#end-turn").click()
    expect(page.locator("#turn")).to_contain_text("Ben to play")


def test_setup_offers_one_base_more_than_players_and_explains_a_smaller_table(
    page: Any, live_table: LiveTable
) -> None:
    page.goto(f"{live_table.url}/setup?token={TOKEN}")  # a table with three base zones
    page.wait_for_selector("body[data-ready]")
    note = page.locator("#zones-note")
    expect(page.locator("#zones")).to_have_value("3")
    expect(note).to_contain_text("The rulebook plays 3 players with 4 bases")
    expect(note).to_contain_text("this table has 3 base zones")
    page.locator("#fewer").click()
    expect(page.locator("#zones")).to_have_value("3")
    expect(note).to_have_text(
        "2 players play with 3 bases: one more than players, as the rulebook says."
    )
    assert page.errors == []


def test_a_table_without_base_zones_says_smash_up_cannot_start_there(
    page: Any, tmp_path: Path, catalogue: Catalogue
) -> None:
    seats = ["seat-1", "seat-2", "seat-3", "combat", "discard"]
    table = LiveTable(tmp_path / "seats.db", catalogue, zone_names=seats)
    try:
        page.goto(f"{table.url}/setup?token={TOKEN}")
        page.wait_for_selector("body[data-ready]")
        expect(page.locator("#zones-note")).to_contain_text("no base zones to play Smash Up on")
        expect(page.locator("#start")).to_be_disabled()
        answer = page.request.post(
            f"{table.url}/api/games",
            data={"players": []},
            headers={"X-Companion-Token": TOKEN},
        )
        assert answer.status == 400
        page.locator("#game-cthulhu").click()
        expect(page.locator("#start")).to_be_enabled()
        assert page.errors == []
    finally:
        table.close()


def test_history_names_factions_and_leaves_out_empty_brackets(
    page: Any, live_table: LiveTable
) -> None:
    players = [
        {"name": name, "colour": "#56b4e9", "sex": "female"} for name in ("Ann", "Ben", "Cat")
    ]
    started = page.request.post(
        f"{live_table.url}/api/games",
        data={"game": "munchkin-cthulhu", "players": players, "replace": live_table.live.game_id},
        headers={"X-Companion-Token": TOKEN},
    )
    assert started.status == 201
    page.goto(f"{live_table.url}/history")
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Ann, Ben, Cat")  # Munchkin Cthulhu: no factions
    assert "()" not in rows.nth(0).inner_text()
    expect(rows.nth(1)).to_contain_text("Ann (Dinosaurs + Orcs), Ben (Robots + Thieves)")
    assert "core/" not in rows.nth(1).inner_text() and "munchkin/" not in rows.nth(1).inner_text()
    assert page.errors == []
