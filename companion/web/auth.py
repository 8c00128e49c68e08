"""Viewing is open; every state-changing request carries the table's control token or a
paired tablet's token, except asking to pair (which is how a tablet gets one). So does every
look at what viewers may not see: a tag's card, the truth about face-down cards."""

from __future__ import annotations

from flask import Flask, request

from companion.web.errors import Unauthorized
from companion.web.table import table
from companion.web.writes import SAFE_METHODS

HEADER = "X-Companion-Token"
#: the views a tablet without a token may POST to: asking to pair, and collecting the token
OPEN_VIEWS = frozenset({"pairing.ask", "pairing.claim", "pairing.cancel"})


def init_app(app: Flask) -> None:
    @app.before_request
    def check_token() -> None:
        if request.method in SAFE_METHODS or request.endpoint in OPEN_VIEWS:
            return
        if request.routing_exception is not None:  # no such route: its 404 or 405 says so
            return
        require_token()


def has_token() -> bool:
    """Whether the request carries the control token or a paired tablet's."""
    given = request.headers.get(HEADER)
    return bool(given) and table().allows(str(given))


def require_token() -> None:
    """:raises Unauthorized: the request carries no valid token, saying how to get one."""
    if not request.headers.get(HEADER):
        raise Unauthorized(
            f"this needs the table's control token in the {HEADER} header: tap Ask to "
            "control and press the table's End-turn button, or scan `companion token`'s QR"
        )
    if not has_token():
        raise Unauthorized(
            "this tablet's control token is not (or no longer) valid: tap Ask to control and "
            "press the table's End-turn button, or scan `companion token`'s QR code again"
        )
