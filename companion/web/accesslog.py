"""The access log, written by us (WSGI middleware) whatever server runs the app, with the
control token redacted: a ``?token=`` address must not put the token in the journal."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger("companion.access")

_TOKEN = re.compile(r"(^|&)(token=)[^&]*", re.IGNORECASE)
REDACTED = "[redacted]"

#: the page's own files: a line each would bury the requests that matter (one page load asks
#: for some twenty), so they are logged at DEBUG, unless they fail
QUIET_PREFIXES = ("/static/", "/icons/", "/manifest.webmanifest", "/favicon")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def redact(query: str) -> str:
    """``query`` with the value of every ``token`` parameter replaced."""
    return _TOKEN.sub(rf"\1\2{REDACTED}", query)


class AccessLog:
    """Logs ``client "METHOD path?query" status seconds`` when each answer starts."""

    def __init__(self, app: WSGIApp, logger: logging.Logger = log) -> None:
        self.app = app
        self.log = logger
        if not logger.handlers and not logging.getLogger().handlers:
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("%(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.INFO)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.monotonic()

        def logged(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            code = status.split(" ", 1)[0]
            path = str(environ.get("PATH_INFO", ""))
            quiet = path.startswith(QUIET_PREFIXES) and code < "400"
            self.log.log(
                logging.DEBUG if quiet else logging.INFO,
                '%s "%s %s" %s %.3f',
                environ.get("REMOTE_ADDR", "-"),
                environ.get("REQUEST_METHOD", "-"),
                target(environ),
                code,
                time.monotonic() - started,
            )
            return start_response(status, headers, *rest)

        return self.app(environ, logged)


def target(environ: dict[str, Any]) -> str:
    """The request's path and redacted query, printable."""
    path = str(environ.get("PATH_INFO", ""))
    query = str(environ.get("QUERY_STRING", ""))
    shown = path + (f"?{redact(query)}" if query else "")
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")
