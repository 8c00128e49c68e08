"""``companion league serve``: the league app behind gunicorn, several worker processes.

The master applies the migrations and checks the database before any worker starts; each
worker builds its own app and connection pool after the fork (a pool must not cross a fork).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from companion.league.app import create_app
from companion.league.database import connect
from companion.league.schema import migrate

#: seconds gunicorn gives its workers to finish the requests under way when it is stopped
GRACEFUL_S = 10


class LeagueServer(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn's application API: our settings, and :func:`create_app` per worker."""

    def __init__(
        self,
        conninfo: str,
        *,
        bind: str = "127.0.0.1",
        port: int = 8700,
        workers: int = 2,
        access_log: bool = False,
    ) -> None:
        self.conninfo = conninfo
        self.options: dict[str, Any] = {
            "bind": f"{bind}:{port}",
            "workers": workers,
            "worker_class": "sync",
            "timeout": 60,
            "graceful_timeout": GRACEFUL_S,
            "keepalive": 5,
            "proc_name": "companion-league",
            "accesslog": "-" if access_log else None,
            "errorlog": "-",
            "loglevel": "warning",
            # gunicorn's management socket (gunicornc) is not ours to offer: every server of
            # one user would share its one path in the home folder and unlink each other's
            "control_socket_disable": True,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return create_app(self.conninfo)


def prepare(conninfo: str) -> list[str]:
    """Bring the database's schema up to date; returns the migrations applied."""
    with connect(conninfo) as conn:
        return migrate(conn)


def serve(conninfo: str, **options: Any) -> None:
    """Run until stopped (SIGINT or SIGTERM stops the workers gracefully)."""
    prepare(conninfo)
    LeagueServer(conninfo, **options).run()
