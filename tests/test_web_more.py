"""Setup, history, enrolment, the virtual table and the OpenAPI description."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.cli.table import open_table
from companion.table.config import TableConfig
from companion.table.service import TableService
from companion.web.app import create_app
from tests.conftest import AUTH, TOKEN
from tests.tapes import start_demo_players_game
from tests.waiting import eventually

PLAYERS = [
    {"name": "Ann", "colour": "#e53935", "factions": ["munchkin/orcs", "core/ninjas"]},
    {"name": "Ben", "colour": "#1e88e5", "factions": ["oops/cowboys", "core/robots"]},
]


def test_openapi_describes_every_api_route(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    documented = set(spec["paths"])
    for rule in client.application.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            assert path in documented, f"{rule.rule} is not in /api/openapi.json"


def test_factions_and_cards(client: FlaskClient) -> None:
    factions = client.get("/api/factions").get_json()["factions"]
    assert len(factions) == 24 and {"id", "name", "set", "bases"} <= set(factions[0])
    orcs = client.get("/api/cards?faction=munchkin/orcs&type=minion").get_json()["cards"]
    assert "munchkin/topper-chopper" in [c["id"] for c in orcs]


def test_setup_starts_a_game_with_the_base_deck_of_its_sets(
    client: FlaskClient,
    service: TableService,
) -> None:
    body = {"players": PLAYERS, "zones": 3, "replace": service.live.game_id}
    answer = client.post("/api/games", json=body, headers=AUTH)
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert {card.split("/")[0] for card in body["base_deck"]} == {"munchkin", "core", "oops"}
    assert len(body["base_deck"]) == 16 + 16 + 8
    state = client.get("/api/state").get_json()
    assert [p["name"] for p in state["state"]["players"]] == ["Ann", "Ben"]
    assert service.live.game.state.header.zones == ("base-1", "base-2", "base-3", "discard")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (PLAYERS[:1], "2 to 4 players"),
        ([PLAYERS[0], {**PLAYERS[1], "name": "Ann"}], "a name of their own"),
        ([PLAYERS[0], {**PLAYERS[1], "colour": "blue"}], "colour"),
        ([PLAYERS[0], {**PLAYERS[1], "factions": ["core/robots", "core/robots"]}], "two different"),
        ([PLAYERS[0], {**PLAYERS[1], "factions": ["core/pixies", "core/robots"]}], "two different"),
    ],
)
def test_setup_refuses_bad_players(client: FlaskClient, players: list, message: str) -> None:
    answer = client.post("/api/games", json={"players": players}, headers=AUTH)
    assert answer.status_code == 400 and message in answer.get_json()["error"]


def test_history_chart_and_stats(client: FlaskClient, service: TableService) -> None:
    for line in (
        {"tap": "B3", "zone": "base-3"},
        *[{"tap": t, "zone": "base-3"} for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
        {"input": "counter", "tag": "TP", "delta": 3},
        {"input": "score", "zone": "base-3"},
        {"input": "award"},
    ):
        service.submit(line)
    game_id = service.live.game_id
    listed = client.get("/api/games").get_json()["games"]
    assert listed[0]["id"] == game_id
    detail = client.get(f"/api/games/{game_id}").get_json()
    assert detail["vp_over_time"][0]["vp"] == [0, 0, 0]
    assert detail["vp_over_time"][-1]["vp"] == [t["vp"] for t in service.document()["players"]]
    svg = client.get(f"/history/{game_id}/vp.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.count(b"<polyline") == 3
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/stats").get_json() == {"faction_pairs": []}  # no finished game yet


def test_bind_and_what_is_this_tag(client: FlaskClient, service: TableService) -> None:
    assert client.get("/api/bindings/04ABCD", headers=AUTH).get_json()["bound"] is False
    bound = client.post(
        "/api/bindings",
        json={"uid": "04abcd", "card": "munchkin/fence", "owner": "Ben"},
        headers=AUTH,
    )
    assert bound.status_code == 201
    assert "Fence" in client.get("/api/bindings/04ABCD", headers=AUTH).get_json()["text"]
    assert service.live.game.state.header.tags["04ABCD"].owner == "Ben"
    bad = client.post("/api/bindings", json={"uid": "04AB", "card": "x/y"}, headers=AUTH)
    assert bad.status_code == 400 and "unknown card id" in bad.get_json()["error"]
    clash = client.post(
        "/api/bindings", json={"uid": "04ABCD", "card": "munchkin/dumbbells"}, headers=AUTH
    )
    assert clash.status_code == 400


def test_bulk_enrolment_from_the_tablet(client: FlaskClient) -> None:
    started = client.post(
        "/api/enrol/start", json={"zone": "base-2", "faction": "core/ninjas"}, headers=AUTH
    )
    assert started.status_code == 200 and started.get_json()["next"].startswith("Tap Ninja Master")
    assert client.get("/api/enrol").get_json()["zone"] == "base-2"
    wrong = client.post(
        "/api/enrol/start", json={"zone": "base-2", "faction": "core/pixies"}, headers=AUTH
    )
    assert wrong.status_code == 400 and "unknown faction" in wrong.get_json()["error"]
    assert client.post("/api/enrol/stop", json={}, headers=AUTH).status_code == 200
    assert client.get("/api/enrol").get_json()["zone"] is None


@pytest.fixture
def simulated(tmp_path: Path) -> Iterator[FlaskClient]:
    service = open_table(TableConfig.simulated(), str(tmp_path / "sim.db"))
    start_demo_players_game(service)
    service.start()
    yield create_app(service=service, token=TOKEN, simulated=True).test_client()
    service.stop()
    service.store.close()


def test_virtual_table_taps_go_through_the_simulated_readers(simulated: FlaskClient) -> None:
    client = simulated
    assert client.get("/api/sim/cards").status_code == 200
    assert (
        client.post("/api/sim/base-1/place", json={"uid": "nope"}, headers=AUTH).status_code == 400
    )
    bound = client.post(
        "/api/bindings", json={"uid": "04B1000000A001", "card": "munchkin/treehouse"}, headers=AUTH
    )
    assert bound.status_code == 201
    cards = client.get("/api/sim/cards", headers=AUTH).get_json()["cards"]
    assert any(c["card"] == "munchkin/treehouse" for c in cards)
    watching = client.get("/api/sim/cards").get_json()["cards"]  # a hand is nobody's to see
    assert not any(c["card"] == "munchkin/treehouse" for c in watching)
    assert (
        client.post(
            "/api/sim/base-1/place", json={"uid": "04B1000000A001"}, headers=AUTH
        ).status_code
        == 200
    )
    eventually(
        lambda: client.get("/api/state").get_json()["state"]["bases"],
        timeout=4,
        what="the tap reaching the game through nfcpy",
    )
    assert (
        client.post("/api/sim/base-1/lift", json={}, headers=AUTH).get_json()["lifted"]
        == "04B1000000A001"
    )
    assert client.post("/api/sim/base-9/lift", json={}, headers=AUTH).status_code == 404
