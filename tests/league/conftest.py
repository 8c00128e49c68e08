"""The league's fixtures: a real PostgreSQL (a throwaway cluster for the session, a fresh
database per test, or per module with :func:`fresh_database` for tests that only read), the
Flask app on it, table keys and the organiser token.

Without PostgreSQL the tests skip, saying how to install it; in CI (CI=1) they fail.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg import sql
from waitress import wasyncore
from waitress.server import create_server

from companion.league.admin import add_table, new_organiser_token
from companion.league.app import create_app
from companion.league.cluster import INSTALL, Cluster, find_binaries, free_port
from companion.league.database import Connection, connect
from companion.league.server import prepare
from companion.league.webio import POOL

_databases = itertools.count(1)
#: the session's migrated database, copied for each test
TEMPLATE = "league_template"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    if find_binaries() is None:
        message = f"the league tests need a real PostgreSQL: {INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with Cluster() as cluster:
        prepare(cluster.create_database(TEMPLATE))
        yield cluster


@contextmanager
def fresh_database(cluster: Cluster) -> Iterator[str]:
    """The conninfo of a fresh, migrated league database (dropped afterwards): a copy of the
    session's migrated template, which costs a file copy instead of every migration."""
    name = f"league_test_{next(_databases)}"
    with connect(cluster.conninfo("postgres")) as conn:
        create = "CREATE DATABASE {} TEMPLATE {}"
        conn.execute(sql.SQL(create).format(sql.Identifier(name), sql.Identifier(TEMPLATE)))
    conninfo = cluster.conninfo(name)
    assert prepare(conninfo) == []  # the template is up to date: nothing left to migrate
    yield conninfo
    with connect(cluster.conninfo("postgres")) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def league_db(pg_cluster: Cluster) -> Iterator[str]:
    with fresh_database(pg_cluster) as conninfo:
        yield conninfo


@pytest.fixture
def db(league_db: str) -> Iterator[Connection]:
    with connect(league_db) as conn:
        yield conn


@contextmanager
def league_app_on(conninfo: str) -> Iterator[Flask]:
    """The league app on database ``conninfo``, its connection pool closed afterwards."""
    app = create_app(conninfo, pool_size=2)
    yield app
    app.extensions[POOL].close()


@pytest.fixture
def league_app(league_db: str) -> Iterator[Flask]:
    with league_app_on(league_db) as app:
        yield app


@pytest.fixture
def league_client(league_app: Flask) -> FlaskClient:
    return league_app.test_client()


@pytest.fixture
def table_key(db: Connection) -> str:
    return add_table(db, "kitchen")


@pytest.fixture
def other_key(db: Connection) -> str:
    return add_table(db, "window")


@pytest.fixture
def organiser(db: Connection) -> str:
    return new_organiser_token(db)


class League:
    """The league app on a real HTTP server (waitress) on loopback, stoppable and restartable."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.sockets: dict[int, Any] = {}
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.sockets = {}
        self.server = create_server(
            self.app, map=self.sockets, host="127.0.0.1", port=self.port, threads=2
        )
        # waitress's own run() looks at its sockets once a second: a stop waited up to that long
        # for the thread to see them all closed; this loop looks every 50 ms
        loop = {"timeout": 0.05, "map": self.sockets, "use_poll": True}
        self.thread = threading.Thread(target=wasyncore.loop, kwargs=loop, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Gone from the network at once: every socket closed, the threads stopped."""
        if self.server is not None:
            self.server.task_dispatcher.shutdown()
            wasyncore.close_all(self.sockets)  # the loop ends with nothing left to watch
            assert self.thread is not None
            self.thread.join(timeout=5)
            self.server = None


@pytest.fixture
def league(league_app: Flask) -> Iterator[League]:
    running = League(league_app)
    running.start()
    yield running
    running.stop()
