"""The table-wide half of `companion doctor` that is about the dashboard on this machine: its
port, whether a table already serves there, and the table's ``.local`` name.

Each check uses the thing the way the table will: the port is bound (then closed), the running
table is asked over HTTP, the name is looked up through the system's resolver (Avahi on a Pi).
"""

from __future__ import annotations

import contextlib
import errno
import json
import socket
import threading
import urllib.request
from collections.abc import Callable

from companion.hardware.checkup import Check, Verdict, ok, skipped
from companion.table.network import LOOPBACK, WILDCARDS, local_name

__all__ = ["name_check", "port_check", "running_check", "table_running"]

SUBJECT = "table"
#: a .local look-up without mDNS can hang for seconds: give up after this long
NAME_TIMEOUT = 3.0

Resolver = Callable[[str], list[str]]


def port_check(bind: str, port: int) -> Check:
    """Whether the dashboard could listen on ``bind``:``port`` now."""
    where = f"{bind}:{port}"
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        try:
            probe.bind((bind, port))
        except OSError as exc:
            return _port_taken(where, exc)
    return ok(SUBJECT, "dashboard port", f"{where} is free", "free")


def _port_taken(where: str, exc: OSError) -> Check:
    if exc.errno == errno.EADDRINUSE:
        measured = f"{where} is taken by another program"
        fix = (
            "If the table is running (`systemctl status companion`), that is it: stop it while "
            "the doctor runs. Otherwise another program uses the port: choose another port in "
            "the table config ([table] port = 8081)."
        )
    else:
        measured = f"cannot listen on {where} ({exc.strerror or exc})"
        fix = (
            "The table config's [table] bind is not an address of this machine: write "
            'bind = "0.0.0.0" (every network) or "127.0.0.1" (this machine only).'
        )
    return Check(SUBJECT, "dashboard port", Verdict.FAIL, measured, "free", fix)


def table_running(bind: str, port: int, timeout: float = 1.0) -> bool:
    """Whether a table's dashboard answers on ``bind``:``port`` (its readers are then in use:
    a second program talking to a PN532 garbles both)."""
    host = "127.0.0.1" if bind in WILDCARDS or bind in LOOPBACK else bind
    if ":" in host:
        host = f"[{host}]"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/api/readers", timeout=timeout) as answer:
            document = json.loads(answer.read(1_000_000))
    except (OSError, ValueError):
        return False
    return isinstance(document, dict) and "readers" in document


def running_check(port: int) -> Check:
    """A failure line for a table found running (see :func:`table_running`)."""
    return Check(
        SUBJECT,
        "table stopped",
        Verdict.FAIL,
        f"a table is running and serving on port {port}",
        "stopped while the doctor runs",
        fix="Stop it first (`sudo systemctl stop companion`), run the doctor, then start it "
        "again (`sudo systemctl start companion`): two programs cannot share a reader.",
    )


def name_check(bind: str, resolver: Resolver | None = None, timeout: float = NAME_TIMEOUT) -> Check:
    """Whether the table's ``<host>.local`` name resolves here (a tablet finds it the same
    way, through mDNS). Only a warning: a tablet can always use the address."""
    name = local_name()
    if bind in LOOPBACK:
        return skipped(
            SUBJECT, "table name", f"{name}: the dashboard listens on {bind} only (this machine)"
        )
    found = _look_up(name, resolver or _system_resolver, timeout)
    if found:
        return ok(SUBJECT, "table name", f"{name} -> {', '.join(found)}", "resolves")
    return Check(
        SUBJECT,
        "table name",
        Verdict.WARN,
        f"{name} does not resolve",
        "resolves",
        fix=(
            "Tablets may not find the table by name. Install Avahi "
            "(`sudo apt install avahi-daemon`) and check the Pi's hostname (`hostname`); "
            "meanwhile give tablets the Pi's address (`hostname -I`)."
        ),
    )


def _system_resolver(name: str) -> list[str]:
    infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    return sorted({str(info[4][0]) for info in infos})


def _look_up(name: str, resolver: Resolver, timeout: float) -> list[str]:
    """The resolver's answer, or nothing after ``timeout`` (it runs on in its own thread)."""
    answer: list[str] = []

    def look() -> None:
        with contextlib.suppress(OSError):
            answer.extend(resolver(name))

    worker = threading.Thread(target=look, name="doctor-resolve", daemon=True)
    worker.start()
    worker.join(timeout)
    return list(answer) if not worker.is_alive() else []
