"""Pairing a tablet at the table: ask, press the End-turn button, collect a token.

The pairing id travels in request bodies only (never in an address), and these are the only
POSTs a tablet without a token may make (see :mod:`companion.web.auth`).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.table.pairing import WINDOW_SECONDS
from companion.web.auth import HEADER
from companion.web.body import json_body, need
from companion.web.table import table

bp = Blueprint("pairing", __name__, url_prefix="/api/pairing")

PRESS = "Press the table's End-turn button within {seconds} s."


@bp.get("")
def status() -> Response:
    """Whether this table can pair by its button, whether a tablet is waiting now, and whether
    the token this request carries (if any) still controls the table."""
    running = table()
    given = request.headers.get(HEADER, "")
    return jsonify(
        button="end-turn" in running.service.feedback.buttons,
        waiting=running.service.pairing.waiting,
        seconds=int(WINDOW_SECONDS),
        controls=bool(given) and running.allows(given),
    )


@bp.post("")
def ask() -> tuple[Response, int]:
    """Open a pairing window for this tablet; only it learns the pairing id."""
    window = table().service.pairing.ask(request.remote_addr or "")
    seconds = round(window.closes - window.opened)
    return jsonify(
        pairing=window.pairing_id, seconds=seconds, message=PRESS.format(seconds=seconds)
    ), 201


@bp.post("/claim")
def claim() -> Response:
    """Where this tablet's request stands; once the button was pressed, its token (once)."""
    pairing_id = need(json_body(), "pairing", str, "the pairing id the request to pair gave")
    found = table().service.pairing.claim(pairing_id)
    if found.state == "granted":
        return jsonify(state="granted", token=found.token)
    if found.state == "expired":
        return jsonify(
            state="expired",
            message="Nobody pressed the End-turn button in time; tap Ask to control to try again.",
        )
    return jsonify(state="waiting", seconds_left=found.seconds_left)


@bp.post("/cancel")
def cancel() -> Response:
    pairing_id = need(json_body(), "pairing", str, "the pairing id the request to pair gave")
    table().service.pairing.cancel(pairing_id)
    return jsonify(state="cancelled")
