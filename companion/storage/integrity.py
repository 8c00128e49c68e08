"""A store checks itself before it is used: a file we know, undamaged, every row readable.

The check runs on a copy of the file (and of its ``-wal``, which may hold the last committed
lines), so a file that fails it is left exactly as it was: opening it with SQLite in place could
checkpoint its WAL into it or delete the WAL on close. A refusal says what is wrong and what to
do. Checked: the application id (ours, or a file with nothing in it yet), a schema version this
companion knows, ``PRAGMA quick_check``, and every log line, event list and game header parses as
strict JSON.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from companion.errors import StoreError
from companion.storage.schema import APPLICATION_ID, KNOWN_VERSIONS, foreign
from companion.tape.strict import StrictJSONError, loads

ATTEMPTS = 2
"""A copy taken while another program writes may be torn; a second copy settles it."""


def check_store(path: Path) -> None:
    """Check the store at ``path`` on a copy. A missing or empty file passes (it is new).

    :raises StoreError: naming the file and what is wrong; the file was not touched.
    """
    try:
        if not path.exists() or path.stat().st_size == 0:
            return
    except OSError as exc:
        raise StoreError(f"{path} cannot be read ({exc.strerror}); choose another path") from None
    for attempt in range(ATTEMPTS):
        try:
            _check_copy(path)
            return
        except StoreError:
            if attempt == ATTEMPTS - 1 or not Path(f"{path}-wal").exists():
                raise


def _check_copy(path: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="companion-check-") as folder:
        copy = Path(folder) / "store.db"
        try:
            shutil.copyfile(path, copy)
            wal = Path(f"{path}-wal")
            if wal.exists():
                shutil.copyfile(wal, Path(f"{copy}-wal"))
        except OSError as exc:
            raise StoreError(
                f"{path} cannot be read ({exc.strerror}); choose another path"
            ) from None
        conn = sqlite3.connect(copy)
        try:
            for problem in problems(conn, str(path)):
                raise StoreError(f"{path} {problem}; {ADVICE}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} is damaged ({exc}); {ADVICE}") from None
        finally:
            conn.close()


ADVICE = (
    "it was left untouched: move it away and restore a backup (`companion backup` makes them), "
    "or choose another --db path"
)


def problems(conn: sqlite3.Connection, name: str) -> Iterator[str]:
    """What is wrong with an open store (the first problem is enough to refuse it)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise StoreError(foreign(name))
    damage = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    if damage != ["ok"]:
        yield f"is damaged (SQLite's check says: {'; '.join(damage)})"
        return
    if "log" not in tables:
        return  # ours, but its first migration never finished: it is set up again
    if "meta" not in tables:
        yield "is damaged (its schema version is missing)"
        return
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    version = row[0] if row is not None else None
    if version not in KNOWN_VERSIONS:
        yield (
            f"has schema version {version!r}, which this companion does not know (it knows "
            f"{', '.join(sorted(KNOWN_VERSIONS))}): it was written by a newer companion"
        )
        return
    yield from _unreadable_rows(conn)


def _unreadable_rows(conn: sqlite3.Connection) -> Iterator[str]:
    for game_id, header, players in conn.execute("SELECT id, header, players FROM games"):
        for what, text in (("header", header), ("players", players)):
            if not _parses(text, dict if what == "header" else list):
                yield f"is damaged: game {game_id}'s {what} is not readable JSON"
                return
    rows = conn.execute("SELECT game_id, seq, line, events FROM log ORDER BY game_id, seq")
    for game_id, seq, line, events in rows:
        if not _parses(line, dict) or not _parses(events, list):
            yield f"is damaged: game {game_id}, log entry {seq} is not readable JSON"
            return


def _parses(text: object, kind: type) -> bool:
    if not isinstance(text, str | bytes):
        return False
    try:
        return isinstance(loads(text), kind)
    except StrictJSONError:
        return False
