"""Issue 22's attacks on pairing, each refused: a client on the LAN taking the End-turn press,
racing the real tablet, holding the window open, claiming another's window, and a page on
another site asking through a player's browser.

Real service, gpiozero mock pins (the buzzer's pin records the code it beeps), the app through
its test client; the pairing clock is injected.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.catalogue.cards import Catalogue
from companion.storage.store import EventStore
from companion.storage.tokens import TokenFile
from companion.table.live import LiveGame
from companion.table.pairing import ENDED_TURN, MAX_WINDOWS, PAIRED
from companion.table.service import TableService
from companion.web.app import create_app
from tests.tapes import HEADER
from tests.test_pairing import END_TURN, Clock, hold, press, start_table
from tests.waiting import eventually

TABLET = {"REMOTE_ADDR": "192.0.2.10"}
ATTACKER = {"REMOTE_ADDR": "192.0.2.66"}


@pytest.fixture
def table(
    tmp_path: Path, catalogue: Catalogue, factory: Any
) -> Iterator[tuple[TableService, Clock]]:
    service, clock, _ = start_table(tmp_path, catalogue, factory)
    yield service, clock
    service.stop()
    service.store.close()


@pytest.fixture
def client(table: tuple[TableService, Clock], tmp_path: Path) -> FlaskClient:
    return create_app(service=table[0], token=TokenFile(tmp_path / "table.db.token")).test_client()


def ask(client: FlaskClient, who: dict[str, str], **headers: str) -> Any:
    return client.post("/api/pairing", json={}, environ_base=who, headers=headers)


def claim(client: FlaskClient, who: dict[str, str], pairing: str) -> Any:
    return client.post("/api/pairing/claim", json={"pairing": pairing}, environ_base=who)


def test_the_players_end_turn_press_ends_the_turn_and_pairs_nobody(
    client: FlaskClient, table: Any, factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the attacker asked, the player's next End-turn press paired the attacker (5 of 5)."""
    service = table[0]
    beeps: list[str] = []
    monkeypatch.setattr(service.feedback, "accepted", lambda: beeps.append("accepted"))
    stolen = ask(client, ATTACKER).get_json()["pairing"]
    for turn in range(1, 6):
        press(factory)  # a player ends their turn, as every turn (gpiozero calls at once)
        assert service.version == turn
        assert claim(client, ATTACKER, stolen).get_json()["state"] == "waiting"
    # the page says what the press did, and how a tablet that really asks gets in
    notice = client.get("/api/state").get_json()["pairing"]
    assert notice["said"] == ENDED_TURN and notice["waiting"] is True
    assert "hold End turn down" in notice["asking"]
    assert beeps == ["accepted"] * 5  # and the buzzer: each press was taken, as an end of turn
    assert service.store.tablets.all() == []


def test_only_a_hold_pairs_and_the_page_says_so(
    client: FlaskClient, table: Any, factory: Any
) -> None:
    service = table[0]
    asked = ask(client, TABLET).get_json()
    hold(factory, service)
    assert service.version == 0  # the turn goes on
    assert client.get("/api/state").get_json()["pairing"]["said"] == PAIRED
    assert claim(client, TABLET, asked["pairing"]).get_json()["state"] == "granted"


