"""waitress's connections, sized for a table: a few tablets, a TV, some phones.

A table needs few connections, and a client on the LAN that opens many and sends nothing (or a
byte now and then) must not take them all: waitress stops accepting at its connection limit
and, by default, drops an idle connection only after two minutes.

* :class:`TableChannel`: once :data:`SHED_AT` connections are open, each new one closes the
  connection that has waited longest without a request under way (an idle keep-alive, a
  half-sent request); a request whose headers and body take longer than
  :data:`REQUEST_SECONDS` to arrive is dropped. So idle and slow clients give way to new ones
  long before the limit, and a connection that is being served (a request, an event stream)
  is never closed for them.
* :class:`JsonErrorTask`: what waitress answers itself (a body over the limit: 413, a request
  it cannot parse: 400) is JSON with our security headers, like every answer of the app.
"""

from __future__ import annotations

import json
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

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


class TableChannel(HTTPChannel):  # type: ignore[misc]  # waitress is untyped
    """One client connection (see the module's docstring)."""

    error_task_class = JsonErrorTask

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        #: when the request being received began to arrive (None: none is arriving)
        self.arriving: float | None = None
        make_room(server.active_channels.values(), keep=self)

    def received(self, data: bytes) -> bool:
        now = time.monotonic()
        if self.request is None:
            self.arriving = now
        taken: bool = super().received(data)
        if self.request is None:
            self.arriving = None
        elif self.arriving is not None and now - self.arriving > REQUEST_SECONDS:
            self.will_close = True  # a client trickling its request holds a connection
        return taken

    @property
    def idle(self) -> bool:
        """Whether nothing is being served on this connection (it may be half-received)."""
        return not self.requests and not self.total_outbufs_len and not self.will_close


def make_room(channels: Any, *, keep: Any) -> None:
    """With :data:`SHED_AT` connections or more open, close the one idle longest."""
    open_now = list(channels)
    if len(open_now) < SHED_AT:
        return
    idle = [c for c in open_now if c is not keep and getattr(c, "idle", False)]
    if idle:
        oldest = min(idle, key=lambda c: c.last_activity)
        oldest.will_close = True
