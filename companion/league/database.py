"""Connections to the league's PostgreSQL: one pool per server process, and the write lock.

Connections are in autocommit mode and every change runs in an explicit transaction. Every
transaction that changes games or ratings first takes one advisory lock, so concurrent pushes
from several tables (in several server processes) are applied one after another: a game's id
is its place in the league's order, and ratings are updated in exactly that order. Replaying
a tape, the slow part, happens before the lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from companion.errors import CompanionError

WRITE_LOCK = 0x4C454157  #: "LEAW": held by every transaction that changes games or ratings
Connection = psycopg.Connection[DictRow]
Pool = ConnectionPool[Connection]


class Unavailable(CompanionError):
    """The league database cannot be reached now; the request may be sent again later."""


def connect(conninfo: str) -> Connection:
    """One connection (commands, tests). :raises Unavailable: if it cannot be opened."""
    try:
        return psycopg.connect(conninfo, autocommit=True, row_factory=dict_row)
    except psycopg.Error as exc:
        raise Unavailable(f"cannot connect to the league database: {_first_line(exc)}") from None


def open_pool(conninfo: str, *, size: int = 4, timeout: float = 10.0) -> Pool:
    """A pool for one server process (open it after the process has forked).

    Connections are checked before use, so a database restart costs a reconnect, not errors.
    """
    pool: Pool = ConnectionPool(
        conninfo,
        connection_class=Connection,
        kwargs={"autocommit": True, "row_factory": dict_row},
        min_size=1,
        max_size=size,
        timeout=timeout,
        check=ConnectionPool.check_connection,
        open=False,
        name="league",
    )
    pool.open(wait=False)
    return pool


@contextmanager
def transaction(pool: Pool) -> Iterator[Connection]:
    """A pooled connection inside a transaction.

    :raises Unavailable: the database cannot be reached (nothing was changed).
    """
    with using(pool) as conn, conn.transaction():
        yield conn


@contextmanager
def using(pool: Pool) -> Iterator[Connection]:
    """A pooled connection (autocommit: each statement on its own).

    :raises Unavailable: the database cannot be reached.
    """
    try:
        with pool.connection() as conn:
            yield conn
    except PoolTimeout:
        raise Unavailable("the league database is busy or down; try again shortly") from None
    except psycopg.OperationalError as exc:
        raise Unavailable(f"the league database failed: {_first_line(exc)}") from None


def lock_writes(conn: Connection) -> None:
    """Wait for every other writer to finish, until this transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])


def scalar(conn: Connection, sql: Any, params: Any = None) -> Any:
    """The first column of the first row (``None`` if there is no row)."""
    row = conn.execute(sql, params).fetchone()
    return None if row is None else next(iter(row.values()))


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