def test_the_table_beeps_the_code_the_asking_tablet_shows(
    client: FlaskClient, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tablets cannot both be asking; the one that is shows the code the buzzer beeps (a
    group of beeps per digit), so a player holds End turn only for the tablet in their hand."""
    buzzer = table[0].feedback._buzzer
    played: list[int] = []
    real_beep = buzzer.beep

    def beep(on: float, off: float, n: int, background: bool) -> None:
        played.append(n)
        real_beep(on, off, n, background)

    monkeypatch.setattr(buzzer, "beep", beep)
    code = ask(client, TABLET).get_json()["code"]
    assert len(code) == 3 and all(1 <= digit <= 4 for digit in code)
    raced = ask(client, ATTACKER)
    assert raced.status_code == 409 and "another tablet is asking" in raced.get_json()["error"]
    eventually(lambda: len(played) >= len(code), what="the buzzer's thread beeping the code")
    assert played[: len(code)] == code


def test_a_window_is_claimed_only_from_the_address_that_asked(
    client: FlaskClient, table: Any, factory: Any
) -> None:
    service = table[0]
    asked = ask(client, TABLET).get_json()["pairing"]
    hold(factory, service)
    assert claim(client, ATTACKER, asked).status_code == 404  # even knowing the id
    client.post("/api/pairing/cancel", json={"pairing": asked}, environ_base=ATTACKER)
    assert claim(client, TABLET, asked).get_json()["state"] == "granted"


def test_many_addresses_cannot_hold_the_window_open(client: FlaskClient, table: Any) -> None:
    """Was: 60 addresses x 6 windows were all granted, and the real tablet only got 409."""
    granted = 0
    for n in range(60):
        for _ in range(6):
            who = {"REMOTE_ADDR": f"198.51.100.{n}"}
            answer = ask(client, who)
            if answer.status_code == 201:
                granted += 1
                client.post(
                    "/api/pairing/cancel",
                    json={"pairing": answer.get_json()["pairing"]},
                    environ_base=who,
                )
            else:
                assert answer.status_code == 429, answer.get_json()
                assert "companion token" in answer.get_json()["error"]
                assert int(answer.headers["Retry-After"]) <= 600
    assert granted == MAX_WINDOWS


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        # fetch(..., {mode: "no-cors"}) from another site: text/plain, and the browser says so
        (
            {
                "Content-Type": "text/plain",
                "Origin": "http://evil.example",
                "Sec-Fetch-Site": "cross-site",
            },
            403,
        ),
        ({"Content-Type": "text/plain"}, 415),  # the body's type alone
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),  # a form
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403),
        ({"Content-Type": "application/json", "Origin": "null"}, 403),
    ],
)
def test_only_the_tables_own_page_may_ask(
    client: FlaskClient, table: Any, headers: dict[str, str], status: int
) -> None:
    for path in ("/api/pairing", "/api/pairing/claim", "/api/pairing/cancel"):
        answer = client.post(path, data=b"{}", headers=headers, environ_base=ATTACKER)
        assert answer.status_code == status, (path, answer.get_json())
        assert answer.get_json()["error"]
    assert not table[0].pairing.waiting


def test_the_tables_own_page_may_ask(client: FlaskClient, table: Any) -> None:
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert ask(client, TABLET, **own).status_code == 201


def test_a_table_without_the_button_says_so_and_offers_the_qr_code(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    store = EventStore.open(tmp_path / "sim.db")
    service = TableService(
        LiveGame.start(store, HEADER, catalogue),
        {z: "mock:" for z in HEADER["zones"]},
        clock=time.monotonic,
    )
    try:
        client = create_app(service=service, token="t0ken", simulated=True).test_client()
        status = client.get("/api/pairing").get_json()
        assert status["button"] is False and "companion token" in status["message"]
        refused = ask(client, TABLET)
        assert refused.status_code == 409 and "companion token" in refused.get_json()["error"]
    finally:
        store.close()


def test_a_short_press_still_ends_the_turn_while_the_button_is_held_for_nothing(
    client: FlaskClient, table: Any, factory: Any
) -> None:
    """A hold with nobody asking is an ordinary end of turn (at release)."""
    service = table[0]
    button = service.feedback._buttons["end-turn"]  # type: ignore[attr-defined]
    factory.pin(END_TURN).drive_low()
    eventually(lambda: button.is_held, what="gpiozero's hold timer firing (nobody asking)")
    assert service.version == 0  # a hold alone ends nothing
    factory.pin(END_TURN).drive_high()
    assert service.version == 1
