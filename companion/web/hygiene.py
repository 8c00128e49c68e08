"""HTTP hygiene: the headers every answer carries, and the Host names the table answers to.

The page loads nothing but its own files (no inline script or style, no frames), so the
Content-Security-Policy can forbid everything else. A Host header the table does not serve is
refused: a web page elsewhere that points its own name at the table's address (DNS
rebinding) must not read the table through a tablet's browser.
"""

from __future__ import annotations

from flask import Flask, Response, request

from companion.web.errors import ApiError

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
SERVED_HOSTS = "SERVED_HOSTS"
"""The app's config key for the host names it answers to (set by the server once it knows
its address; an app without it, as in Flask's test client, answers any)."""


class MisdirectedRequest(ApiError):
    status = 421


def host_name(host: str) -> str:
    """``host`` of a Host header without its port: ``[::1]:8080`` -> ``::1``."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0].lower()
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


def init_app(app: Flask) -> None:
    @app.before_request
    def check_host() -> None:
        served = app.config.get(SERVED_HOSTS)
        if served is None:
            return
        if host_name(request.host) not in served:
            names = ", ".join(sorted(served))
            raise MisdirectedRequest(
                f"this table does not answer to the name {request.host!r}; "
                f"open it by one of its own: {names}"
            )

    @app.after_request
    def secure_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
