"""The store's file: recognising our own files, the schema and its migrations, the pragmas.

A mistyped ``--db`` path must not damage another program's file, so the store reads the file
header itself and refuses anything that is not ours before SQLite ever opens it.
"""

from __future__ import annotations

import os
import pwd
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlite_utils import Database, Migrations

from companion.errors import StoreError
from companion.storage.backup import back_up

APPLICATION_ID = 0x54434D50
"""``PRAGMA application_id`` of our files ("TCMP", big-endian at offset 68 of the header)."""
PAGE_CACHE_KB = 256
"""SQLite's page cache for the store's connection, in KB."""
SCHEMA_VERSION = "4"
"""What ``meta.schema_version`` says once every migration below has run."""
KNOWN_VERSIONS = frozenset({"1", "2", "3", "4"})
"""Schema versions this companion can read (older ones are migrated; a newer companion's file
is refused)."""
_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 108  # the 100-byte file header plus page 1's b-tree header (the schema table)
SETUP_ATTEMPTS = 50
"""How often opening a new file is tried while another program is creating it."""

migrations = Migrations("companion")


@migrations(name="0001-initial")
def _initial(db: Database) -> None:
    """Games, their logs, raw reads, tag bindings, and the schema version."""
    # fmt: off
    db.table("games").create(
        {"id": int, "game": str, "header": str, "players": str, "started": float,
         "ended": float, "winner": str, "winners": str},
        pk="id", not_null=["game", "header", "players", "started"],
    )
    db.table("log").create(
        {"id": int, "game_id": int, "seq": int, "at": float, "recorded": float,
         "line": str, "events": str, "changed": int},
        pk="id", not_null=["game_id", "seq", "recorded", "line", "events", "changed"],
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("reads").create(
        {"id": int, "zone": str, "uid": str, "kind": str, "at": float, "recorded": float,
         "detail": str},
        pk="id", not_null=["zone", "uid", "kind", "at", "recorded"],
    )
    db.table("bindings").create(
        {"uid": str, "card": str, "owner": str, "bound": float},
        pk="uid", not_null=["card", "bound"],
    )
    db.table("meta").create({"key": str, "value": str}, pk="key", not_null=["value"])
    # fmt: on
    db.table("log").create_index(["game_id", "seq"], unique=True)
    db.table("reads").create_index(["recorded"])
    db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


@migrations(name="0002-league-outbox")
def _league_outbox(db: Database) -> None:
    """Finished games waiting to be shipped to a league server; the file's own id, which makes
    its games' ids unique across tables; voided games."""
    db.table("games").add_column("void", int, not_null_default=0)
    # fmt: off
    db.table("outbox").create(
        {"id": int, "game_id": int, "uid": str, "status": str, "payload": str, "queued": float,
         "state": str, "attempts": int, "next_try": float, "last_error": str, "sent": float,
         "answer": str},
        pk="id",
        not_null=["game_id", "uid", "status", "payload", "queued", "state", "attempts",
                  "next_try"],
        defaults={"state": "pending", "attempts": 0, "next_try": 0.0},
        foreign_keys=[("game_id", "games", "id")],
    )
    # fmt: on
    db.table("outbox").create_index(["state", "next_try"])
    db.execute("INSERT INTO meta (key, value) VALUES ('table_uid', ?)", [secrets.token_hex(8)])


@migrations(name="0003-tablets")
def _tablets(db: Database) -> None:
    """Tablets paired at the table (their keys' hashes: a copied file gives no control)."""
    db.table("tablets").create(
        {"key_hash": str, "paired": float, "via": str},
        pk="key_hash",
        not_null=["paired", "via"],
    )
    db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")


@migrations(name="0004-void-by")
def _void_by(db: Database) -> None:
    """Who ended a game unfinished by starting another (its ``ended`` says when)."""
    db.table("games").add_column("void_by", str)
    db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")


def check_file(path: Path, *, writing: bool = True) -> None:
    """Refuse a file that is not ours, reading its header ourselves so SQLite never touches it;
    ``writing``: and a folder that does not take new files.

    A missing or empty file, or a SQLite file with no application id and nothing in it, is
    adopted. :raises StoreError: for anything else that is not ours.
    """
    if path.is_dir():
        raise StoreError(f"{path} is a directory; choose a file path for --db")
    if writing:
        check_folder(path)
    try:
        with path.open("rb") as file:
            head = file.read(_HEADER_BYTES)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"{path} cannot be read ({exc.strerror}); choose another path") from None
    if not head:
        return
    if not head.startswith(_MAGIC) or len(head) < _HEADER_BYTES:
        raise StoreError(
            f"{path} is not a SQLite database (first bytes {head[:16]!r}); "
            "it was left untouched; move it away or choose another path"
        )
    app_id = int.from_bytes(head[68:72], "big")
    schema_is_empty = head[100] == 0x0D and head[103:105] == b"\x00\x00"  # leaf page, no cells
    if app_id == APPLICATION_ID or (app_id == 0 and schema_is_empty):
        return
    raise StoreError(foreign(str(path)))


