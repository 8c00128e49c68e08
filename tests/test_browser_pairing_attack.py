"""A page on another site tries to ask the table to pair through a player's browser (issue 22):
``fetch(..., {mode: "no-cors"})`` with a ``text/plain`` body, which a browser sends without
asking first. In Debian's Chromium, against the real server: the request reaches the table
(the access log has it) and is refused, and no window opens."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.test_browser_first_run import FirstRun, first_run  # noqa: F401 (the fixture)

ATTACK = """<!doctype html><title>a game's rules, and something else</title><script>
window.tried = Promise.all(["/api/pairing", "/api/games"].map((path) =>
  fetch("{table}" + path, {{method: "POST", mode: "no-cors",
    headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{players: []}})}})
    .then(() => "sent", (error) => String(error))));
</script>"""


@pytest.fixture
def elsewhere(first_run: FirstRun) -> Iterator[str]:  # noqa: F811
    """Another site: a page served from another origin (localhost, another port)."""
    page = ATTACK.format(table=first_run.url).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # shutdown() waits for the loop to look at its flag: every 0.5 s by default
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_page_elsewhere_cannot_ask_to_pair(
    page: Any,
    first_run: FirstRun,  # noqa: F811
    elsewhere: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="companion.access")
    games = len(first_run.store.log.games())
    page.goto(elsewhere)
    assert page.evaluate("window.tried") == ["sent", "sent"]  # opaque answers: sent, unread
    logged = [r.getMessage() for r in caplog.records if r.name == "companion.access"]
    for path in ("/api/pairing", "/api/games"):
        line = next(line for line in logged if f'"POST {path}"' in line)
        assert line.split()[3] == "403", line  # it reached the table, which refused it
    assert not first_run.service.pairing.waiting
    assert len(first_run.store.log.games()) == games
