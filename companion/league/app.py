"""The league's Flask app: the JSON API and the pages over one connection pool per process.

Every refusal is a clear 4xx with ``{"error": "..."}`` (a page for browsers); a database that
cannot be reached is a 503 a table retries later. Nothing a client sends produces a 500.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.league import api, pages
from companion.league.database import Pool, Unavailable, connect, open_pool
from companion.league.errors import LeagueError
from companion.league.payload import MAX_PUSH_BYTES
from companion.league.schema import check_current
from companion.league.webio import POOL

log = logging.getLogger(__name__)


def create_app(conninfo: str, *, pool_size: int = 4, pool: Pool | None = None) -> Flask:
    """The app for one server process. Call it after forking: the pool opens here.

    :raises SchemaError: the database's schema is not this code's (run the migrations).
    :raises Unavailable: the database cannot be reached.
    """
    with connect(conninfo) as conn:
        check_current(conn)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_PUSH_BYTES
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[POOL] = pool or open_pool(conninfo, size=pool_size)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_error_handler(LeagueError, _league_error)
    app.register_error_handler(Unavailable, _unavailable)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
    return app


def _answer(status: int, message: str, title: str) -> tuple[Response | str, int]:
    if request.path.startswith("/api/"):
        return jsonify(error=message), status
    return render_template("error.html", status=status, title=title, message=message), status


def _league_error(exc: LeagueError) -> tuple[Response | str, int]:
    response = _answer(exc.status, str(exc), "Not here" if exc.status == 404 else "Refused")
    if exc.status == 401 and isinstance(response[0], Response):
        response[0].headers["WWW-Authenticate"] = 'Bearer realm="league"'
    return response


def _unavailable(exc: Unavailable) -> tuple[Response | str, int, dict[str, str]]:
    body, status = _answer(503, str(exc), "The league is resting")
    return body, status, {"Retry-After": "5"}


def _http_error(exc: HTTPException) -> tuple[Response | str, int]:
    status = exc.code or 400
    messages = {
        404: f"there is no {request.path} here; the API is described at /api/v1/openapi.json",
        405: f"{request.method} is not allowed on {request.path}",
        413: f"the request is larger than {MAX_PUSH_BYTES // (1024 * 1024)} MB",
    }
    return _answer(status, messages.get(status, exc.description or exc.name), exc.name)


def _unexpected(exc: Exception) -> tuple[Response | str, int]:
    # A bug of ours, never the client's input: logged with its traceback, answered briefly.
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _answer(500, "the league server failed; the error is in its log", "Server error")
