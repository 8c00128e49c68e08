"""A table's first run in Debian's Chromium: no game yet (the page says so and leads to New
game), and a tablet without the token pairing by the table's End-turn button (gpiozero mock
pins), as a person would: Ask to control, check the code, hold the button down, then play.
A short press meanwhile ends the turn, and the table's page says so."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from playwright.sync_api import expect

from companion.catalogue.cards import Catalogue
from companion.hardware.feedback import Feedback
from companion.hardware.pinmap import build_pin_map
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile
from companion.table.config import TableConfig
from companion.table.service import TableService
from companion.web.server import Dashboard
from tests.browser import screenshot
from tests.tapes import start_demo_players_game
from tests.waiting import eventually

END_TURN = 23
PINS = build_pin_map("test", {"base-1": 17, "base-2": 27}, 18, {"end-turn": END_TURN, "undo": 24})


class FirstRun:
    """An installed table's first boot: empty store, simulated readers, mock GPIO pins, the
    dashboard on the real server."""

    def __init__(self, folder: Path, catalogue: Catalogue) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.store = EventStore.open(folder / "companion.db")
        self.feedback = Feedback(
            PINS, pin_factory=self.factory, blink_time=0.05, beep_time=0.005, hold_time=0.1
        )
        self.service = TableService(
            None,
            TableConfig.simulated(2).hardware.readers,
            clock=time.monotonic,
            feedback=self.feedback,
            store=self.store,
            catalogue=catalogue,
        )
        self.service.start()
        self.control = TokenFile(folder / "companion.db.token")
        self.dashboard = Dashboard(
            self.service, host="127.0.0.1", port=0, token=self.control, simulated=True
        )
        self.thread = threading.Thread(target=self.dashboard.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.dashboard.port}"

    def press_end_turn(self) -> None:
        self.factory.pin(END_TURN).drive_low()
        self.factory.pin(END_TURN).drive_high()

    def hold_end_turn(self) -> None:
        """Down until the waiting tablet is let in (gpiozero times the hold), then up."""
        self.factory.pin(END_TURN).drive_low()
        eventually(
            lambda: not self.service.pairing.waiting,
            timeout=5,
            what="gpiozero's hold timer letting the tablet in",
        )
        self.factory.pin(END_TURN).drive_high()

    def close(self) -> None:
        self.dashboard.close()
        self.thread.join(5)
        self.service.stop()
        self.store.close()
        self.factory.reset()


@pytest.fixture
def first_run(tmp_path: Path, catalogue: Catalogue) -> Iterator[FirstRun]:
    table = FirstRun(tmp_path, catalogue)
    yield table
    table.close()


def test_the_table_page_says_there_is_no_game_and_leads_to_setup(
    page: Any, first_run: FirstRun
) -> None:
    page.goto(first_run.url + "/")
    expect(page.locator("#turn")).to_have_text("No game in progress")
    expect(page.locator("#no-game")).to_contain_text("There is no game on this table yet.")
    expect(page.locator("#end-turn")).to_be_hidden()
    screenshot(page, "first-run-no-game")
    page.locator("#no-game a", has_text="Start a game").click()
    page.wait_for_url("**/setup")
    page.wait_for_selector("body[data-ready]")
    page.goto(first_run.url + "/enrol")  # enrolment works before any game
    expect(page.locator("#bulk-zone option")).to_have_count(3)
    assert page.errors == []


def test_a_game_started_elsewhere_replaces_the_no_game_page(page: Any, first_run: FirstRun) -> None:
    page.goto(first_run.url + "/")
    expect(page.locator("#turn")).to_have_text("No game in progress")
    start_demo_players_game(first_run.service)
    expect(page.locator("#turn")).to_contain_text("Ann to play")
    expect(page.locator("#end-turn")).to_be_visible()
    assert page.errors == []


def test_ask_to_control_then_hold_the_end_turn_button(page: Any, first_run: FirstRun) -> None:
    start_demo_players_game(first_run.service)
    page.goto(first_run.url + "/")
    expect(page.locator("#turn")).to_contain_text("Ann to play")
    expect(page.locator("body")).to_have_class(re.compile(r"\bview-only\b"))
    expect(page.locator("#control")).to_contain_text("View only")
    page.locator("#ask-control").click()
    expect(page.locator("#pairing")).to_contain_text("hold its End-turn button down for 2 s")
    expect(page.locator("#pairing-code")).to_have_text(re.compile(r"^[1-4] · [1-4] · [1-4]$"))
    assert first_run.service.pairing.waiting
    assert set(first_run.feedback.current_leds.values()) == {"pairing"}  # the LEDs blink
    expect(page.locator("#pairing-note")).to_contain_text("A tablet asks to control the table")
    screenshot(page, "first-run-pairing")
    first_run.press_end_turn()  # a short press: the turn ends, and the page says so
    expect(page.locator("#turn")).to_contain_text("Ben to play")
    expect(page.locator("#pairing-note")).to_contain_text("End turn was pressed: the turn ended")
    assert first_run.service.pairing.waiting  # the tablet still asks
    first_run.hold_end_turn()
    expect(page.locator("#messages")).to_contain_text("This tablet can now run the table.")
    expect(page.locator("#pairing")).to_be_hidden()
    expect(page.locator("#ask-control")).to_have_count(0)
    expect(page.locator("#pairing-note")).to_contain_text("End turn was held down")
    token = page.evaluate("localStorage.getItem('companion-token')")
    assert token and token != first_run.control.current()  # its own token, not the QR one
    assert first_run.service.version == 1  # the hold paired; it did not end the turn
    page.locator("#end-turn").click()
    expect(page.locator("#turn")).to_contain_text("Cat to play")
    assert page.errors == []


def test_a_tablet_whose_token_was_revoked_is_view_only_again(
    page: Any, first_run: FirstRun
) -> None:
    start_demo_players_game(first_run.service)
    page.goto(first_run.url + "/?token=not-a-token-any-more")
    expect(page.locator("#turn")).to_contain_text("Ann to play")
    expect(page.locator("#ask-control")).to_be_visible()
    assert page.evaluate("localStorage.getItem('companion-token')") is None
    assert page.errors == []
