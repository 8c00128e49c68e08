"""Past and current games: their scorings, VP over time (replayed from the log), and stats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, render_template

from companion.errors import StoreError
from companion.storage.history import faction_pair_stats
from companion.web.chart import vp_chart
from companion.web.errors import NotFound
from companion.web.replay import GameHistory, replay, summary
from companion.web.table import table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import GamesAnswer

bp = Blueprint("history", __name__)


@bp.get("/history")
def page() -> str:
    return render_template("history.html")


@bp.get("/history/<int:game_id>")
def game_page(game_id: int) -> str:
    load(game_id)
    return render_template("game.html", game_id=game_id)


@bp.get("/api/games")
def games() -> Response:
    running = table()
    current = running.game_id
    answer: GamesAnswer = {
        "games": [summary(r, current) for r in running.service.store.log.games()]
    }
    return jsonify(answer)


@bp.get("/api/games/<int:game_id>")
def game(game_id: int) -> Response:
    return jsonify(load(game_id).document())


@bp.get("/history/<int:game_id>/vp.svg")
def chart(game_id: int) -> Response:
    response = Response(vp_chart(load(game_id)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/api/stats")
def stats() -> Response:
    return jsonify(faction_pairs=faction_pair_stats(table().service.store.log.games()))


def load(game_id: int) -> GameHistory:
    running = table()
    store = running.service.store
    try:
        record = store.log.game(game_id)
    except StoreError:
        raise NotFound(f"there is no game {game_id}; see /api/games") from None
    history = replay(record, store.log.entries(game_id), running.service.catalogue)
    history.current = game_id == running.game_id
    return history
