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
            "This tablet is only watching: to play from it, tap Ask to control, or scan the "
            "table's control QR code (the control token)."
        )
    if not has_token():
        raise Unauthorized(
            "This tablet's control has ended (its control token is not, or no longer, valid): "
            "tap Ask to control, or scan the table's control QR code again."
        )
