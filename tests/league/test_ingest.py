"""Pushing games into a real PostgreSQL through the app: stored once, conflicts refused,
disputed and voided results not counted, ratings as games arrive equal to from scratch."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.league.admin import revoke_table
from companion.league.database import Connection
from companion.league.ledger import rerate_season
from companion.league.ratings import RatedGame, rerate
from tests.league.games import push, seat_names


def send(league_client: FlaskClient, key: str, body: Any) -> Any:
    return league_client.post(
        "/api/v1/games", json=body, headers={"Authorization": f"Bearer {key}"}
    )


def stored(db: Connection) -> list[dict[str, Any]]:
    return db.execute("SELECT uid, status, dispute FROM games ORDER BY id").fetchall()


def test_a_game_sent_twice_is_stored_once(
    league_client: FlaskClient, table_key: str, db: Connection
) -> None:
    first = send(league_client, table_key, push(1))
    assert first.status_code == 201, first.json
    assert first.json["status"] == "counted" and first.json["duplicate"] is False
    again = send(league_client, table_key, push(1))
    assert again.status_code == 200
    assert again.json == {**first.json, "duplicate": True}
    assert [row["uid"] for row in stored(db)] == ["game-1"]
    assert db.execute("SELECT count(*) AS n FROM game_seats").fetchone()["n"] == len(
        seat_names(push(1))
    )


def test_the_same_tape_under_a_new_id_is_a_duplicate_of_the_stored_game(
    league_client: FlaskClient, table_key: str, other_key: str, db: Connection
) -> None:
    """A table restored from a backup (or a second push with a fresh id) sends a game the
    league already has: it is answered as a duplicate of that game, by name, and counted once
    (issue 22, 7), whichever table sends it and however its JSON is spelled."""
    first = send(league_client, table_key, push(1))
    standings = league_client.get("/api/v1/standings").json["standings"]
    for key, game_id in ((table_key, "restored-1"), (other_key, "elsewhere-9")):
        again = send(league_client, key, push(1, game_id=game_id))
        assert again.status_code == 200, again.json
        assert again.json["duplicate"] is True and again.json["duplicate_of"] == "game-1"
        assert again.json["id"] == game_id and again.json["status"] == first.json["status"]
        assert "game-1" in again.json["message"]
    assert [row["uid"] for row in stored(db)] == ["game-1"]
    assert league_client.get("/api/v1/standings").json["standings"] == standings
    ratings = db.execute("SELECT count(*) AS n FROM rating_changes").fetchone()["n"]
    assert ratings == len(seat_names(push(1)))


def test_another_tape_under_a_stored_id_is_a_conflict(
    league_client: FlaskClient, table_key: str, db: Connection
) -> None:
    send(league_client, table_key, push(1))
    other = send(league_client, table_key, push(2, game_id="game-1"))
    assert other.status_code == 409
    assert "different tape" in other.json["error"]
    tape = db.execute("SELECT tape FROM games WHERE uid = 'game-1'").fetchone()["tape"]
    assert tape == push(1)["tape"]


def test_another_table_sending_a_stored_id_is_a_conflict(
    league_client: FlaskClient, table_key: str, other_key: str
) -> None:
    send(league_client, table_key, push(1))
    answer = send(league_client, other_key, push(1))
    assert answer.status_code == 409 and "'kitchen'" in answer.json["error"]


def test_a_disputed_result_is_stored_but_not_counted(
    league_client: FlaskClient, table_key: str, db: Connection
) -> None:
    honest = push(1, "Ann", "Ben", "Cat")
    cheat = push(2, "Ann", "Ben", "Cat")
    loser = next(n for n in seat_names(cheat) if n not in cheat["claimed"]["winners"])
    cheat["claimed"]["vp"][loser] += 20
    send(league_client, table_key, honest)
    answer = send(league_client, table_key, cheat)
    assert answer.status_code == 201 and answer.json["status"] == "disputed"
    assert any(f"{loser}: the table says" in reason for reason in answer.json["dispute"])
    standings = league_client.get("/api/v1/standings").json["standings"]
    assert {row["player"]: row["games"] for row in standings} == {"Ann": 1, "Ben": 1, "Cat": 1}
    game = league_client.get("/api/v1/games/game-2").json
    assert game["status"] == "disputed" and all(s["rating"] is None for s in game["seats"])


def test_a_tape_that_stops_replaying_is_disputed_with_its_line(
    league_client: FlaskClient, table_key: str
) -> None:
    body = push(1)
    body["tape"].insert(3, {"tap": "04FFFFFFFFFFFF", "zone": "base-9"})
    answer = send(league_client, table_key, body)
    assert answer.status_code == 201 and answer.json["status"] == "disputed"
    assert answer.json["dispute"][0].startswith("the tape does not replay: line 4")


def test_a_voided_game_is_kept_and_not_counted(league_client: FlaskClient, table_key: str) -> None:
    body = push(1)
    body["tape"] = body["tape"][:40]
    body["status"] = "void"
    del body["claimed"]
    answer = send(league_client, table_key, body)
    assert answer.status_code == 201 and answer.json["status"] == "void"
    assert league_client.get("/api/v1/standings").json["standings"] == []


def test_guests_play_but_are_not_league_players(league_client: FlaskClient, table_key: str) -> None:
    body = push(1, "Ann", "Ben", "Zed")
    body["guests"] = ["Zed"]
    assert send(league_client, table_key, body).status_code == 201
    names = {p["name"] for p in league_client.get("/api/v1/players").json["players"]}
    assert names == {"Ann", "Ben"}
    seats = league_client.get("/api/v1/games/game-1").json["seats"]
    assert [s["guest"] for s in seats if s["name"] == "Zed"] == [True]


def test_one_person_in_two_seats_is_disputed(league_client: FlaskClient, table_key: str) -> None:
    answer = send(league_client, table_key, push(1, "Ann", "ann "))
    assert answer.status_code == 201 and answer.json["status"] == "disputed"
    assert "same league player" in answer.json["dispute"][0]


def test_a_munchkin_cthulhu_tape_is_refused(league_client: FlaskClient, table_key: str) -> None:
    body = push(1)
    body["tape"] = [{"tape": 1, "game": "munchkin-cthulhu", "players": ["A", "B", "C"]}]
    body["claimed"] = {"winners": [], "vp": {"A": 0, "B": 0, "C": 0}}
    answer = send(league_client, table_key, body)
    assert answer.status_code == 422 and "Smash Up" in answer.json["error"]


def test_pushes_need_a_working_table_key(
    league_client: FlaskClient, table_key: str, db: Connection
) -> None:
    assert league_client.post("/api/v1/games", json=push(1)).status_code == 401
    assert send(league_client, "tk_wrong", push(1)).status_code == 401
    revoke_table(db, "kitchen")
    refused = send(league_client, table_key, push(1))
    assert refused.status_code == 401 and "revoked" in refused.json["error"]
    assert stored(db) == []


def expected_ratings(db: Connection) -> dict[str, tuple[float, float]]:
    """From scratch, in Python, from the stored seats of counted games in league order."""
    rows = db.execute(
        "SELECT s.game_id, p.name, s.place FROM game_seats s JOIN games g ON g.id = s.game_id"
        " LEFT JOIN players p ON p.id = s.player_id WHERE g.status = 'counted'"
        " ORDER BY s.game_id, s.seat"
    ).fetchall()
    games: dict[int, list[tuple[str | None, int]]] = {}
    for row in rows:
        games.setdefault(row["game_id"], []).append((row["name"], row["place"]))
    final, _ = rerate(RatedGame(n, tuple(seats)) for n, seats in games.items())
    return {name: (skill.mu, skill.sigma) for name, skill in final.items()}


def served_ratings(league_client: FlaskClient) -> dict[str, tuple[float, float]]:
    rows = league_client.get("/api/v1/standings").json["standings"]
    return {r["player"]: (r["rating"]["mu"], r["rating"]["sigma"]) for r in rows}


def test_voiding_a_game_recomputes_the_ratings(
    league_client: FlaskClient, table_key: str, organiser: str, db: Connection
) -> None:
    for seed in range(1, 7):
        assert send(league_client, table_key, push(seed, "Ann", "Ben", "Cat")).status_code == 201
    before = served_ratings(league_client)
    assert before == expected_ratings(db)
    auth = {"Authorization": f"Bearer {organiser}"}
    answer = league_client.post(
        "/api/v1/games/game-2/void", json={"reason": "wrong deck"}, headers=auth
    )
    assert answer.status_code == 200 and answer.json["was"] == "counted"
    after = served_ratings(league_client)
    assert after == expected_ratings(db) and after != before
    assert sum(r["games"] for r in league_client.get("/api/v1/standings").json["standings"]) == 15
    game = league_client.get("/api/v1/games/game-2").json
    assert game["status"] == "void" and game["void_reason"] == "wrong deck"
    later = league_client.get("/api/v1/games/game-3").json["seats"]
    assert all(s["rating"] is not None for s in later)


def test_organiser_actions_need_the_organiser_token(
    league_client: FlaskClient, table_key: str, organiser: str
) -> None:
    send(league_client, table_key, push(1))
    assert league_client.post("/api/v1/games/game-1/void", json={}).status_code == 401
    wrong = {"Authorization": f"Bearer {table_key}"}
    assert (
        league_client.post("/api/v1/games/game-1/void", json={}, headers=wrong).status_code == 403
    )
    body = {"from": "Ann", "into": "Ben"}
    assert league_client.post("/api/v1/players/merge", json=body, headers=wrong).status_code == 403
    assert league_client.get("/api/v1/games/game-1").json["status"] == "counted"


def test_merging_two_spellings_moves_games_and_recomputes(
    league_client: FlaskClient, table_key: str, organiser: str, db: Connection
) -> None:
    send(league_client, table_key, push(1, "Ann", "Ben"))
    send(league_client, table_key, push(2, "anne", "Cat"))
    send(league_client, table_key, push(3, "Ann", "Cat"))
    auth = {"Authorization": f"Bearer {organiser}"}
    together = league_client.post(
        "/api/v1/players/merge", json={"from": "Ann", "into": "Cat"}, headers=auth
    )
    assert together.status_code == 409 and "two people" in together.json["error"]
    answer = league_client.post(
        "/api/v1/players/merge", json={"from": "anne", "into": "ANN"}, headers=auth
    )
    assert answer.status_code == 200 and answer.json["into"] == "Ann"
    standings = {r["player"]: r for r in league_client.get("/api/v1/standings").json["standings"]}
    assert set(standings) == {"Ann", "Ben", "Cat"} and standings["Ann"]["games"] == 3
    assert served_ratings(league_client) == expected_ratings(db)
    # a later push under the merged spelling counts for Ann
    send(league_client, table_key, push(4, "anne", "Ben"))
    assert league_client.get("/api/v1/players/anne").json["player"] == "Ann"
    assert league_client.get("/api/v1/players/Ann").json["aliases"] == ["anne"]
    assert served_ratings(league_client) == expected_ratings(db)


def test_incremental_ratings_equal_the_server_s_own_recomputation(
    league_client: FlaskClient, table_key: str, db: Connection
) -> None:
    for seed in range(1, 9):
        send(league_client, table_key, push(seed))
    changes = "SELECT * FROM rating_changes ORDER BY game_id, player_id"
    incremental = db.execute(changes).fetchall()
    with db.transaction():
        rerate_season(db, 1)
    assert db.execute(changes).fetchall() == incremental


def test_a_new_season_starts_afresh(
    league_client: FlaskClient, table_key: str, organiser: str
) -> None:
    send(league_client, table_key, push(1, "Ann", "Ben"))
    auth = {"Authorization": f"Bearer {organiser}"}
    made = league_client.post("/api/v1/seasons", json={"name": "Spring"}, headers=auth)
    assert made.status_code == 201
    assert (
        league_client.post("/api/v1/seasons", json={"name": "Spring"}, headers=auth).status_code
        == 409
    )
    answer = send(league_client, table_key, push(2, "Ann", "Ben"))
    assert answer.json["season"] == "Spring"
    spring = league_client.get("/api/v1/standings").json
    assert spring["season"] == "Spring" and all(r["games"] == 1 for r in spring["standings"])
    first = league_client.get("/api/v1/standings?season=Season 1").json["standings"]
    assert all(r["games"] == 1 for r in first)
    assert league_client.get("/api/v1/standings?season=Winter").status_code == 404
