"""Who may write: table keys (a table pushes its games) and the organiser token (voids games,
merges player names, starts seasons); and the seasons themselves.

Keys and the token are random, shown once when made, and stored only as SHA-256 hashes, so a
copy of the database gives nobody a key.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime

from companion.league.database import Connection, lock_writes, scalar
from companion.league.errors import BadRequest, Conflict, NotFound

TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}")
SEASON_NAME = re.compile(r"\S.{0,59}")
ORGANISER = "organiser_token_sha256"


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    name: str
    created: datetime
    revoked: datetime | None


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    name: str
    started: datetime


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def add_table(conn: Connection, name: str) -> str:
    """Register a table; returns its key (shown once: put it in the table's config)."""
    if not TABLE_NAME.fullmatch(name):
        raise BadRequest(
            f"a table name is 1 to 40 letters, digits, spaces, '.', '_' or '-', not {name!r}"
        )
    key = "tk_" + secrets.token_urlsafe(24)
    with conn.transaction():
        if scalar(conn, "SELECT count(*) FROM tables WHERE name = %s", [name]):
            raise Conflict(
                f"there is already a table {name!r}; give it a new key with "
                f"`companion league table rekey {name!r}` or choose another name"
            )
        conn.execute(
            "INSERT INTO tables (name, key_hash) VALUES (%s, %s)", [name, hash_secret(key)]
        )
    return key


def rekey_table(conn: Connection, name: str) -> str:
    """A new key for a table (its old key stops working; a revoked table works again)."""
    key = "tk_" + secrets.token_urlsafe(24)
    changed = conn.execute(
        "UPDATE tables SET key_hash = %s, revoked = NULL WHERE name = %s", [hash_secret(key), name]
    ).rowcount
    if not changed:
        raise NotFound(f"there is no table {name!r}; add it with `companion league table add`")
    return key


def revoke_table(conn: Connection, name: str) -> None:
    """The table's key stops working (its games stay)."""
    changed = conn.execute(
        "UPDATE tables SET revoked = now() WHERE name = %s AND revoked IS NULL", [name]
    ).rowcount
    if not changed:
        raise NotFound(f"there is no table {name!r} with a working key")


def tables(conn: Connection) -> list[TableRow]:
    rows = conn.execute("SELECT id, name, created, revoked FROM tables ORDER BY name").fetchall()
    return [TableRow(r["id"], r["name"], r["created"], r["revoked"]) for r in rows]


def table_for_key(conn: Connection, key: str) -> TableRow | None:
    """The table a key belongs to (``None``: no such key, or it was revoked)."""
    row = conn.execute(
        "SELECT id, name, created, revoked FROM tables WHERE key_hash = %s AND revoked IS NULL",
        [hash_secret(key)],
    ).fetchone()
    return None if row is None else TableRow(row["id"], row["name"], row["created"], None)


def new_organiser_token(conn: Connection) -> str:
    """A fresh organiser token (the previous one stops working); shown once."""
    token = "org_" + secrets.token_urlsafe(24)
    conn.execute(
        "INSERT INTO settings (key, value) VALUES (%s, %s)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [ORGANISER, hash_secret(token)],
    )
    return token


def is_organiser(conn: Connection, token: str) -> bool:
    stored = scalar(conn, "SELECT value FROM settings WHERE key = %s", [ORGANISER])
    return stored is not None and hmac.compare_digest(str(stored), hash_secret(token))


def seasons(conn: Connection) -> list[Season]:
    rows = conn.execute("SELECT id, name, started FROM seasons ORDER BY id").fetchall()
    return [Season(r["id"], r["name"], r["started"]) for r in rows]


def current_season(conn: Connection) -> Season:
    """The season games go to now: the one started last."""
    row = conn.execute("SELECT id, name, started FROM seasons ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        raise NotFound("the league has no season; start one with `companion league season`")
    return Season(row["id"], row["name"], row["started"])


def find_season(conn: Connection, name: str | None) -> Season:
    """A season by name (``None``: the current one). :raises AdminError: no such season."""
    if name is None:
        return current_season(conn)
    row = conn.execute("SELECT id, name, started FROM seasons WHERE name = %s", [name]).fetchone()
    if row is None:
        known = ", ".join(repr(s.name) for s in seasons(conn))
        raise NotFound(f"there is no season {name!r}; seasons: {known}")
    return Season(row["id"], row["name"], row["started"])


def start_season(conn: Connection, name: str) -> Season:
    """From now on, pushed games go to a new season (ratings start afresh)."""
    if not SEASON_NAME.fullmatch(name.strip()):
        raise BadRequest(f"a season name is 1 to 60 characters, not {name!r}")
    with conn.transaction():
        lock_writes(conn)  # no game lands in the old season after this commits
        if scalar(conn, "SELECT count(*) FROM seasons WHERE name = %s", [name.strip()]):
            raise Conflict(f"there is already a season {name.strip()!r}; choose another name")
        conn.execute("INSERT INTO seasons (name) VALUES (%s)", [name.strip()])
    return current_season(conn)
