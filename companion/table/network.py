"""The table's name and address on the LAN: the one source for every place that says it.

The mDNS announcement, the addresses ``serve``, ``demo --lan`` and ``install`` print, the QR
codes, and the names the dashboard answers to all come from :func:`table_address`. The name is
the host's own (``socket.gethostname()``, first label) in the ``.local`` mDNS domain, so it is
the name Raspberry Pi Imager set and Avahi announces too.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

import ifaddr

__all__ = ["LOOPBACK", "TableAddress", "host_name", "lan_address", "local_name", "table_address"]

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "", "::"})
#: a documentation address (RFC 5737): connecting a UDP socket to it only picks the route
_ROUTE_PROBE = ("192.0.2.1", 9)


def host_name() -> str:
    """This machine's host name, without any domain (``companion`` for ``companion.lan``)."""
    return socket.gethostname().split(".")[0].lower() or "localhost"


def local_name() -> str:
    """The mDNS name of this machine: ``<host name>.local``."""
    return f"{host_name()}.local"


def lan_address(bind: str) -> str | None:
    """The IPv4 address tablets reach this machine at when serving on ``bind``: ``bind``
    itself if it names one address, for a wildcard the address of the LAN-facing interface;
    None on loopback or with no network."""
    if bind in LOOPBACK:
        return None
    try:
        if bind not in WILDCARDS:
            return socket.gethostbyname(bind)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)  # no packet is sent
            found = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(found).is_loopback else found


@dataclass(frozen=True, slots=True)
class TableAddress:
    """Where the dashboard is reached: ``name`` (mDNS) and ``address`` (IPv4) on the LAN, or
    loopback only."""

    bind: str
    port: int
    name: str
    address: str | None

    @property
    def on_lan(self) -> bool:
        return self.bind not in LOOPBACK

    @property
    def url(self) -> str:
        """The address to give people: the mDNS name on the LAN, else this machine's loopback."""
        return self.url_for(self.name if self.on_lan else "127.0.0.1")

    @property
    def address_url(self) -> str | None:
        """The same by IP address, for tablets that do not resolve ``.local`` names."""
        return self.url_for(self.address) if self.on_lan and self.address else None

    def url_for(self, host: str) -> str:
        return f"http://{host}:{self.port}/"

    def served_names(self) -> frozenset[str]:
        """Every host name a request to this dashboard may rightly carry (without the port):
        the mDNS name, the LAN address, the host name and bound address, and loopback."""
        names = set(LOOPBACK) | {self.name}
        if self.on_lan:
            names |= {host_name()}
            if self.address:
                names.add(self.address)
            if self.bind not in WILDCARDS:
                names.add(self.bind.lower())
            else:  # every interface answers: a Pi on Ethernet and Wi-Fi at once
                names |= interface_addresses()
        return frozenset(names)


def interface_addresses() -> set[str]:
    """The IPv4 and IPv6 addresses of this machine's network interfaces."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            found.add(ip.ip if isinstance(ip.ip, str) else ip.ip[0])
    return found


def table_address(bind: str, port: int) -> TableAddress:
    """The table's address when its dashboard listens on ``bind``:``port``."""
    return TableAddress(bind=bind, port=port, name=local_name(), address=lan_address(bind))
