"""Pairing a tablet with the table's End-turn button (gpiozero mock pins), and revoking it.

Time is the injected clock: a window's 60 seconds pass by setting it, never by sleeping. The
table's worker is stepped; only gpiozero's own hold timer is waited for (a thread of its own).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.cli.main import main
from companion.hardware.feedback import Feedback
from companion.hardware.pinmap import build_pin_map
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile, token_path
from companion.table.live import LiveGame
from companion.table.pairing import (
    MAX_WINDOWS,
    NoPairingButton,
    Pairing,
    PairingBusy,
    PairingUnknown,
    TooManyPairings,
)
from companion.table.service import TableService
from companion.web.app import TOKEN_HEADER, create_app
from tests.tapes import HEADER
from tests.waiting import eventually

PINS = build_pin_map("test", {"base-1": 17, "base-2": 27}, 18, {"end-turn": 23, "undo": 24})
END_TURN = 23


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# The pairing windows alone


def windows(clock: Clock, button: bool = True) -> tuple[Pairing, list[bool], list[str]]:
    blinks: list[bool] = []
    granted: list[str] = []

    def grant() -> str:
        granted.append(f"token-{len(granted)}")
        return granted[-1]

    def waiting(on: bool, code: tuple[int, ...]) -> None:
        assert len(code) == (3 if on else 0)
        blinks.append(on)

    pairing = Pairing(clock, grant=grant, waiting=waiting, has_button=lambda: button)
    return pairing, blinks, granted


def test_a_press_within_the_window_grants_the_asking_tablet_once() -> None:
    clock = Clock()
    pairing, blinks, granted = windows(clock)
    window = pairing.ask()
    assert pairing.waiting and blinks == [True]
    assert pairing.claim(window.pairing_id).state == "waiting"
    clock.now += 59
    assert pairing.press() is True
    assert blinks == [True, False] and not pairing.waiting
    assert granted == []  # nothing is made until the asking tablet collects it
    claim = pairing.claim(window.pairing_id)
    assert (claim.state, claim.token) == ("granted", "token-0")
    with pytest.raises(PairingUnknown):
        pairing.claim(window.pairing_id)  # handed out once


def test_one_window_at_a_time() -> None:
    clock = Clock()
    pairing, _, _ = windows(clock)
    first = pairing.ask()
    clock.now += 20
    with pytest.raises(PairingBusy) as busy:
        pairing.ask()
    assert busy.value.retry_after == 40
    with pytest.raises(PairingUnknown):
        pairing.claim("a-guessed-id")
    pairing.cancel(first.pairing_id)
    assert not pairing.waiting
    assert pairing.ask().pairing_id != first.pairing_id


def test_the_window_expires_after_60_seconds() -> None:
    clock = Clock()
    pairing, blinks, _ = windows(clock)
    window = pairing.ask()
    clock.now += 60
    pairing.tick()  # the table's worker does this: the LEDs stop without any tablet asking
    assert blinks == [True, False] and not pairing.waiting
    assert pairing.press() is False  # now the button ends the turn again
    assert pairing.claim(window.pairing_id).state == "expired"
    with pytest.raises(PairingUnknown):
        pairing.claim(window.pairing_id)


def test_asking_is_rate_limited_for_the_whole_table() -> None:
    """A limit per address is no limit for a client with many: 60 addresses asking 6 times
    each once got 360 windows."""
    clock = Clock()
    pairing, _, _ = windows(clock)
    granted = 0
    for n in range(60):
        for _ in range(6):
            try:
                window = pairing.ask(f"192.0.2.{n}")
            except TooManyPairings as limited:
                assert limited.retry_after is not None and limited.retry_after <= 600
                continue
            granted += 1
            pairing.cancel(window.pairing_id, f"192.0.2.{n}")
            clock.now += 1
    assert granted == MAX_WINDOWS
    clock.now += 600
    pairing.ask("192.0.2.200")  # the period over, the table may be asked again


def test_a_table_without_the_button_cannot_pair_this_way() -> None:
    pairing, blinks, _ = windows(Clock(), button=False)
    with pytest.raises(NoPairingButton, match="companion token"):
        pairing.ask()
    assert blinks == []


# At the table: real service, mock GPIO pins, the dashboard


def start_table(
    tmp_path: Path, catalogue: Catalogue, factory: Any
) -> tuple[TableService, Clock, Feedback]:
    """A started table with mock pins, a pairing clock the test moves, and no worker thread
    (the test steps it)."""
    store = EventStore.open(tmp_path / "table.db")
    clock = Clock()
    feedback = Feedback(PINS, pin_factory=factory, blink_time=0.02, beep_time=0.002, hold_time=0.05)
    service = TableService(
        LiveGame.start(store, HEADER, catalogue),
        {z: "mock:" for z in HEADER["zones"]},
        clock=time.monotonic,
        feedback=feedback,
        pairing_clock=clock,
        worker_thread=False,
    )
    service.start()
    return service, clock, feedback


@pytest.fixture
def table(
    tmp_path: Path, catalogue: Catalogue, factory: Any
) -> Iterator[tuple[TableService, Clock, Feedback]]:
    service, clock, feedback = start_table(tmp_path, catalogue, factory)
    yield service, clock, feedback
    service.stop()
    service.store.close()


@pytest.fixture
def client(table: tuple[TableService, Clock, Feedback], tmp_path: Path) -> FlaskClient:
    service = table[0]
    return create_app(service=service, token=TokenFile(tmp_path / "table.db.token")).test_client()


def press(factory: Any, pin: int = END_TURN) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def hold(factory: Any, service: TableService) -> None:
    """Hold End turn down until the waiting tablet is let in (gpiozero times the hold)."""
    factory.pin(END_TURN).drive_low()
    eventually(
        lambda: not service.pairing.waiting, what="gpiozero's hold timer letting the tablet in"
    )
    factory.pin(END_TURN).drive_high()


def end_turn(client: FlaskClient, token: str | None, version: int = 0) -> int:
    headers = {TOKEN_HEADER: token} if token else {}
    body = {"line": {"input": "end-turn"}, "version": version}
    return client.post("/api/input", json=body, headers=headers).status_code


def test_pairing_with_the_end_turn_button_gives_a_working_token(
    client: FlaskClient, table: Any, factory: Any
) -> None:
    service, _, feedback = table
    assert end_turn(client, None) == 401
    assert client.get("/api/pairing").get_json() == {
        "button": True,
        "waiting": False,
        "seconds": 60,
        "hold_seconds": 2.0,
        "controls": False,
        "message": None,
    }
    asked = client.post("/api/pairing", json={})
    assert asked.status_code == 201
    body = asked.get_json()
    code = "-".join(str(digit) for digit in body["code"])
    assert body["message"] == (
        f"Check that the table beeps this code (groups of beeps: {code}), then hold its "
        "End-turn button down for 2 s within 60 s."
    )
    assert set(feedback.current_leds.values()) == {"pairing"}  # every zone LED blinks
    claim = client.post("/api/pairing/claim", json={"pairing": body["pairing"]}).get_json()
    assert claim == {"state": "waiting", "seconds_left": 60}
    hold(factory, service)
    assert service.version == 0  # the hold paired; it did not end the turn
    assert set(feedback.current_leds.values()) == {"off"}  # the game's LEDs again
    granted = client.post("/api/pairing/claim", json={"pairing": body["pairing"]}).get_json()
    assert granted["state"] == "granted"
    assert end_turn(client, granted["token"]) == 200
    assert service.version == 1
    asking = client.get("/api/pairing", headers={TOKEN_HEADER: granted["token"]})
    assert asking.get_json()["controls"] is True  # how a page learns its token still works
    assert len(service.store.tablets.all()) == 1
    again = client.post("/api/pairing/claim", json={"pairing": body["pairing"]})
    assert again.status_code == 404 and "tap Ask to control again" in again.get_json()["error"]
    press(factory)  # with nobody pairing, the button ends the turn (gpiozero calls at once)
    assert service.version == 2


def test_a_second_tablet_that_did_not_ask_gets_nothing(
    client: FlaskClient, table: Any, factory: Any
) -> None:
    service = table[0]
    first = client.post("/api/pairing", json={}).get_json()["pairing"]
    second = client.post("/api/pairing", json={})
    assert second.status_code == 409 and "another tablet is asking" in second.get_json()["error"]
    assert second.headers["Retry-After"] == "60"
    hold(factory, service)
    for guess in ("", "x", first[:-1] + ("A" if first[-1] != "A" else "B")):
        answer = client.post("/api/pairing/claim", json={"pairing": guess})
        assert answer.status_code == 404 and "token" not in answer.get_json()
    assert client.post("/api/pairing/claim", json={}).status_code == 400
    assert client.post("/api/pairing/claim", json={"pairing": first}).get_json()["state"] == (
        "granted"
    )


def test_nobody_pressing_within_60_seconds(client: FlaskClient, table: Any, factory: Any) -> None:
    service, clock, feedback = table
    asked = client.post("/api/pairing", json={}).get_json()["pairing"]
    clock.now += 59.5
    assert client.post("/api/pairing/claim", json={"pairing": asked}).get_json() == {
        "state": "waiting",
        "seconds_left": 1,
    }
    clock.now += 0.5
    service.step()  # the worker's idle chores: the window ends without anyone asking
    assert set(feedback.current_leds.values()) == {"off"}
    expired = client.post("/api/pairing/claim", json={"pairing": asked}).get_json()
    assert expired["state"] == "expired" and "try again" in expired["message"]
    press(factory)  # too late: this press is an ordinary end of turn
    assert service.version == 1
    assert service.store.tablets.all() == []


def test_rotating_the_token_revokes_every_paired_tablet(
    client: FlaskClient, table: Any, factory: Any, tmp_path: Path
) -> None:
    service = table[0]
    db = tmp_path / "table.db"
    old_control = token_path(db).read_text().strip()
    asked = client.post("/api/pairing", json={}).get_json()["pairing"]
    hold(factory, service)
    tablet = client.post("/api/pairing/claim", json={"pairing": asked}).get_json()["token"]
    assert end_turn(client, tablet) == 200
    result = CliRunner().invoke(main, ["token", "--db", str(db), "--rotate"])
    assert result.exit_code == 0, result.output
    assert "a new control token: 1 paired tablet must pair again" in result.output
    new_control = token_path(db).read_text().strip()
    assert new_control != old_control and result.output.splitlines()[0] == new_control
    assert end_turn(client, tablet, version=1) == 401  # the running table noticed at once
    assert end_turn(client, old_control, version=1) == 401
    assert end_turn(client, new_control, version=1) == 200
    assert service.store.tablets.all() == []
