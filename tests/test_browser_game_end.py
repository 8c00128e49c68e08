"""The end of a game on the table page: no turn left to end, the way on is a new game, and the
last turn's words say the game ended with it."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect

from companion.table.demo import DemoPlayer
from tests.browser import LiveTable
from tests.test_browser_table import open_table


def test_a_finished_game_offers_a_new_game_and_says_the_last_turn_right(
    page: Any, live_table: LiveTable
) -> None:
    open_table(page, live_table)
    expect(page.locator("#end-turn")).to_be_visible()
    expect(page.locator("#new-game")).to_be_hidden()
    demo = DemoPlayer(live_table.service, rng=random.Random(2), direct=True)
    for line in demo.lines():
        demo.play(line)
    state = live_table.live.game.state
    assert state.table.winners
    expect(page.locator("#turn")).to_contain_text("Game over")
    expect(page.locator("#end-turn")).to_be_hidden()
    new_game = page.locator("#new-game")
    expect(new_game).to_be_visible()
    expect(new_game).to_have_attribute("href", "/setup")
    events = page.locator("#recent ol.events li")
    texts = events.all_inner_texts()
    ended = next(text for text in texts if "turn ended" in text)
    assert ended.endswith("turn ended, and with it the game"), texts[:4]
    assert "to play" not in ended
    assert page.errors == []
