"""Running the dashboard: Werkzeug's threaded server, announced on the LAN over mDNS."""

from __future__ import annotations

import logging
import signal
import socket
import threading
from typing import Any

from werkzeug.serving import make_server
from zeroconf import ServiceInfo, Zeroconf

from companion.table.demo import DemoPlayer
from companion.table.service import TableService
from companion.web.app import create_app
from companion.web.table import EXTENSION, Table

log = logging.getLogger(__name__)
SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = "companion"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class Dashboard:
    """The app on a threaded Werkzeug server, announced over mDNS unless on loopback."""

    def __init__(
        self,
        service: TableService,
        *,
        host: str,
        port: int,
        token: str,
        simulated: bool,
        demo: DemoPlayer | None = None,
    ) -> None:
        self.app = create_app(service=service, token=token, simulated=simulated, demo=demo)
        self.server = make_server(host, port, self.app, threaded=True)
        self.port = self.server.server_port
        self.demo = demo
        self.announcer = None if host in LOCAL_HOSTS else announce(host, self.port)
        if demo is not None:
            demo.start()

    @property
    def table(self) -> Table:
        return self.app.extensions[EXTENSION]  # type: ignore[no-any-return]

    def serve_forever(self) -> None:
        self.server.serve_forever()

    def run_until_stopped(self) -> None:
        """Serve until Ctrl-C or SIGTERM (from the main thread), then close the dashboard;
        the caller then stops the service and closes the store."""
        stopper = threading.Thread(target=self.shutdown, daemon=True)
        signal.signal(signal.SIGTERM, lambda *_: stopper.start())
        try:
            self.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def shutdown(self) -> None:
        """Stop :meth:`serve_forever` (from another thread)."""
        self.server.shutdown()

    def close(self) -> None:
        self.table.close()
        if self.demo is not None:
            self.demo.stop()
        self.server.server_close()
        if self.announcer is not None:
            withdraw(self.announcer)
            self.announcer = None


def lan_address(host: str) -> str:
    """The address to announce: ``host`` itself, or for a wildcard the LAN-facing one."""
    if host not in ("0.0.0.0", "", "::"):
        return socket.gethostbyname(host)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        return str(probe.getsockname()[0])


def announce(host: str, port: int) -> tuple[Any, Any] | None:
    """Announce ``companion._http._tcp`` with zeroconf; None (and a warning) if that fails."""
    try:
        address = lan_address(host)
        info = ServiceInfo(
            SERVICE_TYPE,
            f"{SERVICE_NAME}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(address)],
            port=port,
            properties={"path": "/"},
            server=f"{socket.gethostname()}.local.",
        )
        zeroconf = Zeroconf()
        zeroconf.register_service(info, allow_name_change=True)
    except Exception as exc:  # no network, no multicast, a name clash: serve anyway
        log.warning("not announced over mDNS (%s); open http://%s:%d/", exc, host, port)
        return None
    return zeroconf, info


def withdraw(announcer: tuple[Any, Any]) -> None:
    zeroconf, info = announcer
    try:
        zeroconf.unregister_service(info)
    finally:
        zeroconf.close()
