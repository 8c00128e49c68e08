"""Viewing is open; every state-changing request carries the table's control token."""

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
        if request.method in SAFE_METHODS:
            return
        given = request.headers.get(HEADER)
        if not given:
            raise Unauthorized(
                f"this needs the table's control token in the {HEADER} header; "
                "`companion token` prints it"
            )
        expected = table().token
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise Unauthorized(
                "wrong control token; scan the table's QR code again (`companion token` prints it)"
            )