def check_folder(path: Path) -> None:
    """The store's folder must exist and take new files (SQLite writes its write-ahead log and
    index beside the store, and migrations a copy). :raises StoreError: saying what to do."""
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(
            f"the folder {folder} for the games database does not exist; create it "
            "(`sudo companion install` makes the installed table's) or choose another --db path"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"the folder {folder} does not let this user ({user_name()}) write the games "
            "database; run as its owner or choose another --db path"
        )


def user_name() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:  # a uid without a passwd entry (some containers)
        return f"uid {os.geteuid()}"


def foreign(name: str) -> str:
    return (
        f"{name} is not a table-companion database (it is a SQLite file of another program); "
        "it was left untouched; choose another --db path"
    )


def prepare(db: Database, name: str, *, on_disk: bool, clock: Callable[[], float]) -> Path | None:
    """Check the file is ours (or new), set the pragmas, apply pending migrations; a store
    that already had a schema is first copied beside itself. Returns that copy, if made."""
    # One snapshot for both reads: another program may be creating this file now.
    db.execute("BEGIN")
    app_id = scalar(db, "PRAGMA application_id")
    tables = scalar(db, "SELECT count(*) FROM sqlite_master")
    db.execute("COMMIT")
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise StoreError(foreign(name))  # e.g. tables only in another program's -wal
    if on_disk:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{name}: cannot use write-ahead logging (mode {mode})")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    # The log is appended to and rarely read back: 256 KB of page cache hold the pages an
    # append touches; SQLite's default (2 MB) filled up over a night and stayed resident.
    db.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KB}")
    if app_id == 0:
        # Stamp the file before anything else: migrations commit their bookkeeping
        # table separately, and a power cut there must not leave a file we refuse.
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    copy = None
    pending = migrations.pending(db)
    if on_disk and pending and migrations.applied(db):
        copy = back_up(Path(name), clock())
    migrations.apply(db)
    return copy


def scalar(db: Database, sql: str, *params: Any) -> Any:
    return db.execute(sql, list(params)).fetchone()[0]


def check_writable(path: Path) -> None:
    """Refuse a store whose file, ``-wal`` or ``-shm`` this user may not write, before SQLite
    opens it: SQLite would open it read-only and make an empty ``-wal`` and ``-shm`` beside it
    with the file's mode (0444), which stop the next table once the file is fixed, and which
    cannot safely be removed afterwards (another program may have begun to use them).
    ``os.access`` opens nothing. :raises StoreError: saying what to check."""
    for suffix in ("", "-wal", "-shm"):
        file = Path(f"{path}{suffix}")
        if os.path.lexists(file) and not os.access(file, os.W_OK):
            raise StoreError(
                f"{file} cannot be written (it is read-only for {user_name()}): check that the "
                "file and its folder belong to the user running companion and that the disk "
                "has room"
            )


def prove_writable(db: Database, name: str) -> None:
    """Take the write lock, change a row and roll it back, so a store that cannot be written
    (the file, its ``-wal`` or its ``-shm`` read-only) is refused at start and not at the first
    tap. Nothing reaches the disk, and another program's transaction is not disturbed.

    Only through SQLite: opening and closing a descriptor of the store's files from Python
    would drop every POSIX lock this process holds on them, and the next program to open the
    store would believe it alone and checkpoint and delete the live ``-wal`` (issue 22).

    :raises StoreError: saying what to check.
    """
    try:
        write_and_roll_back(db.conn)
    except Exception as exc:  # sqlite3.Error: read-only file or folder, I/O error
        raise StoreError(
            f"{name} cannot be written ({exc}): check that the file and its folder belong to "
            "the user running companion and that the disk has room"
        ) from None


def write_and_roll_back(conn: sqlite3.Connection) -> None:
    """Take the write lock, change a row of ours and roll it back: nothing reaches the disk.
    ``BEGIN IMMEDIATE`` alone succeeds on a read-only file in WAL mode; a write does not.

    :raises sqlite3.Error: the store cannot be written now (locked, read-only, an I/O error).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
    finally:
        conn.execute("ROLLBACK")


def require_current_schema(conn: sqlite3.Connection, name: str) -> None:
    """:raises StoreError: the store was written by an older companion (a writing opening,
    such as starting the table, updates it), or cannot be read."""
    try:
        has_meta = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'meta'")
        row = None
        if has_meta.fetchone()[0]:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error as exc:
        raise StoreError(f"{name} cannot be read as the store ({exc})") from None
    version = None if row is None else str(row[0])
    if version != SCHEMA_VERSION:
        raise StoreError(
            f"{name} has schema version {version or 'none'}, and this companion reads "
            f"{SCHEMA_VERSION}: start the table once (it updates the store, keeping a copy), "
            "then try again"
        )
