"""``companion league demo``: a league night on one machine. A throwaway PostgreSQL cluster,
the league server (gunicorn, several workers) on loopback, and simulated tables that play
and ship games, so the standings board fills up while you watch.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.league.admin import add_table, new_organiser_token
from companion.league.client import Answer, request
from companion.league.cluster import Cluster
from companion.league.database import connect
from companion.league.server import prepare
from companion.league.simtables import SimulatedTable

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


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM: gunicorn finishes the requests under way and stops its workers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def run_demo(
    echo: Echo,
    *,
    tables: int = 4,
    port: int = 8700,
    workers: int = 2,
    pace: float = 6.0,
    games: int | None = None,
    cheat_rate: float = 0.03,
) -> dict[str, Any]:
    """Run until ``games`` games per table were shipped (``None``: until Ctrl-C); returns the
    final standings as the API gives them."""
    if not port_is_free(port):
        raise ServerFailed(f"port {port} is taken on 127.0.0.1; choose another with --port")
    with Cluster() as cluster:
        conninfo = cluster.conninfo()
        prepare(conninfo)
        with connect(conninfo) as conn:
            keys = {f"table-{n}": add_table(conn, f"table-{n}") for n in range(1, tables + 1)}
            token = new_organiser_token(conn)
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(serve_command(conninfo, port, workers))
        try:
            wait_ready(url, server)
            echo(f"league board: {url}/  (games: {url}/games, factions: {url}/factions)")
            echo(f"API: {url}/api/v1/openapi.json ; organiser token for this demo: {token}")
            echo(f"database: {conninfo}")
            _play(echo, url, keys, pace=pace, games=games, cheat_rate=cheat_rate)
            final = request("GET", f"{url}/api/v1/standings").body
        finally:
            stop_server(server)
    return dict(final) if isinstance(final, dict) else {}


def _play(
    echo: Echo,
    url: str,
    keys: dict[str, str],
    *,
    pace: float,
    games: int | None,
    cheat_rate: float,
) -> None:
    stop = threading.Event()
    lock = threading.Lock()

    def heard(table: str, push: dict[str, Any], answer: Answer) -> None:
        with lock:
            echo(_said(table, push, answer))

    players = [
        SimulatedTable(
            url,
            name,
            key,
            stop=stop,
            heard=heard,
            seed=n,
            pace=pace,
            games=games,
            cheat_rate=cheat_rate,
        )
        for n, (name, key) in enumerate(keys.items(), start=1)
    ]
    for table in players:
        table.start()
    try:
        while any(table.is_alive() for table in players):
            time.sleep(0.2)
    except KeyboardInterrupt:
        echo("stopping: the tables finish, the server and the database go")
    finally:
        stop.set()
        for table in players:
            table.join(30)


def _said(table: str, push: dict[str, Any], answer: Answer) -> str:
    if not answer.ok:
        return f"[{table}] {push['id']}: refused ({answer.error})"
    vp = push["claimed"]["vp"]
    scores = ", ".join(f"{name} {points}" for name, points in vp.items())
    winners = " and ".join(push["claimed"]["winners"]) or "nobody"
    status = answer.body.get("status") if isinstance(answer.body, dict) else "?"
    return f"[{table}] {winners} won ({scores}): {status}"
