"""The tablet dashboard's server: a Flask application factory with the running table injected.

Views only adapt HTTP to :class:`companion.service.TableService` and back; the service owns the
game. Viewing is open; every state-changing request needs the table's control token in the
``X-Companion-Token`` header.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError
from companion.service import TableService
from companion.tracker import Rejected

TOKEN_HEADER = "X-Companion-Token"


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with a 4xx/5xx status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    service: TableService,
    token: str,
    simulated: bool = False,
) -> Flask:
    app = Flask(__name__)
    app.config.update(TOKEN=token, SIMULATED=simulated, SSE_PING_SECONDS=15.0)
    if config:
        app.config.update(config)
    app.extensions["table"] = service

    from web import api, events, readers, sim

    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(readers.bp)
    app.register_blueprint(sim.bp)

    @app.before_request
    def check_token() -> None:
        g.table = service
        if request.method in ("POST", "PUT", "PATCH", "DELETE"):
            sent = request.headers.get(TOKEN_HEADER, "")
            if not sent:
                raise ApiError(
                    401,
                    f"this needs the table's control token in {TOKEN_HEADER}; "
                    "`companion token` prints it",
                )
            if not hmac.compare_digest(sent.encode(), app.config["TOKEN"].encode()):
                raise ApiError(401, "wrong control token; `companion token` prints the right one")

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Any:
        return jsonify(error=error.message), error.status

    @app.errorhandler(Rejected)
    def rejected(error: Rejected) -> Any:
        return jsonify(error=str(error)), 409

    @app.errorhandler(CompanionError)
    def refused(error: CompanionError) -> Any:
        return jsonify(error=str(error)), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        return jsonify(error=error.description or error.name), error.code or 500

    return app


def table() -> TableService:
    service: TableService = g.table
    return service


def json_body() -> dict[str, Any]:
    """The request's JSON object. :raises ApiError: 400 for anything else."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "send a JSON object (Content-Type: application/json)")
    return data
