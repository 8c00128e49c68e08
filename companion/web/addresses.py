"""The names and addresses the dashboard is served under: the one source for the Host check.

This is the seam for "which names is this table reachable by": the bind address, every address
of this machine when bound to all of them, the machine's name and its mDNS ``.local`` name, and
loopback. A request naming any other host is refused (a DNS-rebinding page cannot borrow the
tablet's browser to reach the table).
"""

from __future__ import annotations

import socket

import ifaddr

WILDCARDS = frozenset({"0.0.0.0", "", "::"})
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def served_hosts(bind: str) -> frozenset[str]:
    """Every host name a request to a dashboard bound to ``bind`` may carry (lower case)."""
    name = socket.gethostname().lower()
    hosts = set(LOOPBACK) | {name, f"{name}.local"}
    if bind in WILDCARDS:
        hosts |= interface_addresses()
    else:
        hosts.add(bind.lower())
    return frozenset(hosts)


def interface_addresses() -> set[str]:
    """The IPv4 and IPv6 addresses of this machine's network interfaces."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            found.add(ip.ip if isinstance(ip.ip, str) else ip.ip[0])
    return found


def host_name(header: str) -> str:
    """The host part of a ``Host`` header, without its port, lower case: ``[::1]:8080`` is
    ``::1``, ``Table.local.:80`` is ``table.local``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")
