"""``companion league demo``: a league night on one machine. A throwaway PostgreSQL cluster,
the league server (gunicorn, several workers) on loopback, and simulated tables that play
games as real tables do (their own SQLite file, the outbox, the shipper), so the standings
board fills up while you watch.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.league.admin import add_table, new_organiser_token
from companion.league.client import request
from companion.league.cluster import Cluster
from companion.league.database import connect
from companion.league.demotable import DemoTable
from companion.league.server import GRACEFUL_S, prepare
from companion.storage.outbox import OutboxEntry

Echo = Callable[[str], None]
READY_S = 60.0


class ServerFailed(CompanionError):
    """The league server did not start (or stopped answering)."""


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def serve_command(conninfo: str, port: int, workers: int) -> list[str]:
    return [sys.executable, "-m", "companion", "league", "serve", "--db", conninfo,
            "--port", str(port), "--workers", str(workers)]  # fmt: skip


def wait_ready(url: str, process: subprocess.Popen[bytes], timeout: float = READY_S) -> None:
    """Until the server answers its health check. :raises RuntimeError: it exited or hung."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerFailed(
                f"the league server exited with status {process.returncode} (see its messages "
                "above; is the port taken? choose another with --port)"
            )
        try:
            if request("GET", f"{url}/api/v1/health", timeout=2).ok:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise ServerFailed(f"the league server did not answer within {timeout:.0f} s")


def start_server(conninfo: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    """The league server in a process group of its own, so that :func:`stop_server` can end
    its workers with it."""
    return subprocess.Popen(serve_command(conninfo, port, workers), start_new_session=True)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM: gunicorn finishes the requests under way and stops its workers, within its
    graceful timeout (a worker still booting when the signal comes ignores it, and is
    killed at the end of that time). A master still there after it is killed with every
    worker of its group: killing the master alone left the workers serving on, orphaned."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(GRACEFUL_S + 5)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


def run_demo(
    echo: Echo,
    *,
    tables: int = 4,
    port: int = 8700,
    workers: int = 2,
    pace: float = 6.0,
    games: int | None = None,
) -> dict[str, Any]:
    """Run until ``games`` games per table were played and shipped (``None``: until Ctrl-C);
    returns the final standings as the API gives them."""
    if not port_is_free(port):
        raise ServerFailed(f"port {port} is taken on 127.0.0.1; choose another with --port")
    with Cluster() as cluster, tempfile.TemporaryDirectory(prefix="league-tables-") as folder:
        conninfo = cluster.conninfo()
        prepare(conninfo)
        with connect(conninfo) as conn:
            keys = {f"table-{n}": add_table(conn, f"table-{n}") for n in range(1, tables + 1)}
            token = new_organiser_token(conn)
        url = f"http://127.0.0.1:{port}"
        server = start_server(conninfo, port, workers)
        try:
            wait_ready(url, server)
            echo(f"league board: {url}/  (games: {url}/games, factions: {url}/factions)")
            echo(f"API: {url}/api/v1/openapi.json ; organiser token for this demo: {token}")
            echo(f"database: {conninfo}")
            playing = [
                DemoTable(
                    Path(folder),
                    name,
                    url,
                    key,
                    stop=threading.Event(),
                    seed=n,
                    pace=pace,
                    games=games,
                )  # fmt: skip
                for n, (name, key) in enumerate(keys.items(), start=1)
            ]
            _play(echo, playing)
            final = request("GET", f"{url}/api/v1/standings").body
        finally:
            stop_server(server)
    return dict(final) if isinstance(final, dict) else {}


def _play(echo: Echo, playing: list[DemoTable]) -> None:
    """Start the tables and tell each game the league answered, until all are done."""
    for table in playing:
        table.start()
    try:
        while not all(table.idle for table in playing):
            for table in playing:
                for entry in table.newly_shipped():
                    echo(_said(table.table, entry))
            time.sleep(0.2)
        for table in playing:
            for entry in table.newly_shipped():
                echo(_said(table.table, entry))
    except KeyboardInterrupt:
        echo("stopping: the tables stop, the server and the database go")
    finally:
        for table in playing:
            table.stop.set()
        for table in playing:
            table.join(30)
            table.close()


def _said(table: str, entry: OutboxEntry) -> str:
    push = entry.payload
    if entry.state == "refused":
        return f"[{table}] {entry.uid}: refused ({entry.last_error})"
    if push["status"] == "void":
        return f"[{table}] a game abandoned unfinished: void"
    vp = push["claimed"]["vp"]
    scores = ", ".join(f"{name} {points}" for name, points in vp.items())
    winners = " and ".join(push["claimed"]["winners"]) or "nobody"
    status = (entry.answer or {}).get("status", "?")
    return f"[{table}] {winners} won ({scores}): {status}"
