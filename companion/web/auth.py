"""Viewing is open; every state-changing request carries the table's control token, and so
does every look at what is hidden from viewers (a tag's card, a face-down card)."""

from __future__ import annotations

import hmac

from flask import Flask, request

from companion.web.errors import Unauthorized
from companion.web.table import table

HEADER = "X-Companion-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def init_app(app: Flask) -> None:
    @app.before_request
    def check_token() -> None:
        if request.method not in SAFE_METHODS:
            require_token()


def has_token() -> bool:
    """Whether the request carries the right control token."""
    given = request.headers.get(HEADER)
    return given is not None and hmac.compare_digest(given.encode(), table().token.encode())


def require_token() -> None:
    """:raises Unauthorized: the request carries no control token, or a wrong one."""
    given = request.headers.get(HEADER)
    if not given:
        raise Unauthorized(
            f"this needs the table's control token in the {HEADER} header; "
            "`companion token` prints it"
        )
    if not has_token():
        raise Unauthorized(
            "wrong control token; scan the table's QR code again (`companion token` prints it)"
        )
