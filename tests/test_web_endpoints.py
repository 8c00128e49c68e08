"""Every endpoint's refusals (token, JSON, zones, simulated-only) and the screens' details."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.storage.tokens import load_or_create_token
from companion.table.demo import DemoPlayer
from companion.table.service import TableService
from companion.web.app import create_app
from companion.web.palette import PALETTE
from tests.conftest import AUTH, TOKEN

PLAYERS = [
    {"name": "Ann", "colour": "#E53935", "factions": ["munchkin/orcs", "core/ninjas"]},
    {"name": "Ben", "colour": "#1e88e5", "factions": ["core/robots", "core/aliens"]},
]
SCORED = (
    {"tap": "B3", "zone": "base-3"},
    *[{"tap": t, "zone": "base-3"} for t in ("TC", "SL", "MT", "FE", "BH", "TP")],
    {"input": "counter", "tag": "TP", "delta": 3},
    {"input": "score", "zone": "base-3"},
    {"input": "award"},
)


def post_rules(client: FlaskClient) -> list[str]:
    rules = [r for r in client.application.url_map.iter_rules() if "POST" in (r.methods or ())]
    return [re.sub(r"<[^>]+>", "base-1", r.rule) for r in rules]


def test_every_post_needs_the_right_token(client: FlaskClient, service: TableService) -> None:
    """Except asking to pair and collecting the token, which is how a tablet gets one."""
    pairing = {"/api/pairing", "/api/pairing/claim", "/api/pairing/cancel"}
    paths = post_rules(client)
    assert pairing <= set(paths) and len(paths) >= 10
    for path in set(paths) - pairing:
        for headers in ({}, {"X-Companion-Token": TOKEN + "x"}):
            answer = client.post(path, json={}, headers=headers)
            assert answer.status_code == 401, path
            assert "control token" in answer.get_json()["error"]
    assert service.version == 0


@pytest.mark.parametrize(
    "path",
    ["/api/input", "/api/games", "/api/bindings", "/api/enrol/start", "/api/sim/base-1/place"],
)
def test_bad_json_is_a_400(client: FlaskClient, path: str) -> None:
    for data in (b"{oops", b"[1, 2]", b'"text"'):
        answer = client.post(path, data=data, headers={**AUTH, "Content-Type": "application/json"})
        assert answer.status_code in (400, 404), path  # sim answers 404 on a real table
        assert answer.get_json()["error"]


def test_missing_fields_are_named(client: FlaskClient) -> None:
    answer = client.post("/api/enrol/start", json={"zone": "base-1"}, headers=AUTH)
    assert answer.status_code == 400 and '"faction"' in answer.get_json()["error"]
    answer = client.post("/api/bindings", json={"uid": "zz", "card": "x"}, headers=AUTH)
    assert answer.status_code == 400 and "not a tag uid" in answer.get_json()["error"]
    answer = client.post("/api/input", json={"line": {}, "version": True}, headers=AUTH)
    assert answer.status_code == 400 and '"version"' in answer.get_json()["error"]


def test_unknown_zones_are_404(client: FlaskClient) -> None:
    answer = client.post(
        "/api/enrol/start", json={"zone": "base-9", "faction": "core/ninjas"}, headers=AUTH
    )
    assert answer.status_code == 404 and "zones: base-1" in answer.get_json()["error"]
    assert client.post("/api/readers/base-9/reopen", json={}, headers=AUTH).status_code == 404


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/sim/cards"),
        ("post", "/api/sim/base-1/place"),
        ("post", "/api/sim/base-1/lift"),
        ("get", "/api/demo"),
        ("post", "/api/demo/pause"),
        ("post", "/api/demo/resume"),
    ],
)
def test_sim_and_demo_are_refused_on_a_real_table(
    client: FlaskClient, method: str, path: str
) -> None:
    answer = getattr(client, method)(path, json={"uid": "04A1B2C3D4E5F6"}, headers=AUTH)
    assert answer.status_code == 404 and answer.get_json()["error"]


def test_cards_filters_are_checked(client: FlaskClient) -> None:
    assert client.get("/api/cards?type=spaceship").status_code == 400
    assert client.get("/api/cards?set=nope").status_code == 400
    assert client.get("/api/cards?faction=pixies").status_code == 400
    bases = client.get("/api/cards?set=core&type=base").get_json()["cards"]
    assert bases and {c["type"] for c in bases} == {"base"}
    by_name = client.get("/api/cards?faction=Ninjas").get_json()["cards"]
    assert {c["faction"] for c in by_name} == {"core/ninjas"}


def test_setup_checks_zones_against_the_readers(client: FlaskClient) -> None:
    too_many = client.post("/api/games", json={"players": PLAYERS, "zones": 5}, headers=AUTH)
    assert too_many.status_code == 400 and "no reader for base-4" in too_many.get_json()["error"]
    zero = client.post("/api/games", json={"players": PLAYERS, "zones": 1}, headers=AUTH)
    assert zero.status_code == 400 and "2 to 5" in zero.get_json()["error"]
    playing = client.get("/api/state").get_json()["game_id"]
    started = client.post("/api/games", json={"players": PLAYERS, "replace": playing}, headers=AUTH)
    assert started.status_code == 201
    body = started.get_json()
    assert body["zones"] == ["base-1", "base-2", "base-3", "discard"]
    assert {c.split("/")[0] for c in body["base_deck"]} == {"core", "munchkin"}
    state = client.get("/api/state").get_json()
    assert state["colours"] == {"Ann": "#e53935", "Ben": "#1e88e5"}
    assert state["game_id"] == body["game_id"] and state["version"] == 0
    games = client.get("/api/games").get_json()["games"]
    assert [g["current"] for g in games] == [True, False]


def test_setup_chooses_a_printing_per_set(client: FlaskClient, service: TableService) -> None:
    """A table whose Smash Up: Munchkin box is today's print plays its bases as printed
    today; the header records the choice; a printing nobody offers is refused."""
    offered = client.get("/api/factions").get_json()["printings"]
    assert offered["munchkin"]["printings"] == ["errata", "current"]
    assert offered["core"]["printings"] == ["errata", "first"]
    wrong = client.post(
        "/api/games", json={"players": PLAYERS, "printings": {"munchkin": "first"}}, headers=AUTH
    )
    assert wrong.status_code == 400 and "offers errata, current" in wrong.get_json()["error"]
    body = {
        "players": PLAYERS,
        "printings": {"munchkin": "current"},
        "replace": service.live.game_id,
    }
    started = client.post("/api/games", json=body, headers=AUTH)
    assert started.status_code == 201
    game = service.live.game
    assert game.state.header.printings == {"munchkin": "current"}
    assert game.catalogue["munchkin/hotel-of-holiness"].breakpoint == 13
    again = client.post(
        "/api/games", json={"players": PLAYERS, "replace": service.live.game_id}, headers=AUTH
    )
    assert again.status_code == 201 and "printings" not in service.live.game.state.header.raw
    assert service.live.game.catalogue["munchkin/hotel-of-holiness"].breakpoint == 15


def test_a_game_replayed_for_history(client: FlaskClient, service: TableService) -> None:
    for line in SCORED:
        service.submit(line)
    game_id = service.live.game_id
    detail = client.get(f"/api/games/{game_id}").get_json()
    assert detail["game"]["current"] is True and detail["error"] is None
    assert len(detail["vp_over_time"]) == len(SCORED) + 1  # the start, then after each line
    assert [p["seq"] for p in detail["vp_over_time"]] == list(range(len(SCORED) + 1))
    [scoring] = detail["scorings"]
    assert scoring["seq"] == len(SCORED) and scoring["card"] == "core/the-central-brain"
    assert detail["vp_over_time"][-1]["vp"] == [p["vp"] for p in service.document()["players"]]
    svg = client.get(f"/history/{game_id}/vp.svg").get_data(as_text=True)
    assert svg.startswith("<svg") and svg.count("<polyline") == 3
    assert "Ann (" in svg and PALETTE[0] in svg  # legend with the seat colour
    assert client.get("/history/999/vp.svg").status_code == 404
    assert client.get(f"/history/{game_id}").status_code == 200


def test_stats_count_finished_games_by_faction_pair(
    client: FlaskClient, service: TableService
) -> None:
    store = service.live.store
    store.log.finish_game(service.live.game_id, ["Ann"])
    pairs = client.get("/api/stats").get_json()["faction_pairs"]
    assert pairs[0] == {
        "factions": ["munchkin/elves", "munchkin/orcs"],
        "games": 1,
        "wins": 1,
        "win_rate": 1.0,
    }
    assert len(pairs) == 3


def test_bindings_rebind_and_game_owner(client: FlaskClient, service: TableService) -> None:
    first = client.post(
        "/api/bindings", json={"uid": "04aa01", "card": "core/ninja-master"}, headers=AUTH
    )
    assert first.status_code == 201 and first.get_json()["uid"] == "04AA01"
    clash = client.post(
        "/api/bindings", json={"uid": "04AA01", "card": "core/shinobi"}, headers=AUTH
    )
    assert clash.status_code == 400 and "rebind" in clash.get_json()["error"]
    again = client.post(
        "/api/bindings",
        json={"uid": "04AA01", "card": "core/shinobi", "owner": "Cat", "rebind": True},
        headers=AUTH,
    )
    assert again.status_code == 201
    tag = client.get("/api/bindings/04aa01", headers=AUTH).get_json()
    assert tag["card"] == "core/shinobi" and tag["owner"] == "Cat" and tag["stored"] is True
    assert service.live.game.state.header.tags["04AA01"].card == "core/shinobi"
    in_game_only = client.get("/api/bindings/B1", headers=AUTH).get_json()
    assert in_game_only["bound"] is True and in_game_only["stored"] is False


def test_readers_health_fields(client: FlaskClient) -> None:
    [first, *_] = client.get("/api/readers").get_json()["readers"]
    assert {"zone", "state", "reads_per_minute", "errors", "reopens", "last_error"} <= set(first)
    reopened = client.post("/api/readers/base-2/reopen", json={}, headers=AUTH).get_json()
    assert reopened["zone"] == "base-2" and reopened["reopens"] == 1


def test_openapi_lists_every_method_of_every_api_rule(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.0")
    for rule in client.application.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in spec["paths"][path], f"{method} {rule.rule}"


@pytest.mark.parametrize("page", ["/", "/setup", "/history", "/enrol", "/readers"])
def test_pages_render(client: FlaskClient, page: str) -> None:
    assert client.get(page).status_code == 200


def test_demo_endpoints(service: TableService) -> None:
    demo = DemoPlayer(service)
    client = create_app(service=service, token=TOKEN, simulated=True, demo=demo).test_client()
    assert client.post("/api/demo/pause", json={}, headers=AUTH).get_json()["paused"] is True
    assert client.get("/api/demo").get_json()["paused"] is True
    assert client.post("/api/demo/resume", json={}, headers=AUTH).get_json()["paused"] is False


def test_mock_zones_make_a_virtual_table(service: TableService) -> None:
    client = create_app(service=service, token=TOKEN, simulated=True).test_client()
    placed = client.post("/api/sim/base-1/place", json={"uid": "b1"}, headers=AUTH).get_json()
    assert placed == {"zone": "base-1", "uid": "B1", "card": "munchkin/treehouse"}
    listed = client.get("/api/sim/cards", headers=AUTH).get_json()["cards"]
    cards = {c["uid"]: c for c in listed}
    assert cards["B1"]["zone"] == "base-1" and cards["TC"]["zone"] is None
    # a viewer: only what lies on the table, by handle, never a uid
    (watched,) = client.get("/api/sim/cards").get_json()["cards"]
    assert watched["zone"] == "base-1" and watched["card"] == "munchkin/treehouse"
    assert watched["uid"] not in cards
    assert client.post("/api/sim/base-1/lift", json={}, headers=AUTH).get_json()["lifted"] == "B1"
    assert client.post("/api/sim/base-1/lift", json={}, headers=AUTH).get_json()["lifted"] is None


def test_the_token_file_is_made_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "secrets" / "token"
    token = load_or_create_token(path)
    assert len(token) >= 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_token(path) == token
    path.chmod(0o644)
    assert load_or_create_token(path) == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(ValueError):
        create_app(service=None, token="")  # type: ignore[arg-type]


def test_a_munchkin_cthulhu_game_from_the_setup_api(client) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import AUTH

    players = [
        {"name": "Ann", "colour": "#d62728", "sex": "female"},
        {"name": "Ben", "colour": "#1f77b4", "sex": "male"},
        {"name": "Cat", "colour": "#2ca02c", "sex": "female"},
    ]
    bad = client.post(
        "/api/games",
        json={"game": "munchkin-cthulhu", "players": [{**players[0], "sex": "x"}, *players[1:]]},
        headers=AUTH,
    )
    assert bad.status_code == 400 and "female" in bad.get_json()["error"]
    few = client.post(
        "/api/games", json={"game": "munchkin-cthulhu", "players": players[:2]}, headers=AUTH
    )
    assert few.status_code == 400 and "3 to 6" in few.get_json()["error"]
    playing = client.get("/api/state").get_json()["game_id"]
    started = client.post(
        "/api/games",
        json={"game": "munchkin-cthulhu", "players": players, "replace": playing},
        headers=AUTH,
    )
    assert started.status_code == 201
    assert started.get_json()["zones"][:5] == ["seat-1", "seat-2", "seat-3", "combat", "discard"]
    state = client.get("/api/state").get_json()
    assert state["state"]["game"] == "munchkin-cthulhu"
    assert [p["level"] for p in state["state"]["players"]] == [1, 1, 1]
    assert state["colours"]["Ben"] == "#1f77b4"
    names = {c["id"]: c["name"] for c in client.get("/api/cards").get_json()["cards"]}
    assert names["munchkin-cthulhu/grape-old-ones"] == "Grape Old Ones"
    unknown = client.post("/api/games", json={"game": "chess", "players": players}, headers=AUTH)
    assert unknown.status_code == 400


def test_starting_a_game_while_one_is_on_asks_first_then_voids_it_saying_who(
    client: FlaskClient, service: TableService
) -> None:
    playing = service.live.game_id
    seated = list(service.live.game.state.header.players)
    asked = client.post("/api/games", json={"players": PLAYERS}, headers=AUTH)
    assert asked.status_code == 409
    assert asked.get_json()["in_progress"] == {"game_id": playing, "players": seated}
    assert "ends it unfinished (void)" in asked.get_json()["error"]
    assert service.live.game_id == playing and service.store.log.game(playing).ended is None
    wrong = client.post("/api/games", json={"players": PLAYERS, "replace": 999}, headers=AUTH)
    assert wrong.status_code == 409  # naming another game confirms nothing
    started = client.post("/api/games", json={"players": PLAYERS, "replace": playing}, headers=AUTH)
    assert started.status_code == 201
    old = service.store.log.game(playing)
    assert old.void and old.ended is not None
    assert old.void_by == "a tablet at 127.0.0.1 (with the control token)"
