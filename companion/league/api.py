"""The league's JSON API (``/api/v1``, described in :mod:`companion.league.openapi`).

Views are thin: they check who asks and what was sent, and call the ledger and the queries.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.league import admin, ledger, queries
from companion.league.bodies import (
    FactionsAnswer,
    GamesAnswer,
    GamesQuery,
    Health,
    MergeBody,
    Merged,
    PlayerQuery,
    PlayersAnswer,
    PushAnswer,
    SeasonAnswer,
    SeasonBody,
    SeasonQuery,
    SeasonsAnswer,
    StandingsAnswer,
    TapeAnswer,
    VoidBody,
    Voided,
)
from companion.league.database import using
from companion.league.engine import TapeRefused, replay_tape
from companion.league.errors import BadRequest
from companion.league.openapi import spec
from companion.league.payload import parse_push
from companion.league.schema import version
from companion.league.webio import (
    json_body,
    pool,
    query,
    read,
    require_organiser,
    require_table,
)

bp = Blueprint("league_api", __name__, url_prefix="/api/v1")


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(spec())


@bp.get("/health")
def health() -> Response:
    with using(pool()) as conn:
        health: Health = {"ok": True, "schema": version(conn)}
    return jsonify(health)


@bp.post("/games")
def push_game() -> tuple[Response, int]:
    """A table ships a finished (or voided) game; stored once, counted if it replays true."""
    table = require_table()
    push = parse_push(json_body())
    with using(pool()) as conn:
        again = ledger.known_push(conn, push, table)
    if again is None:
        try:
            replayed = replay_tape(push.tape)
        except TapeRefused as exc:
            raise BadRequest(str(exc), 422) from None
        again = ledger.receive(pool(), table, push, replayed)
    answer: PushAnswer = {
        "id": again.id,
        "status": again.status,
        "season": again.season,
        "duplicate": again.duplicate,
        "dispute": list(again.dispute),
    }
    if again.duplicate_of is not None:
        answer["duplicate_of"] = again.duplicate_of
        answer["message"] = (
            f"this tape is stored already as game {again.duplicate_of}; it counts once, "
            f"so {push.id} was not stored"
        )
    return jsonify(answer), 200 if again.duplicate else 201


@bp.get("/games")
def list_games() -> Response:
    asked = query(GamesQuery)
    with using(pool()) as conn:
        season = admin.find_season(conn, asked.get("season"))
        found = queries.games(
            conn, season.id, limit=asked.get("limit", 20), before=asked.get("before")
        )
    answer: GamesAnswer = {"season": season.name, "games": found}
    return jsonify(answer)


@bp.get("/games/<uid>")
def one_game(uid: str) -> Response:
    with using(pool()) as conn:
        return jsonify(queries.game(conn, uid))


@bp.get("/games/<uid>/tape")
def game_tape(uid: str) -> Response:
    with using(pool()) as conn:
        answer: TapeAnswer = {"tape": queries.tape(conn, uid)}
    return jsonify(answer)


@bp.post("/games/<uid>/void")
def void(uid: str) -> Response:
    require_organiser()
    reason = read(VoidBody, 'the body is {"reason": "why the game does not count"}').get("reason")
    previous = ledger.void_game(pool(), uid, reason or "")
    voided: Voided = {"id": uid, "status": "void", "was": previous}
    return jsonify(voided)


@bp.get("/standings")
def standings() -> Response:
    with using(pool()) as conn:
        season = admin.find_season(conn, query(SeasonQuery).get("season"))
        answer: StandingsAnswer = {
            "season": season.name,
            "standings": queries.standings(conn, season.id),
        }
    return jsonify(answer)


@bp.get("/factions")
def factions() -> Response:
    with using(pool()) as conn:
        season = admin.find_season(conn, query(SeasonQuery).get("season"))
        stats = queries.faction_stats(conn, season.id)
    answer: FactionsAnswer = {"season": season.name, **stats}
    return jsonify(answer)


@bp.get("/players")
def players() -> Response:
    with using(pool()) as conn:
        found: PlayersAnswer = {"players": queries.players(conn)}
    return jsonify(found)


@bp.get("/players/<name>")
def player(name: str) -> Response:
    limit = query(PlayerQuery).get("limit", 100)
    with using(pool()) as conn:
        return jsonify(queries.player(conn, name, limit=limit))


@bp.post("/players/merge")
def merge() -> Response:
    require_organiser()
    names = read(MergeBody, 'the body is {"from": "...", "into": "..."}')
    kept = ledger.merge_players(pool(), names["from"], names["into"])
    merged: Merged = {"merged": names["from"], "into": kept}
    return jsonify(merged)


@bp.get("/seasons")
def seasons() -> Response:
    with using(pool()) as conn:
        found = admin.seasons(conn)
    answer: SeasonsAnswer = {
        "seasons": [{"name": s.name, "started": s.started.isoformat()} for s in found],
        "current": found[-1].name if found else None,
    }
    return jsonify(answer)


@bp.post("/seasons")
def new_season() -> tuple[Response, int]:
    require_organiser()
    name = read(SeasonBody, 'the body is {"name": "..."}')["name"]
    with using(pool()) as conn:
        season = admin.start_season(conn, name)
    started: SeasonAnswer = {"name": season.name, "started": season.started.isoformat()}
    return jsonify(started), 201
