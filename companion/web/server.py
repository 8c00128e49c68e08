"""Serving the dashboard: waitress (pure Python, bounded threads), announced over mDNS on the
LAN (:mod:`.mdns`).

Every open event stream holds one of waitress's threads for as long as the tablet shows the
table, so the threads are sized as :data:`STREAMS` public streams, the controlling tablets'
streams (:mod:`companion.web.slots`) plus :data:`REQUEST_THREADS` for everything else, and the
app refuses a stream beyond those (503) rather than let streams starve the requests.
Connections are limited and idle ones give way (:mod:`companion.web.channel`).
The main loop is ours so that :meth:`Dashboard.stop` works from any thread and from a signal
handler; :meth:`Dashboard.close` ends the streams, waits for the threads, then closes every
socket.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
import time
from importlib import import_module
from typing import Any

from waitress import wasyncore
from waitress.server import create_server

from companion.storage.tokens import TokenFile
from companion.table.demo import DemoPlayer
from companion.table.network import table_address
from companion.table.service import TableService
from companion.web.accesslog import AccessLog
from companion.web.app import DEFAULTS, create_app
from companion.web.channel import (
    CLEANUP_SECONDS,
    CONNECTION_LIMIT,
    IDLE_SECONDS,
    TableChannel,
)
from companion.web.memory import Trimmer, bound_malloc
from companion.web.slots import CONTROL_STREAMS
from companion.web.table import EXTENSION, Table

log = logging.getLogger(__name__)
#: event streams served at once, and threads for all other requests
STREAMS = int(DEFAULTS["MAX_STREAMS"])
REQUEST_THREADS = 4
#: how long one turn of the main loop may wait for a socket (a stop wakes it at once)
LOOP_SECONDS = 1.0
#: how long closing waits for requests under way to finish
CLOSE_SECONDS = 5.0
#: a tablet that left the Wi-Fi never closes its stream: the next ping's bytes go unanswered,
#: and after this long without an acknowledgement the kernel drops the connection (and frees
#: its thread) instead of retrying for many minutes
UNACKNOWLEDGED_MS = 30_000
#: bytes a connection's output buffer holds before waitress starts a new one (and frees the old
#: once sent). waitress never trims a buffer it is still writing to, and its default (16 MB,
#: past 1 MB in a temporary file) let every event stream hold megabytes of states already sent:
#: the serving process grew by about 1 MB a second with 20 streams and two taps a second. At
#: 128 KiB the 20 streams of the soak, sent the same states, filled their buffers together and
#: dropped them together: 2.5 MB that came and went every few seconds (issue 24). A few states
#: (a whole one is 5-10 KB) fill 32 KiB; it is also how much unsent a client may fall behind
#: before its stream's thread waits for it
STREAM_BUFFER = 32 * 1024
#: bytes past which waitress moves a buffer to a temporary file (as before: far more than a
#: state or a page)
STREAM_OVERFLOW = 256 * 1024
SOCKET_OPTIONS = [
    (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
    *(
        [(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, UNACKNOWLEDGED_MS)]
        if hasattr(socket, "TCP_USER_TIMEOUT")  # Linux
        else []
    ),
]


class Dashboard:
    """The app on waitress, announced over mDNS unless on loopback."""

    def __init__(
        self,
        service: TableService,
        *,
        host: str,
        port: int,
        token: str | TokenFile,
        simulated: bool,
        demo: DemoPlayer | None = None,
        streams: int = STREAMS,
    ) -> None:
        bound_malloc()
        self.app = create_app(
            {"MAX_STREAMS": streams},
            service=service,
            token=token,
            simulated=simulated,
            demo=demo,
        )
        self._map: dict[int, Any] = {}
        try:
            self.server = create_server(
                AccessLog(self.app),
                map=self._map,
                host=host,
                port=port,
                threads=streams + CONTROL_STREAMS + REQUEST_THREADS,
                connection_limit=CONNECTION_LIMIT,
                channel_timeout=IDLE_SECONDS,
                cleanup_interval=CLEANUP_SECONDS,
                max_request_body_size=int(self.app.config["MAX_CONTENT_LENGTH"]),
                ident="companion",
                asyncore_use_poll=True,
                outbuf_high_watermark=STREAM_BUFFER,
                outbuf_overflow=STREAM_OVERFLOW,
            )
        except OSError:  # e.g. the port is taken: what waitress opened so far is in the map
            wasyncore.close_all(self._map)
            raise
        # not a keyword of create_server: every accepted connection gets the adjustments' options
        self.server.adj.socket_options = SOCKET_OPTIONS
        self.server.channel_class = TableChannel
        self.port = _port(self.server)
        self.address = table_address(host, self.port)
        self.app.config["ALLOWED_HOSTS"] = self.address.served_names()
        self.demo = demo
        self._stopping = threading.Event()
        self._serving = threading.Lock()
        self._closed = False
        self.announcer = _mdns().announce(self.address) if self.address.on_lan else None
        if demo is not None:
            demo.start()

    @property
    def table(self) -> Table:
        return self.app.extensions[EXTENSION]  # type: ignore[no-any-return]

    def serve_forever(self) -> None:
        """Serve until :meth:`stop` (from any thread)."""
        trimmer = Trimmer(time.monotonic)  # memory flat with streams (web.memory)
        with self._serving:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=LOOP_SECONDS, use_poll=True, map=self._map, count=1)
                trimmer.maybe()

    def stop(self) -> None:
        """Make :meth:`serve_forever` return soon; safe from a signal handler."""
        self._stopping.set()
        self.server.pull_trigger()

    shutdown = stop

    def stop_on_signals(self) -> None:
        """Let SIGTERM and SIGINT (Ctrl-C) stop the dashboard (from the main thread). Called
        before the table says where it serves: a stop that comes as soon as the address is
        out (systemd, a script reading it) then shuts down cleanly instead of killing."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self.stop())

    def run_until_stopped(self) -> None:
        """Serve until SIGTERM or SIGINT (Ctrl-C), from the main thread, then close the
        dashboard; the caller then stops the service and closes the store. A signal that came
        after :meth:`stop_on_signals` and before this call ends it at once."""
        self.stop_on_signals()
        try:
            self.serve_forever()
        finally:
            self.close()

    def close(self) -> None:
        """End every event stream, let requests under way finish, close every socket,
        withdraw the mDNS name (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        self.stop()
        self.table.close()
        if self.demo is not None:
            self.demo.stop()
        with self._serving:  # the main loop has returned
            self.server.task_dispatcher.shutdown(timeout=CLOSE_SECONDS)
            wasyncore.close_all(self._map)
        if self.announcer is not None:
            _mdns().withdraw(self.announcer)
            self.announcer = None


def _port(server: Any) -> int:
    """The port waitress listens on (one socket, or several for a name with two addresses)."""
    listening = getattr(server, "effective_listen", None)
    return int(listening[0][1] if listening else server.effective_port)


def _mdns() -> Any:
    """The mDNS announcer (:mod:`companion.web.mdns`), imported by name when a table on the LAN
    first announces itself: zeroconf and asyncio cost a table on loopback (a demo, a kiosk)
    5 MB it never uses."""
    return import_module("companion.web.mdns")
