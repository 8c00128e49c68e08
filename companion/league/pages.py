"""The league's pages, made to be read on a store's TV across the room: standings, recent
games with their VP charts, faction statistics and a player's history. They refresh
themselves, so a board left open follows the night.
"""

from __future__ import annotations

from flask import Blueprint, request
from flask import render_template as render
from markupsafe import Markup

from companion.league import admin, queries
from companion.league.bodies import GameAnswer
from companion.league.charts import rating_chart, vp_chart
from companion.league.database import using
from companion.league.webio import pool

bp = Blueprint("league_pages", __name__)

REFRESH_S = 20  #: the board reloads itself this often
RECENT = 8  #: games on the recent games page


@bp.get("/")
def standings() -> str:
    with using(pool()) as conn:
        season = admin.find_season(conn, request.args.get("season"))
        table = queries.standings(conn, season.id)
        recent = queries.games(conn, season.id, limit=5)
        all_seasons = admin.seasons(conn)
    return render(
        "standings.html",
        season=season,
        seasons=all_seasons,
        standings=table,
        recent=recent,
        refresh=REFRESH_S,
    )


@bp.get("/games")
def games() -> str:
    with using(pool()) as conn:
        season = admin.find_season(conn, request.args.get("season"))
        found = queries.games(conn, season.id, limit=RECENT)
    charts = {g["id"]: _vp_chart(g) for g in found}
    return render("games.html", season=season, games=found, charts=charts, refresh=REFRESH_S)


@bp.get("/games/<uid>")
def game(uid: str) -> str:
    with using(pool()) as conn:
        found = queries.game(conn, uid)
    return render("game.html", game=found, chart=_vp_chart(found), refresh=None)


@bp.get("/factions")
def factions() -> str:
    with using(pool()) as conn:
        season = admin.find_season(conn, request.args.get("season"))
        stats = queries.faction_stats(conn, season.id)
    return render("factions.html", season=season, refresh=REFRESH_S, **stats)


@bp.get("/players/<name>")
def player(name: str) -> str:
    with using(pool()) as conn:
        found = queries.player(conn, name)
        season = admin.current_season(conn)
        table = queries.standings(conn, season.id)
    standing = next((row for row in table if row["player"] == found["player"]), None)
    ordinals = [  # ratings start afresh each season: chart this one's
        g["rating_after"]["ordinal"]
        for g in reversed(found["games"])
        if g["rating_after"] and g["season"] == season.name
    ]
    chart = Markup(rating_chart(found["player"], ordinals)) if ordinals else None
    return render(
        "player.html",
        player=found,
        chart=chart,
        season=season,
        standing=standing,
        players=len(table),
        refresh=REFRESH_S,
    )


def _vp_chart(game: GameAnswer) -> Markup:
    names = [seat["name"] for seat in game["seats"]]
    timeline = [dict(point) for point in game["timeline"]]
    return Markup(vp_chart(names, timeline, f"VP over time, game {game['id']}"))
