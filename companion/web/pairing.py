"""Pairing a tablet at the table: ask, hold the End-turn button down, collect a token.

The pairing id travels in request bodies only (never in an address), and these are the only
POSTs a tablet without a token may make (see :mod:`companion.web.auth`); like every POST they
must be JSON from the table's own page (:mod:`companion.web.writes`). Only the address that
asked may claim or cancel its window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, jsonify, request

from companion.table.pairing import HOLD_SECONDS, WINDOW_SECONDS
from companion.web.auth import HEADER
from companion.web.bodies import NoBody, PairingAsked, PairingBody, PairingState
from companion.web.body import read
from companion.web.table import table

if TYPE_CHECKING:  # mypy holds the views to them; only /api/openapi.json loads them
    from companion.web.answers import PairingStatus

bp = Blueprint("pairing", __name__, url_prefix="/api/pairing")

PRESS = (
    "Check that the table beeps this code (groups of beeps: {spoken}), then hold its End-turn "
    "button down for {hold:g} s within {seconds} s."
)
EXPIRED = "Nobody held the End-turn button down in time; tap Ask to control to try again."
NO_BUTTON = (
    "This table has no End-turn button to pair with. To control it from this tablet, run "
    "`companion token` on the machine running the table and scan the QR code it shows."
)


@bp.get("")
def status() -> Response:
    """Whether this table can pair by its button, whether a tablet is waiting now, and whether
    the token this request carries (if any) still controls the table."""
    running = table()
    given = request.headers.get(HEADER, "")
    button = "end-turn" in running.service.feedback.buttons
    answer: PairingStatus = {
        "button": button,
        "waiting": running.service.pairing.waiting,
        "seconds": int(WINDOW_SECONDS),
        "hold_seconds": HOLD_SECONDS,
        "controls": bool(given) and running.allows(given),
        "message": None if button else NO_BUTTON,
    }
    return jsonify(answer)


@bp.post("")
def ask() -> tuple[Response, int]:
    """Open a pairing window for this tablet; only it learns the pairing id and the code."""
    read(NoBody)  # nothing to read, but it must be JSON (writes): no form from another site
    window = table().service.pairing.ask(request.remote_addr or "")
    seconds = round(window.closes - window.opened)
    spoken = "-".join(str(digit) for digit in window.code)
    asked: PairingAsked = {
        "pairing": window.pairing_id,
        "code": list(window.code),
        "seconds": seconds,
        "message": PRESS.format(spoken=spoken, hold=HOLD_SECONDS, seconds=seconds),
    }
    return jsonify(asked), 201


@bp.post("/claim")
def claim() -> Response:
    """Where this tablet's request stands; once the button was pressed, its token (once)."""
    pairing_id = read(PairingBody)["pairing"]
    found = table().service.pairing.claim(pairing_id, request.remote_addr or "")
    answer: PairingState = {"state": "waiting", "seconds_left": found.seconds_left}
    if found.state == "granted" and found.token is not None:
        answer = {"state": "granted", "token": found.token}
    elif found.state == "expired":
        answer = {"state": "expired", "message": EXPIRED}
    return jsonify(answer)


@bp.post("/cancel")
def cancel() -> Response:
    pairing_id = read(PairingBody)["pairing"]
    table().service.pairing.cancel(pairing_id, request.remote_addr or "")
    cancelled: PairingState = {"state": "cancelled"}
    return jsonify(cancelled)
