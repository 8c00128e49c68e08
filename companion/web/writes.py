"""What every state-changing request must be: JSON, sent by the table's own page.

* Its body is ``application/json`` (415 otherwise), a JSON object or empty (400 otherwise).
  A form or a ``text/plain`` body is what a page on another site may send without the browser
  asking first (no CORS preflight), so a page elsewhere cannot change the table through a
  tablet's browser, nor ask to pair.
* When the browser says where the request comes from (``Sec-Fetch-Site``, ``Origin``), that is
  this table's own page (403 otherwise). Tools such as curl say nothing and are not refused.
* A request no route takes (an unknown path, TRACE, a made-up method) gets its 404 or 405, not
  the token check's 401: these checks and the token's wait for a route.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, request

from companion.web.body import json_body
from companion.web.errors import ApiError

#: methods that change nothing (every other one needs JSON, and a token: see auth)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: what ``Sec-Fetch-Site`` says of a request from our own page (``none``: typed or bookmarked)
OWN_SITE = frozenset({"same-origin", "none"})


class UnsupportedMediaType(ApiError):
    status = 415


class Forbidden(ApiError):
    status = 403


def init_app(app: Flask) -> None:
    @app.before_request
    def check_write() -> None:
        if request.method in SAFE_METHODS or request.routing_exception is not None:
            return
        check_own_page()
        if request.mimetype != "application/json":
            given = request.mimetype or "none"
            raise UnsupportedMediaType(
                "send the body as JSON, with the header Content-Type: application/json "
                f"(this request's content type is {given})"
            )
        json_body()  # a JSON object (or nothing), even for a view that reads no field


def check_own_page() -> None:
    """:raises Forbidden: the browser says the request comes from another page than ours."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site.lower() not in OWN_SITE:
        raise Forbidden(
            f"a page on another site ({site}) may not change this table: use the table's own page"
        )
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
        raise Forbidden(
            f"a page from {origin} may not change this table: use the table's own page "
            f"(http://{request.host}/)"
        )
