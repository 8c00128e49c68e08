"""waitress's connections, sized for a table: a few tablets, a TV, some phones.

A table needs few connections, and a client on the LAN that opens many and sends nothing (or a
byte now and then) must not take them all: waitress stops accepting at its connection limit
and, by default, drops an idle connection only after two minutes.

* :class:`TableChannel`: once :data:`SHED_AT` connections are open, each new one closes an idle
  connection: first one that never sent a whole request (a socket opened and left, a
  half-sent request; not one whose request waits unread in its socket), the oldest first;
  failing that, a keep-alive connection that served a request and has been quiet for
  :data:`KEEP_ALIVE_GRACE` seconds (a tablet between loading
  its page and sending its next request keeps its connection). A request whose headers and
  body take longer than :data:`REQUEST_SECONDS` to arrive is dropped. So idle and slow clients
  give way to new ones long before the limit, and a connection that is being served (a
  request, an event stream) is never closed for them.
* :class:`ClosingTask`: an answer carrying :data:`CLOSE_AFTER` closes its connection once sent
  (WSGI forbids an app the ``Connection`` header): a screen turned away from the event stream
  gives its connection back instead of idling on it.
* :class:`JsonErrorTask`: what waitress answers itself (a body over the limit: 413, a request
  it cannot parse: 400) is JSON with our security headers, like every answer of the app.
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask, WSGITask

from companion.web.hygiene import HEADERS

#: waitress's connection limit, and the number of open connections from which a new one makes
#: the longest-idle connection give way
CONNECTION_LIMIT = 200
SHED_AT = 120
#: seconds a connection may stay open without a request (waitress's ``channel_timeout``), and
#: how often waitress looks for such connections (``cleanup_interval``)
IDLE_SECONDS = 30
CLEANUP_SECONDS = 5
#: seconds a request may take to arrive whole (a tablet on Wi-Fi sends a 1 MB body in less)
REQUEST_SECONDS = 10.0
#: seconds a connection that served a request is kept for its client's next one before a new
#: connection may take its place (a page sends its next request well within this)
KEEP_ALIVE_GRACE = 5.0

#: the response header by which the app asks for its connection to be closed after the answer
CLOSE_AFTER = "X-Companion-Close"

#: what waitress's own errors say, in the app's words
ERRORS = {
    400: "the request cannot be read as HTTP; send it again from the table's page",
    413: "the request is too large; the table takes at most {limit} bytes",
    431: "the request's headers are too large",
}


class JsonErrorTask(ErrorTask):  # type: ignore[misc]  # waitress is untyped
    """waitress's answer to a request it refused before the app saw it, as JSON."""

    def execute(self) -> None:
        error = self.request.error
        limit = self.channel.adj.max_request_body_size
        said = ERRORS.get(error.code, f"{error.reason}: {error.body}").format(limit=limit)
        body = json.dumps({"error": said}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", "application/json"), *HEADERS.items()])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class ClosingTask(WSGITask):  # type: ignore[misc]  # waitress is untyped
    """The app's answer, closing the connection after it when the app says so."""

    response_headers: list[tuple[str, str]]

    def build_response_header(self) -> bytes:
        wanted = CLOSE_AFTER.lower()
        if any(name.lower() == wanted for name, _ in self.response_headers):
            self.response_headers = [
                (name, value) for name, value in self.response_headers if name.lower() != wanted
            ]
            self.set_close_on_finish()
        header: bytes = super().build_response_header()
        return header


class TableChannel(HTTPChannel):  # type: ignore[misc]  # waitress is untyped
    """One client connection (see the module's docstring)."""

    task_class = ClosingTask
    error_task_class = JsonErrorTask

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        #: when the request being received began to arrive (None: none is arriving)
        self.arriving: float | None = None
        #: whether a whole request ever arrived on this connection (a client, not a squatter)
        self.served = False
        make_room(server.active_channels.values(), keep=self)

    def received(self, data: bytes) -> bool:
        now = time.monotonic()
        if self.request is None:
            self.arriving = now
        waiting = len(self.requests)
        taken: bool = super().received(data)
        if len(self.requests) > waiting:
            self.served = True
        if self.request is None:
            self.arriving = None
        elif self.arriving is not None and now - self.arriving > REQUEST_SECONDS:
            self.will_close = True  # a client trickling its request holds a connection
        return taken

    @property
    def idle(self) -> bool:
        """Whether nothing is being served on this connection (it may be half-received)."""
        return not self.requests and not self.total_outbufs_len and not self.will_close


def make_room(channels: Any, *, keep: Any, now: float | None = None) -> None:
    """With :data:`SHED_AT` connections or more open, close one idle connection: the oldest of
    those that never sent a whole request, else the oldest keep-alive quiet for
    :data:`KEEP_ALIVE_GRACE` seconds, else none (every connection is in use)."""
    open_now = list(channels)
    if len(open_now) < SHED_AT:
        return
    now = time.time() if now is None else now  # waitress keeps last_activity in time.time()
    idle = [c for c in open_now if c is not keep and getattr(c, "idle", False)]
    squatters = [c for c in idle if not getattr(c, "served", False) and not _has_unread(c)]
    quiet = [c for c in idle if now - c.last_activity >= KEEP_ALIVE_GRACE]
    candidates = squatters or quiet
    if candidates:
        oldest = min(candidates, key=lambda c: c.last_activity)
        oldest.will_close = True


def _has_unread(channel: Any) -> bool:
    """Whether bytes the client sent wait in the socket unread: its request may be whole,
    waitress has only not read it yet (a loaded Pi accepts faster than it reads). Such a
    connection is no squatter yet; a squatter's half-request was read long ago."""
    sock = getattr(channel, "socket", None)
    if sock is None:
        return False
    try:
        return bool(sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:  # nothing waits (BlockingIOError), or the socket is gone
        return False
