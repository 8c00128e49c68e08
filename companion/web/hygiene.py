"""What every answer and request gets: security headers, the Host check and the body limit.

* Pages load only our own scripts and styles (no inline scripts), may not be framed, and send
  no referrer (a page address may carry the control token).
* A request for a host the table is not served under is refused (DNS rebinding).
* A body over ``MAX_CONTENT_LENGTH`` is refused before any view runs, read or not.
"""

from __future__ import annotations

from flask import Flask, Response, request

from companion.web.errors import ApiError

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
#: only where the browser takes it: on a plain-http LAN address (not a trustworthy origin)
#: Chromium ignores it and logs an error on every page
OPENER_POLICY = {"Cross-Origin-Opener-Policy": "same-origin"}
TRUSTWORTHY_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class MisdirectedRequest(ApiError):
    status = 421


class TooLarge(ApiError):
    status = 413


def init_app(app: Flask) -> None:
    @app.before_request
    def check_host_and_size() -> None:
        allowed = app.config.get("ALLOWED_HOSTS")
        given = requested_host(request.host)
        if allowed is not None and given not in allowed:
            raise MisdirectedRequest(
                f"this table is not served as {given!r}: open it by one of its names "
                f"({', '.join(sorted(allowed))})"
            )
        limit = app.config["MAX_CONTENT_LENGTH"]
        if request.content_length is not None and request.content_length > limit:
            raise TooLarge(
                f"the request is too large ({request.content_length} bytes); the table takes "
                f"at most {limit} bytes"
            )

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure or requested_host(request.host) in TRUSTWORTHY_HOSTS:
            for name, value in OPENER_POLICY.items():
                response.headers.setdefault(name, value)
        return response


def requested_host(header: str) -> str:
    """The host part of a ``Host`` header, without its port, lower case: ``[::1]:8080`` is
    ``::1``, ``Table.local.:80`` is ``table.local``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")
