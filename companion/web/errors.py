"""JSON errors: ``{"error": "what is wrong and what to do"}`` with the contract's status codes.

Views raise :class:`ApiError` (or let a companion exception through: a refused line is a 409);
every answer under ``/api`` is JSON, even Werkzeug's own 404 and 405.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.errors import InvalidLine, Rejected, StoreError
from companion.table.enrol import EnrolError
from companion.table.pairing import PairingError, PairingUnknown, TooManyPairings


class ApiError(Exception):
    """A request the API refuses; ``status`` is the HTTP status, the message says what to do."""

    status = 400

    def __init__(
        self, message: str, status: int | None = None, *, extra: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status
        #: more of the answer's JSON, beside ``error``, for a page to act on
        self.extra = extra or {}


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class NotFound(ApiError):
    status = 404


class Conflict(ApiError):
    status = 409


class Unavailable(ApiError):
    status = 503


def error_response(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> tuple[Response, int]:
        return jsonify(error=str(exc), **exc.extra), exc.status

    @app.errorhandler(Rejected)
    def rejected(exc: Rejected) -> tuple[Response, int]:
        return error_response(str(exc), 409)

    @app.errorhandler(InvalidLine)
    def invalid(exc: InvalidLine) -> tuple[Response, int]:
        return error_response(str(exc), 400)

    @app.errorhandler(EnrolError)
    def enrol_error(exc: EnrolError) -> tuple[Response, int]:
        return error_response(str(exc), 400)

    @app.errorhandler(PairingError)
    def pairing_error(exc: PairingError) -> tuple[Response, int]:
        status = 404 if isinstance(exc, PairingUnknown) else 409
        if isinstance(exc, TooManyPairings):
            status = 429
        response, _ = error_response(str(exc), status)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response, status

    @app.errorhandler(StoreError)
    def store_error(exc: StoreError) -> tuple[Response, int]:
        return error_response(f"the game store cannot answer: {exc}", 503)

    @app.errorhandler(HTTPException)
    def http_error(
        exc: HTTPException,
    ) -> Response | HTTPException | tuple[Response, int] | tuple[str, int]:
        if exc.code == 413:
            limit = current_app.config["MAX_CONTENT_LENGTH"]
            return error_response(
                f"the request is too large; the table takes at most {limit} bytes", 413
            )
        if not request.path.startswith("/api/"):
            if exc.code == 404:  # a page of ours, sized for a phone, not the server's bare one
                return render_template("notfound.html", path=request.path), 404
            return exc
        return error_response(exc.description or exc.name, exc.code or 500)
