"""Whether the games database can be written, asked of SQLite itself, safely while a table
runs (`companion doctor`).

Only SQLite touches the file: this module never opens it itself, because closing a descriptor
of a SQLite file drops every POSIX lock this process holds on it. SQLite takes the write lock
(``BEGIN IMMEDIATE``, waiting briefly for a table that is writing) and lets it go at once
(``ROLLBACK``): nothing is written, nothing is created.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from companion.errors import StoreError
from companion.storage.schema import APPLICATION_ID, check_folder, write_and_roll_back

__all__ = ["StoreAccess", "probe_store"]

AccessState = Literal["writable", "new", "busy", "unwritable", "foreign"]


@dataclass(frozen=True, slots=True)
class StoreAccess:
    state: AccessState
    message: str


def probe_store(path: Path, *, wait: float = 2.0) -> StoreAccess:
    """What a table would find at ``path``: a store it can write, a new one it can create,
    one another program keeps locked longer than ``wait`` seconds, or one it cannot use."""
    if path.is_dir():
        return StoreAccess("unwritable", f"{path} is a folder, not a database file")
    try:
        check_folder(path)
    except StoreError as exc:
        return StoreAccess("unwritable", str(exc))
    if not path.exists():
        return StoreAccess("new", f"{path} does not exist yet; the table creates it at its start")
    try:
        connection = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=rw", uri=True, timeout=wait
        )
    except sqlite3.Error as exc:
        return StoreAccess("unwritable", f"SQLite cannot open {path} ({exc})")
    try:
        return _try_write(connection, path)
    finally:
        connection.close()


def _try_write(connection: sqlite3.Connection, path: Path) -> StoreAccess:
    try:
        app_id = connection.execute("PRAGMA application_id").fetchone()[0]
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return StoreAccess("foreign", f"{path} is not a SQLite database ({exc})")
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        return StoreAccess("foreign", f"{path} is a SQLite file of another program")
    try:
        if tables:
            write_and_roll_back(connection)  # the table's own start-up check
        else:  # an empty file the table will lay out: the lock is all there is to try
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return StoreAccess("busy", f"{path} stayed locked by another program ({exc})")
        return StoreAccess("unwritable", f"{path} cannot be written ({exc})")
    except sqlite3.Error as exc:
        return StoreAccess("unwritable", f"{path} cannot be written ({exc})")
    return StoreAccess("writable", f"{path} can be written")
