"""The table announced over mDNS as ``companion._http._tcp`` at its name and LAN address, so a
tablet finds it (zeroconf). Imported only by a table serving on the LAN."""

from __future__ import annotations

import logging
from typing import Any

from zeroconf import ServiceInfo, Zeroconf

from companion.table.network import TableAddress

log = logging.getLogger(__name__)
SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = "companion"


def announce(address: TableAddress) -> tuple[Any, Any] | None:
    """Announce ``companion._http._tcp`` at the table's name and LAN address; None (and a
    warning) if that fails."""
    if address.address is None:
        log.warning("no LAN address found: not announced over mDNS")
        return None
    zeroconf = None
    try:
        info = ServiceInfo(
            SERVICE_TYPE,
            f"{SERVICE_NAME}.{SERVICE_TYPE}",
            parsed_addresses=[address.address],
            port=address.port,
            properties={"path": "/"},
            server=f"{address.name}.",
        )
        zeroconf = Zeroconf()
        zeroconf.register_service(info, allow_name_change=True)
    except Exception as exc:  # no multicast, a name clash: serve anyway
        if zeroconf is not None:  # its sockets are open already
            zeroconf.close()
        log.warning("not announced over mDNS (%s); open %s", exc, address.address_url)
        return None
    return zeroconf, info


def withdraw(announcer: tuple[Any, Any]) -> None:
    zeroconf, info = announcer
    try:
        zeroconf.unregister_service(info)
    finally:
        zeroconf.close()
